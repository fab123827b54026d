/**
 * Writes the security log (issue #16; kinds in domain/security-events.ts). A plain insert on the caller's connection:
 * inside a transaction the line commits or rolls back with what it describes; outside one it stands on its own (a
 * refused sign-in is logged although nothing else is written). Lines older than a year are removed by
 * {@link pruneSecurityLog}, which the API runs at start and daily.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyRequest } from 'fastify';
import { SECURITY_LOG_RETENTION_DAYS, type SecurityEventKind } from '../../domain/security-events';

export interface SecurityEventInput {
  kind: SecurityEventKind;
  userId?: number | null;
  email?: string | null;
  ip?: string | null;
  detail?: Record<string, unknown>;
}

export async function recordSecurityEvent(em: EntityManager, event: SecurityEventInput): Promise<void> {
  await em.getConnection().execute(
    'insert into "security_events" ("kind", "user_id", "email", "ip", "detail") values (?, ?, ?, ?, ?)',
    [event.kind, event.userId ?? null, event.email?.toLowerCase() ?? null, event.ip ?? null, JSON.stringify(event.detail ?? {})],
    'run',
  );
}

/** The same, with the caller's address and (when signed in) user taken from the HTTP request. */
export async function recordRequestSecurityEvent(request: FastifyRequest, event: Omit<SecurityEventInput, 'ip'>): Promise<void> {
  await recordSecurityEvent(request.em, { userId: request.sessionUser?.id ?? null, ...event, ip: request.ip });
}

export async function pruneSecurityLog(em: EntityManager, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - SECURITY_LOG_RETENTION_DAYS * 86_400_000);
  const result = await em.getConnection().execute('delete from "security_events" where "at" < ?', [before], 'run') as { affectedRows?: number };
  return result.affectedRows ?? 0;
}

/**
 * A 401/403 answer to a call that carried a bearer token (issue #16: refusals). At most one line per (user or
 * address, route pattern, minute), decided by the partial unique index of Migration20261124040000 so that every API
 * process agrees; a repeat within the minute counts in `detail.repeats` instead of adding a line.
 */
export async function recordAccessRefused(em: EntityManager, refusal: { userId: number | null; email: string | null; ip: string; method: string; route: string; status: number }): Promise<void> {
  await em.getConnection().execute(
    `insert into "security_events" ("kind", "user_id", "email", "ip", "detail")
     values ('accessRefused', ?, ?, ?, jsonb_build_object('method', ?::text, 'route', ?::text, 'status', ?::int, 'repeats', 1,
       'minute', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI')))
     on conflict (coalesce("user_id", 0), coalesce("ip", ''), ("detail"->>'route'), ("detail"->>'minute')) where "kind" = 'accessRefused'
     do update set "detail" = jsonb_set("security_events"."detail", '{repeats}', to_jsonb(("security_events"."detail"->>'repeats')::int + 1))`,
    [refusal.userId, refusal.email?.toLowerCase() ?? null, refusal.ip, refusal.method, refusal.route, refusal.status],
    'run',
  );
}
