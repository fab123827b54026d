/**
 * One webhook delivery: its attempts retried by Temporal with exponential backoff for the window (72 hours), each
 * attempt recorded by the activity. When the last one fails (or the endpoint was disabled for failing three days),
 * the delivery is marked failed and the owner of a disabled endpoint is emailed, once.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { WebhookDeliveryActivities } from './webhook-delivery-activities.types';
import { WEBHOOK_FINAL_FAILURE, type WebhookDeliveryInput } from './webhook-delivery.messages';

const { closeFailedWebhookDelivery, sendWebhookDisabledEmail } = proxyActivities<WebhookDeliveryActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<string> {
  const { deliverWebhook } = proxyActivities<WebhookDeliveryActivities>({
    // An attempt waits 10 s for its answer (domain WEBHOOK_ATTEMPT_TIMEOUT_MS); the rest is the lookup and the record.
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: input.retry.windowMs,
    retry: {
      initialInterval: input.retry.initialMs, backoffCoefficient: 2, maximumInterval: input.retry.maximumMs,
      nonRetryableErrorTypes: [WEBHOOK_FINAL_FAILURE],
    },
  });
  try {
    return (await deliverWebhook(input.deliveryId)).outcome;
  } catch {
    const closed = await closeFailedWebhookDelivery(input.deliveryId);
    if (closed.tellOwner && closed.endpointId !== null) await sendWebhookDisabledEmail(closed.endpointId);
    return 'failed';
  }
}
