/**
 * The activities of the inbound-mail workflow (workflows/inbound-mail.workflow.ts): what the worker runs for each
 * received message. Wired into the worker by worker/request-worker.ts beside the request activities.
 */
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import type { DocumentFiles } from '../../storage/document-files';
import type { InboundMailActivities } from '../../workflows/inbound-mail-activities.types';
import type { Mailer } from '../../activities/mailer';
import { answerInboundMessageActivity } from './answer-inbound-message';
import { processInboundMessageActivity } from './process-inbound-message';
import { createReplyTextReader, type ReplyTextReader } from './reply-text-reader';

export interface InboundMailDeps {
  orm: Orm; mailer: Mailer; files: DocumentFiles; config: AppConfig;
  /** reads replies on a thread pool of its own; one is made (started on the first reply) when absent */
  replies?: ReplyTextReader;
}

export function createInboundMailActivities(deps: InboundMailDeps): InboundMailActivities {
  return {
    processInboundMessage: processInboundMessageActivity({ ...deps, replies: deps.replies ?? createReplyTextReader() }),
    answerInboundMessage: answerInboundMessageActivity(deps),
  };
}
