/**
 * Processes (Spheres), process tags and external document splitters: one key factory and one queryOptions
 * factory per resource, plus the mutations; lists are invalidated after every change.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  higherMode,
  modeSatisfies,
  processMode,
  type AccessMode,
  type ExternalDocumentSplitterDTO,
  type Principal,
  type ProcessDTO,
  type ProcessTagDTO,
} from '@domain';
import { http } from '../../api/client';
import { accountKeys } from '../account/api';

// --- processes ---

export const processKeys = {
  all: ['processes'] as const,
  lists: () => [...processKeys.all, 'list'] as const,
  list: () => [...processKeys.lists()] as const,
  details: () => [...processKeys.all, 'detail'] as const,
  detail: (id: number) => [...processKeys.details(), id] as const,
};

export const processQueries = {
  list: () =>
    queryOptions({
      queryKey: processKeys.list(),
      queryFn: ({ signal }) => http.get<ProcessDTO[]>('api/processes', { signal }),
    }),
  detail: (id: number) =>
    queryOptions({
      queryKey: processKeys.detail(id),
      queryFn: ({ signal }) => http.get<ProcessDTO>(`api/processes/${id}`, { signal }),
    }),
};

export interface ProcessCreate {
  name: string;
  isRagEnabled: boolean;
  processTags: { id: number }[];
  ragTextSplitter: { id: number } | null;
}

export function useCreateProcess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProcessCreate) => http.post<ProcessDTO>('api/processes', body),
    onSuccess: async () => {
      // The creator gets ADMIN on the new process: refresh the account's authorities before navigating on.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: processKeys.lists() }),
        queryClient.refetchQueries({ queryKey: accountKeys.current(), exact: true }),
      ]);
    },
  });
}

/** Turns a Sphere's RAG on or off and sets its splitter (turning it on indexes its DONE documents). */
export function useSetProcessRag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      ...body
    }: {
      id: number;
      isRagEnabled: boolean;
      ragTextSplitter: { id: number } | null;
    }) => http.put<ProcessDTO>(`api/processes/${id}/rag`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: processKeys.all }),
  });
}

/** Replaces a Sphere's tags (exactly one system tag among them). */
export function useSaveProcessTags() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, tagIds }: { id: number; tagIds: readonly number[] }) =>
      http.put<ProcessDTO>(
        `api/processes/${id}/process-tags`,
        tagIds.map((tagId) => ({ id: tagId })),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: processKeys.all }),
  });
}

export function useDeleteProcess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`api/processes/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: processKeys.lists() }),
  });
}

/** A held mode passes a route's list of modes when it reaches any of them (an empty list passes all). */
export const modesAllow = (held: AccessMode | null, required: readonly AccessMode[]): boolean =>
  required.length === 0 || required.some((m) => modeSatisfies(held, m));

/**
 * The caller's access mode on a process: the account's authorities (domain/access.ts) first; when those are
 * not enough, the mode the server reports for the process in the list (never a 403: the list only holds
 * processes the caller may read).
 */
export function useProcessAccessMode(
  principal: Principal | null,
  processId: number | null,
  required: readonly AccessMode[],
): { mode: AccessMode | null; isLoading: boolean } {
  const local = principal && processId !== null ? processMode(principal, processId) : null;
  const localEnough = modesAllow(local, required);
  const needServer = !!principal && processId !== null && !localEnough;
  const list = useQuery({ ...processQueries.list(), enabled: needServer });
  if (!needServer) return { mode: local, isLoading: false };
  if (list.isPending) return { mode: local, isLoading: true };
  const remote = list.data?.find((p) => p.id === processId)?.accessMode ?? null;
  return { mode: higherMode(local, remote), isLoading: false };
}

// --- process tags ---

export const tagKeys = {
  all: ['process-tags'] as const,
  list: () => [...tagKeys.all, 'list'] as const,
};

export const tagQueries = {
  list: () =>
    queryOptions({
      queryKey: tagKeys.list(),
      queryFn: ({ signal }) => http.get<ProcessTagDTO[]>('api/process-tags', { signal }),
    }),
};

export function useSaveTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tag: { id?: number; name: string; color: string; predefined: boolean }) =>
      tag.id === undefined
        ? http.post<ProcessTagDTO>('api/process-tags', {
            name: tag.name,
            color: tag.color,
            predefined: tag.predefined,
          })
        : http.put<ProcessTagDTO>('api/process-tags', { id: tag.id, name: tag.name, color: tag.color }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: tagKeys.list() }),
        queryClient.invalidateQueries({ queryKey: processKeys.all }),
      ]),
  });
}

export function useDeleteTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`api/process-tags/${id}`),
    // The tag is removed from ALL processes.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: tagKeys.list() }),
        queryClient.invalidateQueries({ queryKey: processKeys.all }),
      ]),
  });
}

// --- external document splitters ---

export const splitterKeys = {
  all: ['external-document-splitters'] as const,
  list: () => [...splitterKeys.all, 'list'] as const,
};

export const splitterQueries = {
  list: () =>
    queryOptions({
      queryKey: splitterKeys.list(),
      queryFn: ({ signal }) =>
        http.get<ExternalDocumentSplitterDTO[]>('api/external-document-splitter', { signal }),
      staleTime: 5 * 60_000,
    }),
};
