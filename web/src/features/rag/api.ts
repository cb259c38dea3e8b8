/**
 * RAG (spec 3 "RAG"; issue 16 section 3): the process's template (GET api/rag-templates?processId, the
 * process's own or the default; PUT; DELETE {id} resets it to the default) and the query (POST api/rag).
 * A query's failure is shown in the screen's danger alert, not as a toast, so the call is silent.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { RagQuery, RagResponse, RagTemplateDTO } from '@domain/rag-types';
import { http } from '../../api/client';

export const ragKeys = {
  all: ['rag'] as const,
  templates: () => [...ragKeys.all, 'template'] as const,
  template: (processId: number) => [...ragKeys.templates(), processId] as const,
};

export const ragQueries = {
  template: (processId: number) =>
    queryOptions({
      queryKey: ragKeys.template(processId),
      queryFn: ({ signal }) =>
        http.get<RagTemplateDTO>('api/rag-templates', {
          signal,
          query: { processId, cacheBuster: Date.now() },
        }),
    }),
};

export function useSaveRagTemplate(processId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (template: RagTemplateDTO) => http.put<RagTemplateDTO>('api/rag-templates', template),
    onSuccess: (saved) => queryClient.setQueryData(ragKeys.template(processId), saved),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ragKeys.template(processId) }),
  });
}

export function useResetRagTemplate(processId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`api/rag-templates/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ragKeys.template(processId) }),
  });
}

export function useRagQuery() {
  return useMutation({
    mutationFn: (query: RagQuery) => http.post<RagResponse>('api/rag', query, { silent: true }),
  });
}
