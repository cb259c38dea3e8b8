/**
 * Node configuration calls (spec 3 section 7): the node itself (GET/PUT/DELETE api/nodes), the static node
 * properties (whitelists, defaults, limits), LLM models, inter-process receivers, the upload connections of a
 * node (e-mail, SFTP, cloud drive), process actors and the footer's fetch / train actions.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProcessActorDTO, ProcessDTO } from '@domain';
import type { NodeDTO } from '@domain/graph-types';
import type {
  DriveConfigDTO,
  DriveConnectionDTO,
  DriveConnectionsChangeDTO,
  EmailConnectionDTO,
  IprNodeDTO,
  LlmModelDTO,
  SftpConnectionDTO,
} from '@domain/integration-types';
import { http, request } from '../../api/client';
import { edgeKeys, nodeKeys, predicateKeys } from '../graph/api';
import { processKeys } from '../processes/api';

export const nodeConfigKeys = {
  llmModels: ['llm-models'] as const,
  iprNodes: ['inter-process-receiver-nodes'] as const,
  email: (nodeId: number) => ['email-upload-connections', nodeId] as const,
  sftp: (nodeId: number) => ['sftp-connections', nodeId] as const,
  drive: (nodeId: number) => ['drive-connections', nodeId] as const,
  driveConfig: ['drive-connections', 'config'] as const,
};

const STATIC = { staleTime: 5 * 60_000 };

export const nodeConfigQueries = {
  llmModels: () =>
    queryOptions({
      queryKey: nodeConfigKeys.llmModels,
      queryFn: ({ signal }) => http.get<LlmModelDTO[]>('api/llm-models', { signal }),
      ...STATIC,
    }),
  iprNodes: () =>
    queryOptions({
      queryKey: nodeConfigKeys.iprNodes,
      queryFn: ({ signal }) =>
        http.get<IprNodeDTO[]>('api/inter-process-receiver-nodes', {
          signal,
          query: { cacheBuster: Date.now() },
        }),
    }),
  emailConnections: (nodeId: number) =>
    queryOptions({
      queryKey: nodeConfigKeys.email(nodeId),
      queryFn: ({ signal }) =>
        http.get<EmailConnectionDTO[]>('api/email-upload-connection-data', { signal, query: { nodeId } }),
    }),
  sftpConnections: (nodeId: number) =>
    queryOptions({
      queryKey: nodeConfigKeys.sftp(nodeId),
      queryFn: ({ signal }) =>
        http.get<SftpConnectionDTO[]>('api/sftp-connection-data', { signal, query: { nodeId } }),
    }),
  driveConnections: (nodeId: number) =>
    queryOptions({
      queryKey: nodeConfigKeys.drive(nodeId),
      queryFn: ({ signal }) =>
        http.get<DriveConnectionDTO[]>(`api/node/${nodeId}/google-drive-connections`, { signal }),
    }),
  driveConfig: () =>
    queryOptions({
      queryKey: nodeConfigKeys.driveConfig,
      queryFn: ({ signal }) => http.get<DriveConfigDTO>('api/google-drive-connections/config', { signal }),
      ...STATIC,
    }),
};

/** Invalidates every node query (the graph's lists, details and ancestors share the ['nodes'] root). */
const invalidateNodes = (queryClient: ReturnType<typeof useQueryClient>) =>
  queryClient.invalidateQueries({ queryKey: nodeKeys.all });

/**
 * PUT api/nodes with the whole node. Silent: the panel shows field errors under the fields and toasts the
 * rest itself. Resolves with the saved node and whether the server already sent a success alert.
 */
export function useSaveNode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (node: NodeDTO) => {
      const res = await request<NodeDTO>('api/nodes', { method: 'PUT', body: node, silent: true });
      return { node: res.data, alerted: res.headers.has('x-soaapp-alert') };
    },
    onSuccess: ({ node }) => {
      queryClient.setQueryData(nodeKeys.detail(node.id), node);
      return invalidateNodes(queryClient);
    },
  });
}

export function useDeleteNode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`api/nodes/${id}`),
    onSuccess: (_data, id) => {
      queryClient.removeQueries({ queryKey: nodeKeys.detail(id) });
      return Promise.all([
        invalidateNodes(queryClient),
        queryClient.invalidateQueries({ queryKey: edgeKeys.all }),
        queryClient.invalidateQueries({ queryKey: predicateKeys.all }),
      ]);
    },
  });
}

/** The footer's fetch and train buttons (spec 3 section 7); each waits for the run and answers its outcome. */
export type NodeAction = 'fetchSftp' | 'fetchMail' | 'fetchDrive' | 'train';

/** What a fetch answers: the documents it imported and the connections that failed. */
export interface FetchOutcome {
  imported: number;
  errors: string[];
}

/** What a training answers (the recorded training). */
export interface TrainingOutcome {
  status: 'SUCCESS' | 'FAILURE';
  documents: number;
}

/** What execute-action answers: the batch the node executed for. */
export interface ExecuteOutcome {
  status: 'SUCCESS' | 'FAILURE' | 'SKIPPED';
  documents: number;
  error: string | null;
}

const ACTION_PATHS: Record<NodeAction, (id: number) => string> = {
  fetchSftp: (id) => `api/sftp-upload-node/${id}/fetch-sftp-content`,
  fetchMail: (id) => `api/email-upload-node/${id}/fetch-mail`,
  fetchDrive: (id) => `api/google-drive-upload-node/${id}/fetch-content`,
  train: (id) => `api/trainable-nodes/${id}/train`,
};

export function useNodeAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, nodeId }: { action: NodeAction; nodeId: number }) =>
      http.put<FetchOutcome | TrainingOutcome>(ACTION_PATHS[action](nodeId)),
    // A poll changes the node's last-poll status.
    onSuccess: () => invalidateNodes(queryClient),
  });
}

/**
 * POST api/action-nodes/{id}/execute-action: runs a CRON or THRESHOLD action node at once for what it has
 * collected (after saving a CRON trigger that has not run yet).
 */
export function useExecuteAction() {
  return useMutation({
    mutationFn: (nodeId: number) => http.post<ExecuteOutcome>(`api/action-nodes/${nodeId}/execute-action`),
  });
}

/** PUT api/process/{id}/process-actors/ replaces the process's actors. */
export function useSaveActors(processId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (actors: Omit<ProcessActorDTO, 'id'>[]) =>
      http.put<ProcessActorDTO[]>(`api/process/${processId}/process-actors/`, actors),
    onSuccess: (actors) => {
      queryClient.setQueryData<ProcessDTO>(processKeys.detail(processId), (p) => (p ? { ...p, actors } : p));
      return queryClient.invalidateQueries({ queryKey: processKeys.all });
    },
  });
}

// --- e-mail upload connections ---

export function useSaveEmailConnection(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (c: EmailConnectionDTO) =>
      c.id
        ? http.put<EmailConnectionDTO>('api/email-upload-connection-data', c)
        : http.post<EmailConnectionDTO>('api/email-upload-connection-data', c),
    onSettled: () => queryClient.invalidateQueries({ queryKey: nodeConfigKeys.email(nodeId) }),
  });
}

export function useDeleteEmailConnection(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`api/email-upload-connection-data/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: nodeConfigKeys.email(nodeId) }),
  });
}

// --- SFTP connections ---

export function useSaveSftpConnection(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (c: SftpConnectionDTO) =>
      c.id
        ? http.put<SftpConnectionDTO>('api/sftp-connection-data', c)
        : http.post<SftpConnectionDTO>('api/sftp-connection-data', c),
    onSettled: () => queryClient.invalidateQueries({ queryKey: nodeConfigKeys.sftp(nodeId) }),
  });
}

export function useDeleteSftpConnection(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`api/sftp-connection-data/${id}`),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: nodeConfigKeys.sftp(nodeId) }),
        // Transfer rules of the node cascade with their source connection.
        queryClient.invalidateQueries({ queryKey: nodeKeys.detail(nodeId) }),
      ]),
  });
}

/** POST api/sftp-connection-data/test: 200 means the connection works; silent, the modal shows the status. */
export function useTestSftpConnection() {
  return useMutation({
    mutationFn: (c: SftpConnectionDTO) =>
      request<unknown>('api/sftp-connection-data/test', { method: 'POST', body: c, silent: true }),
  });
}

// --- cloud-drive connections ---

export function useSaveDriveConnections(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: DriveConnectionsChangeDTO) =>
      http.put<DriveConnectionDTO[]>('api/node/google-drive-connections', change),
    onSettled: () => queryClient.invalidateQueries({ queryKey: nodeConfigKeys.drive(nodeId) }),
  });
}
