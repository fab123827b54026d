/**
 * Per-user quotas (figures in domain/abuse-limits.ts): drafts held at once and discussion messages
 * an hour, counted by PostgreSQL from the rows themselves (so every API process agrees, and deleting a draft frees
 * its place). Administrators are not counted. Two calls racing at the limit may both pass: a quota bounds abuse, it
 * is not an invariant. Each refusal is a 429 in the spec's error shape and a line in the security log.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type RawBuilder } from 'kysely';
import { QUOTAS, quotaMessage, type UserQuotas } from '../../domain/abuse-limits';
import type { SessionUser } from '../../contract/session-user.schema';
import { kysely } from '../../db/kysely';
import { ApiError } from '../errors';
import { recordSecurityEvent } from './security-log';

type Quota = 'openDrafts' | 'messagesPerHour';

async function refuse(em: EntityManager, user: SessionUser, quota: Quota, limit: number): Promise<never> {
  await recordSecurityEvent(em, { kind: 'quotaRefused', userId: user.id, email: user.email, detail: { quota, limit } });
  throw new ApiError(429, quotaMessage[quota](limit), { quota, limit });
}

async function countOf(em: EntityManager, query: RawBuilder<{ n: string }>): Promise<number> {
  const { rows } = await query.execute(kysely(em));
  return Number(rows[0]?.n ?? 0);
}

export async function assertDraftQuota(em: EntityManager, user: SessionUser, quotas: UserQuotas): Promise<void> {
  if (user.isAdmin) return;
  const drafts = await countOf(em, sql`select count(*) as n from "requests" where "requester_id" = ${user.id} and "status" = 'Draft'`);
  if (drafts >= quotas.openDrafts) await refuse(em, user, 'openDrafts', quotas.openDrafts);
}

export async function assertMessageQuota(em: EntityManager, user: SessionUser, quotas: UserQuotas): Promise<void> {
  if (user.isAdmin) return;
  const max = quotas.messagesPerHour;
  const { windowMs } = QUOTAS.messagesPerHour;
  const sent = await countOf(em,
    sql`select count(*) as n from "discussions" where lower("sender_email") = lower(${user.email}) and "created_at" > now() - ${windowMs} * interval '1 millisecond'`);
  if (sent >= max) await refuse(em, user, 'messagesPerHour', max);
}
