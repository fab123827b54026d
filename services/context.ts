/**
 * What a use case runs with, whatever door asked: the caller, an entity manager of the door's own (one per HTTP call,
 * one per activity), the request workflows' client, the files, and the settings the rules read. Each door builds it
 * (the API from its signed-in call: api/command-context.ts; the worker's doors from the activity they run in).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ClockPolicy, UserQuotas } from '../domain';
import type { DocumentFiles } from '../storage/document-files';
import type { SessionUser } from '../contract/session-user.schema';
import type { WorkflowAccess } from './requests/request-workflow-client';

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
