/**
 * Asr documents (spec 2 sections 2 and 7; docs/api-speech.md): the AUDIOFILE documents of a process as the
 * entity screens list, search, show, create, rename and delete them; the transcript of one for its view.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { http, request } from '../../api/client';

export interface AsrDocument {
  id: number;
  processId: number;
  filename: string;
  status: string;
}

export interface AsrToken {
  id: number;
  value: string;
  tsStart: number | null;
  tsEnd: number | null;
}

export interface AsrUtterance {
  id: number;
  actor: string;
  prevId: number | null;
  nextId: number | null;
  tokens: AsrToken[];
}

export interface AsrPage {
  rows: AsrDocument[];
  total: number;
}

export const ASR_PAGE_SIZE = 20;

export const asrKeys = {
  all: ['asr-documents'] as const,
  list: (processId: number | null, query: string, page: number, size: number) =>
    [...asrKeys.all, 'list', processId, query, page, size] as const,
  detail: (id: number) => [...asrKeys.all, 'detail', id] as const,
  utterances: (id: number) => [...asrKeys.all, 'utterances', id] as const,
};

export const asrQueries = {
  /** A page of one process's asr documents, or of a search (in that process when one is chosen). */
  list: (processId: number | null, query: string, page: number, size = ASR_PAGE_SIZE) =>
    queryOptions({
      queryKey: asrKeys.list(processId, query, page, size),
      queryFn: async ({ signal }): Promise<AsrPage> => {
        const paging = { page, size, ...(processId ? { processId } : {}) };
        const res = query
          ? await request<AsrDocument[]>('api/_search/asr-documents', {
              method: 'GET',
              signal,
              query: { query, ...paging },
            })
          : await request<AsrDocument[]>('api/asr-documents', { method: 'GET', signal, query: paging });
        return { rows: res.data, total: Number(res.headers.get('x-total-count') ?? res.data.length) };
      },
    }),
  detail: (id: number) =>
    queryOptions({
      queryKey: asrKeys.detail(id),
      queryFn: ({ signal }) => http.get<AsrDocument>(`api/asr-documents/${id}`, { signal }),
    }),
  utterances: (id: number) =>
    queryOptions({
      queryKey: asrKeys.utterances(id),
      queryFn: ({ signal }) => http.get<AsrUtterance[]>(`api/asr-documents/${id}/utterances`, { signal }),
    }),
};

export function useSaveAsrDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (doc: { id?: number; processId: number; filename: string }) =>
      doc.id
        ? http.put<AsrDocument>('api/asr-documents', doc)
        : http.post<AsrDocument>('api/asr-documents', doc),
    onSettled: () => queryClient.invalidateQueries({ queryKey: asrKeys.all }),
  });
}

export function useDeleteAsrDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`api/asr-documents/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: asrKeys.all }),
  });
}
