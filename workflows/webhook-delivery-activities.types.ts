/** Activity signatures of the webhook delivery workflow (activities/webhooks/ implements them). */
export interface WebhookDeliveryActivities {
  /** One attempt: resolves when delivered (or nothing is owed any more), throws when it was not. */
  deliverWebhook(deliveryId: number): Promise<{ outcome: string }>;
  /** After the last attempt: marks it failed; says whether its endpoint is disabled with the owner not yet told. */
  closeFailedWebhookDelivery(deliveryId: number): Promise<{ endpointId: number | null; tellOwner: boolean }>;
  /** Emails the owner that the endpoint was disabled, once per disabling (a mark on the endpoint). */
  sendWebhookDisabledEmail(endpointId: number): Promise<{ sent: boolean; reason?: string }>;
}
