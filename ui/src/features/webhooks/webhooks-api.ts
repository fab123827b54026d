/** An account's webhook endpoints and their deliveries (api/v1/webhook-endpoints), and the writes on them. */
import type {
  WebhookDeliveryPage as WebhookDeliveryPageSchema, WebhookEndpointCreated as WebhookEndpointCreatedSchema, WebhookEndpointInput,
  WebhookEndpointList as WebhookEndpointListSchema, WebhookSecretRotated as WebhookSecretRotatedSchema,
} from '../../../../contract/webhook.schema';
import type { Wire } from '../../../../contract/wire';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useInvalidatingMutation } from '../../lib/use-invalidating-mutation';

export type WebhookEndpoint = Wire<typeof WebhookEndpointListSchema>['data'][number];
export type WebhookDeliveryPage = Wire<typeof WebhookDeliveryPageSchema>;
export type WebhookDelivery = WebhookDeliveryPage['data'][number];

export const DELIVERIES_PAGE_SIZE = 25;

export const getWebhookEndpoints = (signal?: AbortSignal) => api.get<Wire<typeof WebhookEndpointListSchema>>('/webhook-endpoints', { signal }).then((r) => r.data);
export const getWebhookDeliveries = (endpointId: number, skip: number, signal?: AbortSignal) =>
  api.get<WebhookDeliveryPage>(`/webhook-endpoints/${endpointId}/deliveries?$limit=${DELIVERIES_PAGE_SIZE}&$skip=${skip}`, { signal });

export const useCreateWebhookEndpoint = () => useInvalidatingMutation({
  mutationFn: (body: Wire<typeof WebhookEndpointInput>) => api.post<Wire<typeof WebhookEndpointCreatedSchema>>('/webhook-endpoints', body),
  invalidates: [queryKeys.webhookEndpoints],
});

export const useDeleteWebhookEndpoint = () => useInvalidatingMutation({
  mutationFn: (id: number) => api.delete<{ id: number }>(`/webhook-endpoints/${id}`),
  invalidates: [queryKeys.webhookEndpoints],
});

export const useRotateWebhookSecret = () => useInvalidatingMutation({
  mutationFn: (id: number) => api.post<Wire<typeof WebhookSecretRotatedSchema>>(`/webhook-endpoints/${id}/rotate-secret`),
  invalidates: [queryKeys.webhookEndpoints],
});

/** Sending again adds a delivery to the endpoint's list (and may enable a disabled endpoint). */
export const useResendWebhookDelivery = () => useInvalidatingMutation({
  mutationFn: (delivery: WebhookDelivery) => api.post<{ id: number }>(`/webhook-deliveries/${delivery.id}/resend`),
  invalidates: (_answer, delivery) => [queryKeys.webhookEndpoints, queryKeys.webhookDeliveries(delivery.endpointId)],
});
