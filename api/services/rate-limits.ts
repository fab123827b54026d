/**
 * Fixed-window counters in PostgreSQL (table `rate_limit_counters`): every API process counts in
 * the same row, so two replicas behind a load balancer share one limit. One statement per hit (an upsert that starts
 * a new window when the old one has ended), no lock held across calls.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { WindowLimit } from '../../domain/abuse-limits';

/** A connection that can run SQL (the request's EntityManager or the ORM's). */
export type SqlRunner = Pick<EntityManager, 'getConnection'>;

interface WindowCount { hits: number; resetInMs: number }

const HIT_SQL = `
  insert into "rate_limit_counters" as c ("key", "hits", "window_ends") values (?, 1, now() + ? * interval '1 millisecond')
  on conflict ("key") do update set
    "hits" = case when c."window_ends" <= now() then 1 else c."hits" + 1 end,
    "window_ends" = case when c."window_ends" <= now() then excluded."window_ends" else c."window_ends" end
  returning "hits", greatest(0, ceil(extract(epoch from ("window_ends" - now())) * 1000))::bigint as "reset_in_ms"`;

/** Counts one event under `key` and answers the count in the current window (this one included). */
export async function countHit(sql: SqlRunner, key: string, windowMs: number): Promise<WindowCount> {
  const rows = await sql.getConnection().execute(HIT_SQL, [key, windowMs], 'all') as Array<{ hits: number; reset_in_ms: string | number }>;
  return { hits: Number(rows[0].hits), resetInMs: Number(rows[0].reset_in_ms) };
}

/**
 * Takes one place in `key`'s window if one is free, in one statement: the upsert's WHERE is evaluated on the row
 * locked for it, so of many callers at once exactly as many as there are free places get one (a check before the
 * count would let a burst through while the first of them are still busy). A window that has ended starts anew.
 * Answers false, counting nothing, when the window is full.
 */
const RESERVE_SQL = `
  insert into "rate_limit_counters" as c ("key", "hits", "window_ends") values (?, 1, now() + ? * interval '1 millisecond')
  on conflict ("key") do update set
    "hits" = case when c."window_ends" <= now() then 1 else c."hits" + 1 end,
    "window_ends" = case when c."window_ends" <= now() then excluded."window_ends" else c."window_ends" end
  where c."window_ends" <= now() or c."hits" < ?
  returning "hits"`;

export async function reserveHit(sql: SqlRunner, key: string, limit: WindowLimit): Promise<boolean> {
  const rows = await sql.getConnection().execute(RESERVE_SQL, [key, limit.windowMs, limit.max], 'all') as unknown[];
  return rows.length === 1;
}

/** Gives back a place `reserveHit` took (the attempt turned out not to count), never below zero. */
export async function releaseHit(sql: SqlRunner, key: string): Promise<void> {
  await sql.getConnection().execute(
    `update "rate_limit_counters" set "hits" = "hits" - 1 where "key" = ? and "hits" > 0 and "window_ends" > now()`, [key], 'run');
}

/** The count in the current window, without counting. */
export async function readHits(sql: SqlRunner, key: string): Promise<WindowCount> {
  const rows = await sql.getConnection().execute(
    `select "hits", greatest(0, ceil(extract(epoch from ("window_ends" - now())) * 1000))::bigint as "reset_in_ms"
       from "rate_limit_counters" where "key" = ? and "window_ends" > now()`, [key], 'all',
  ) as Array<{ hits: number; reset_in_ms: string | number }>;
  return rows[0] ? { hits: Number(rows[0].hits), resetInMs: Number(rows[0].reset_in_ms) } : { hits: 0, resetInMs: 0 };
}

export async function clearHits(sql: SqlRunner, key: string): Promise<void> {
  await sql.getConnection().execute('delete from "rate_limit_counters" where "key" = ?', [key], 'run');
}

/** Removes counters whose window ended (run with the daily housekeeping). */
export async function pruneRateLimitCounters(sql: SqlRunner): Promise<number> {
  const result = await sql.getConnection().execute('delete from "rate_limit_counters" where "window_ends" <= now()', [], 'run') as { affectedRows?: number };
  return result.affectedRows ?? 0;
}
