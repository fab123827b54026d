/** What a request command needs of the HTTP call it runs in: the caller, its entity manager, Temporal, the files. */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyRequest } from 'fastify';
import type { ClockPolicy, UserQuotas } from '../../domain';
import type { DocumentFiles } from '../../storage/document-files';
import { currentUser } from '../plugins/auth';
import type { SessionUser } from '../../contract/session-user.schema';
import type { WorkflowAccess } from './request-workflows';

export interface CommandContext {
  em: EntityManager;
  user: SessionUser;
  workflows: WorkflowAccess;
  files: DocumentFiles;
  /** the clocks' policy: the signed release validity and the office's time zone (today's date) */
  clockPolicy: ClockPolicy;
  /** the per-user quotas this portal runs with */
  quotas: UserQuotas;
}

/** For an authenticated call (the route's onRequest hook has checked the token). */
export function commandContextOf(request: FastifyRequest): CommandContext {
  const { config, temporal, files } = request.server;
  return {
    em: request.em,
    user: currentUser(request),
    workflows: { temporal, taskQueue: config.taskQueue, answerTimeoutMs: config.workflowAnswerTimeoutMs },
    files,
    clockPolicy: config.clockPolicy,
    quotas: config.quotas,
  };
}
