/** Entry of the workflow bundle: every workflow type the worker registers. */
export { requestWorkflow } from './request.workflow';
export { accountEmailWorkflow } from './account-email.workflow';
export { wakeUpWorkflow, wakeUpSweepWorkflow } from './wake-up.workflow';
export { exportWorkflow } from './export.workflow';
export { inboundMailWorkflow } from './inbound-mail.workflow';
export { instantDigestWorkflow } from './instant-digest.workflow';
export { webhookDeliveryWorkflow } from './webhook-delivery.workflow';
export { renewalRunWorkflow } from './renewal-run.workflow';
