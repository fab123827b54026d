/**
 * The inbound-mail workflow: one run per received message, its id from the message's dedup key
 * (domain/inbound-mail.ts `inboundWorkflowIdOf`), started by whatever received it (the SMTP listener, the mailbox
 * poller) and again by their start-up sweep for rows still `received`. Safe for the workflow bundle.
 */
export interface InboundMailInput { inboundMessageId: number }
/** posted: in the request's discussion; refused: the sender is answered once; ignored: automated mail, nothing sent */
export type InboundOutcome = 'posted' | 'refused' | 'ignored';
export const INBOUND_MAIL_WORKFLOW_TYPE = 'inboundMailWorkflow';
