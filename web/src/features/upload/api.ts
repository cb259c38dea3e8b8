/**
 * Where the upload page may send files: the process's HTTP upload (HUP) nodes that take uploads (the
 * obligatory Upload node, or an active HUP node) on which the user holds WRITE (what `POST api/file-upload`
 * checks; "node permission on the HUP node", spec 2 section 6). Readers of the process read its nodes with
 * `GET api/nodes?processId`; a user granted nodes only reads those with `POST api/nodes/fetch-by-ids`, so
 * that no call of this page can answer 403. Also the upload itself and the API's limits.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  grantedNodeIds,
  modeSatisfies,
  nodeMode,
  processMode,
  type AccessMode,
  type Principal,
} from '@domain';
import type { NodeDTO } from '@domain/graph-types';
import { http, uploadForm } from '../../api/client';
import { nodeQueries } from '../graph/api';
import { managementQueries } from '../shell/api';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from './model';

export interface UploadNode {
  id: number;
  name: string;
  obligatory: boolean;
  /** The caller's mode on the node. */
  mode: AccessMode | null;
  writable: boolean;
}

/** A node that takes uploads through `POST api/file-upload` (api/routes/file-upload.ts assertUploadNode). */
export const takesUploads = (n: Pick<NodeDTO, 'activityType' | 'obligatory' | 'active'>): boolean =>
  n.activityType === 'HUP' && (n.obligatory || n.active !== false);

export function toUploadNodes(
  nodes: readonly NodeDTO[],
  principal: Principal,
  processId: number,
): UploadNode[] {
  return nodes
    .filter((n) => n.processId === processId && takesUploads(n))
    .map((n) => {
      const mode = n.accessMode ?? nodeMode(principal, n.id, n.processId);
      return {
        id: n.id,
        name: n.name,
        obligatory: n.obligatory,
        mode,
        writable: modeSatisfies(mode, 'WRITE'),
      };
    })
    .sort((a, b) => Number(b.obligatory) - Number(a.obligatory) || a.id - b.id);
}

export const uploadKeys = {
  grantedNodes: (ids: readonly number[]) => ['nodes', 'granted', ...ids] as const,
};

/** The nodes the principal is granted directly (NODE authorities), across processes. */
const grantedNodesQuery = (ids: number[]) =>
  queryOptions({
    queryKey: uploadKeys.grantedNodes(ids),
    queryFn: ({ signal }) => http.post<NodeDTO[]>('api/nodes/fetch-by-ids', { nodeIds: ids }, { signal }),
    enabled: ids.length > 0,
  });

const WRITE_MODES = new Set<AccessMode>(['WRITE', 'ADMIN']);

/** Ids of the nodes the principal holds WRITE or ADMIN on directly. */
export const writableGrantedNodeIds = (principal: Principal | null): number[] =>
  principal
    ? [
        ...new Set(
          principal.authorities
            .filter((a) => a.type === 'NODE' && WRITE_MODES.has(a.mode))
            .map((a) => a.componentId),
        ),
      ].sort((a, b) => a - b)
    : [];

/** The upload nodes of one process as the caller sees them. */
export function useUploadNodes(principal: Principal | null, processId: number) {
  const readsProcess = !!principal && processMode(principal, processId) !== null;
  const all = useQuery({ ...nodeQueries.list(processId), enabled: readsProcess });
  const grantedIds = principal && !readsProcess ? grantedNodeIds(principal).sort((a, b) => a - b) : [];
  const granted = useQuery(grantedNodesQuery(grantedIds));
  const source = readsProcess ? all : granted;
  const nodes = principal && source.data ? toUploadNodes(source.data, principal, processId) : [];
  const isLoading = readsProcess ? all.isPending : grantedIds.length > 0 && granted.isPending;
  return { nodes, isLoading, isError: source.isError };
}

/**
 * The processes (among `processIds`) where the caller may upload: WRITE on the process reaches its
 * obligatory Upload node; otherwise a node granted directly with WRITE that takes uploads.
 */
export function useUploadableProcesses(
  principal: Principal | null,
  modes: ReadonlyMap<number, AccessMode | null>,
): Set<number> {
  const ids = writableGrantedNodeIds(principal);
  const granted = useQuery(grantedNodesQuery(ids));
  const out = new Set<number>();
  for (const [id, mode] of modes) if (modeSatisfies(mode, 'WRITE')) out.add(id);
  for (const n of granted.data ?? []) if (takesUploads(n)) out.add(n.processId);
  return out;
}

/** The API's limits (management/info), or its defaults. */
export function useUploadLimits(): UploadLimits {
  const info = useQuery(managementQueries.info());
  return info.data?.upload ?? DEFAULT_UPLOAD_LIMITS;
}

/** The summary `POST api/file-upload` answers with (201). */
export interface UploadedDocument {
  id: number;
  filename: string;
  documentType: string;
  processId: number;
}

/** Sends one file to the node; failures are listed by the page, not toasted. */
export function uploadFile(
  file: File,
  nodeId: number,
  opts: { onProgress?: (loaded: number, total: number) => void; signal?: AbortSignal },
): Promise<UploadedDocument> {
  const form = new FormData();
  form.append('nodeId', String(nodeId));
  form.append('file', file, file.name);
  // A large file on a slow line may take longer than the usual request timeout.
  return uploadForm<UploadedDocument>('api/file-upload', form, {
    ...opts,
    silent: true,
    timeoutMs: 30 * 60_000,
  });
}
