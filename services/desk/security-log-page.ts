/**
 * The security log as administrators read it: newest first, filtered by user (id or part of the
 * address), kind and office-time-zone days. Every filter is served by an index of security_events (at, kind+at,
 * user+at, trigram on email); the total is counted by PostgreSQL with the same filters.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type RawBuilder } from 'kysely';
import { addDays, SECURITY_EVENT_KINDS, zonedInstant, type SecurityEventKind } from '../../domain';
import type { SecurityLogPage, SecurityLogQuery } from '../../contract/security-log.schema';
import { kysely } from '../../db/kysely';

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

interface Row { id: string; at: Date; kind: SecurityEventKind; user_id: number | null; first_name: string | null; last_name: string | null; email: string | null; ip: string | null; detail: Record<string, unknown> }

export async function securityLogPage(em: EntityManager, query: SecurityLogQuery, timeZone: string): Promise<SecurityLogPage> {
  const limit = query.$limit ?? 50;
  const skip = query.$skip ?? 0;
  const where: RawBuilder<unknown>[] = [];
  if (query.userId) where.push(sql`e."user_id" = ${query.userId}`);
  const email = query.email?.trim().toLowerCase();
  if (email) where.push(sql`e."email" like ${escapeLike(email)}`);
  if (query.kind) where.push(sql`e."kind" = ${query.kind}`);
  // Days are the office's: from its midnight to the midnight after `to`.
  if (query.from) where.push(sql`e."at" >= ${new Date(zonedInstant(query.from, '00:00', timeZone))}`);
  if (query.to) where.push(sql`e."at" < ${new Date(zonedInstant(addDays(query.to, 1), '00:00', timeZone))}`);
  const filter = where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``;
  const db = kysely(em);
  const [{ rows }, { rows: [{ total }] }] = await Promise.all([
    sql<Row>`select e."id", e."at", e."kind", e."user_id", u."first_name", u."last_name", e."email", e."ip", e."detail"
         from (select * from "security_events" e ${filter} order by e."at" desc, e."id" desc limit ${limit} offset ${skip}) e
         left join "users" u on u."id" = e."user_id"
        order by e."at" desc, e."id" desc`.execute(db),
    sql<{ total: string }>`select count(*) as total from "security_events" e ${filter}`.execute(db),
  ]);
  return {
    total: Number(total), limit, skip,
    data: rows.map((r) => ({
      id: Number(r.id), at: new Date(r.at).toISOString(), kind: r.kind, kindLabel: SECURITY_EVENT_KINDS[r.kind] ?? r.kind,
      userId: r.user_id, userName: r.user_id && (r.first_name || r.last_name) ? `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() : null,
      email: r.email, ip: r.ip, detail: r.detail ?? {},
    })),
  };
}
