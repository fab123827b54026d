/** Input of a webhook delivery's workflow, shared by the worker's dispatcher (which starts it) and the workflow. */
export interface WebhookDeliveryInput {
  deliveryId: number;
  /**
   * The retry policy of its attempts, from the settings when it started (config/webhook-config.ts): exponential from
   * `initialMs` to `maximumMs`, for `windowMs` in all (72 hours). In the input, so a run replays as it started.
   */
  retry: { initialMs: number; maximumMs: number; windowMs: number };
}

export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';
/** One workflow per delivery row: a dispatcher that starts it twice starts it once. */
export const webhookDeliveryWorkflowId = (deliveryId: number | string) => `webhook-delivery-${deliveryId}`;
/** The failure type of an attempt that retrying cannot help (the endpoint is disabled or gone). */
export const WEBHOOK_FINAL_FAILURE = 'WebhookEndpointDisabled';
