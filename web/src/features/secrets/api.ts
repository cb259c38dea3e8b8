/**
 * Process secrets (spec 3 "Secrets"): GET api/secrets?processId, POST, PUT {id}?active=, DELETE {id}; the
 * list is reloaded after each change. Values are write-only: the API never returns them.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { SecretCreateDTO, SecretDTO } from '@domain/integration-types';
import { http } from '../../api/client';

export const secretKeys = {
  all: ['secrets'] as const,
  lists: () => [...secretKeys.all, 'list'] as const,
  list: (processId: number) => [...secretKeys.lists(), processId] as const,
};

export const secretQueries = {
  list: (processId: number) =>
    queryOptions({
      queryKey: secretKeys.list(processId),
      queryFn: ({ signal }) => http.get<SecretDTO[]>('api/secrets', { signal, query: { processId } }),
    }),
};

export function useCreateSecret(processId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SecretCreateDTO) => http.post<SecretDTO>('api/secrets', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: secretKeys.list(processId) }),
  });
}

export function useToggleSecret(processId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) =>
      http.put<SecretDTO>(`api/secrets/${id}`, undefined, { query: { active } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: secretKeys.list(processId) }),
  });
}

export function useDeleteSecret(processId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`api/secrets/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: secretKeys.list(processId) }),
  });
}
