/** API keys of the signed-in user (issue 15 section 3; spec 3 section 7 `api/api-keys`). */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { API_KEY_PAGE_SIZE, type ApiKeyDTO, type ApiKeyPage } from '@domain/api-keys';
import { http } from '../../api/client';

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  page: (page: number) => [...apiKeyKeys.all, page] as const,
};

export const apiKeyQueries = {
  page: (page: number) =>
    queryOptions({
      queryKey: apiKeyKeys.page(page),
      queryFn: ({ signal }) =>
        http.get<ApiKeyPage>('api/api-keys', {
          query: { page, size: API_KEY_PAGE_SIZE, cacheBuster: Date.now() },
          signal,
        }),
      placeholderData: keepPreviousData,
    }),
};

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (expirationDate: string) => http.post<ApiKeyDTO>('api/api-keys', { expirationDate }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<unknown>(`api/api-keys/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
