/**
 * Writes the security log (kinds in domain/security-events.ts). A plain insert on the caller's connection:
 * inside a transaction the line commits or rolls back with what it describes; outside one it stands on its own (a
 * refused sign-in is logged although nothing else is written). Lines older than a year are removed by
 * {@link pruneSecurityLog}, which the API runs at start and hourly.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { kysely, pooled } from '../../db/kysely';
import { SECURITY_LOG_RETENTION_DAYS, type SecurityEventKind } from '../../domain/security-events';

export interface SecurityEventInput {
  kind: SecurityEventKind;
  userId?: number | null;
  email?: string | null;
  ip?: string | null;
  detail?: Record<string, unknown>;
}

export async function recordSecurityEvent(em: EntityManager, event: SecurityEventInput): Promise<void> {
  await sql`insert into "security_events" ("kind", "user_id", "email", "ip", "detail")
    values (${event.kind}, ${event.userId ?? null}, ${event.email?.toLowerCase() ?? null}, ${event.ip ?? null}, ${JSON.stringify(event.detail ?? {})})`
    .execute(kysely(em));
}

/**
 * Lines older than the retention, through prune_security_events (Migration20261127500001): the runtime role may not
 * delete from the log itself, and the function never removes a line younger than a year, whatever it is asked. On
 * the pool: the housekeeping's transaction only holds its lock.
 */
export async function pruneSecurityLog(em: EntityManager, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - SECURITY_LOG_RETENTION_DAYS * 86_400_000);
  const { rows: [row] } = await sql<{ removed: number }>`select prune_security_events(${before}) as "removed"`.execute(pooled(em));
  return row?.removed ?? 0;
}

/**
 * A refusal, aggregated: at most one line per (caller, subject, minute), decided in PostgreSQL by a partial unique
 * index so that every API process agrees; a repeat within the minute counts in `detail.repeats` instead of adding a
 * line. Written by record_security_refusal (Migration20261127500001), which may raise that counter and nothing else:
 * the runtime role has no UPDATE on the log.
 *   accessRefused: a 401/403 answer to a call that carried a bearer token, per (user or address, route pattern);
 *   singleSignOnRefused: an answer of the identity provider (or anything posted in its place), per (address, code).
 */
async function recordRefusal(em: EntityManager, kind: 'accessRefused' | 'singleSignOnRefused', line: Omit<SecurityEventInput, 'kind'>): Promise<void> {
  await sql`select record_security_refusal(${kind}, ${line.userId ?? null}, ${line.email?.toLowerCase() ?? null}, ${line.ip ?? null}, ${JSON.stringify(line.detail ?? {})}::jsonb)`
    .execute(kysely(em));
}

export async function recordAccessRefused(em: EntityManager, refusal: { userId: number | null; email: string | null; ip: string; method: string; route: string; status: number }): Promise<void> {
  await recordRefusal(em, 'accessRefused', {
    userId: refusal.userId, email: refusal.email, ip: refusal.ip,
    detail: { method: refusal.method, route: refusal.route, status: refusal.status },
  });
}

/** A refused single sign-on; `code` is domain/single-sign-on.ts's refusal code. */
export async function recordSingleSignOnRefused(em: EntityManager, refusal: { ip: string; code: string; detail: string }): Promise<void> {
  await recordRefusal(em, 'singleSignOnRefused', { ip: refusal.ip, detail: { code: refusal.code, detail: refusal.detail.slice(0, 300) } });
}
