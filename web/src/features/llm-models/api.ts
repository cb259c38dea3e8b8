/** LLM models (spec 3 section 3 "LLM model"; issue 15 section 4): any signed-in user reads, system admins manage. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LlmModelDTO } from '@domain/integration-types';
import { http } from '../../api/client';
import { nodeConfigKeys, nodeConfigQueries } from '../nodes/api';

/** The list is the node panels' (one cache entry for both). */
export const llmModelQueries = { list: nodeConfigQueries.llmModels };

export interface LlmModelInput {
  id?: number;
  name: string;
  modalities: string[];
}

export function useSaveLlmModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (model: LlmModelInput) =>
      model.id === undefined
        ? http.post<LlmModelDTO>('api/llm-models', model)
        : http.put<LlmModelDTO>('api/llm-models', model),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: nodeConfigKeys.llmModels }),
  });
}

export function useDeleteLlmModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<unknown>(`api/llm-models/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: nodeConfigKeys.llmModels }),
  });
}
