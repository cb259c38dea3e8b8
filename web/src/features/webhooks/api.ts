/**
 * Webhook subscriptions of a process (issue 32 section 1): GET|POST api/processes/{id}/webhooks,
 * PUT|DELETE api/webhooks/{id}, GET api/webhooks/{id}/deliveries, POST api/webhooks/{id}/test and
 * POST api/webhooks/{id}/deliveries/{deliveryId}/retry. The secret comes back only from the call that set it.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookDeliveryDTO, WebhookDTO } from '@domain/webhooks';
import { http } from '../../api/client';

export interface WebhookInput {
  url: string;
  events: string[];
  active: boolean;
}

export type { WebhookDTO };
export type DeliveryDTO = WebhookDeliveryDTO;

interface Page<T> {
  content: T[];
  page: { size: number; totalElements: number; totalPages: number; number: number };
}

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: (processId: number) => [...webhookKeys.all, 'list', processId] as const,
  deliveries: (webhookId: number) => [...webhookKeys.all, 'deliveries', webhookId] as const,
};

export const webhookQueries = {
  list: (processId: number) =>
    queryOptions({
      queryKey: webhookKeys.list(processId),
      queryFn: ({ signal }) =>
        http.get<Page<WebhookDTO>>(`api/processes/${processId}/webhooks`, { signal, query: { size: 100 } }),
    }),
  deliveries: (webhookId: number) =>
    queryOptions({
      queryKey: webhookKeys.deliveries(webhookId),
      queryFn: ({ signal }) =>
        http.get<Page<DeliveryDTO>>(`api/webhooks/${webhookId}/deliveries`, { signal, query: { size: 50 } }),
      // attempts and retries happen in the engine: keep the log current while it is open
      refetchInterval: 3000,
    }),
};

export function useSaveWebhook(processId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: WebhookInput }) =>
      id === null
        ? http.post<WebhookDTO>(`api/processes/${processId}/webhooks`, body)
        : http.put<WebhookDTO>(`api/webhooks/${id}`, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list(processId) }),
  });
}

export function useDeleteWebhook(processId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`api/webhooks/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list(processId) }),
  });
}

export function useSendTest(webhookId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => http.post<{ deliveryId: number; eventId: string }>(`api/webhooks/${webhookId}/test`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhookId) }),
  });
}

export function useResend(webhookId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) => http.post(`api/webhooks/${webhookId}/deliveries/${deliveryId}/retry`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhookId) }),
  });
}
