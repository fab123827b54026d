/**
 * Fixed-window counters in PostgreSQL (table `rate_limit_counters`): every API and worker process counts in the same
 * row, so two replicas behind a load balancer share one limit. One statement per hit (an upsert that starts a new window when the
 * old one has ended), no lock held across calls. Counts run on the pool, outside any transaction the caller has open,
 * so a hit stays counted when the caller's work is rolled back.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import type { WindowLimit } from '../../domain/abuse-limits';
import { pooled } from '../../db/kysely';

/** A connection that can run SQL (the request's EntityManager or the ORM's). */
export type SqlRunner = Pick<EntityManager, 'getConnection'>;

interface WindowCount { hits: number; resetInMs: number }

/** Counts one event under `key` and answers the count in the current window (this one included). */
export async function countHit(runner: SqlRunner, key: string, windowMs: number): Promise<WindowCount> {
  const { rows: [row] } = await sql<{ hits: number; reset_in_ms: string }>`
    insert into "rate_limit_counters" as c ("key", "hits", "window_ends") values (${key}, 1, now() + ${windowMs} * interval '1 millisecond')
    on conflict ("key") do update set
      "hits" = case when c."window_ends" <= now() then 1 else c."hits" + 1 end,
      "window_ends" = case when c."window_ends" <= now() then excluded."window_ends" else c."window_ends" end
    returning "hits", greatest(0, ceil(extract(epoch from ("window_ends" - now())) * 1000))::bigint as "reset_in_ms"`.execute(pooled(runner));
  return { hits: Number(row.hits), resetInMs: Number(row.reset_in_ms) };
}

/**
 * Takes one place in `key`'s window if one is free, in one statement: the upsert's WHERE is evaluated on the row
 * locked for it, so of many callers at once exactly as many as there are free places get one (a check before the
 * count would let a burst through while the first of them are still busy). A window that has ended starts anew.
 * Answers false, counting nothing, when the window is full.
 */
export async function reserveHit(runner: SqlRunner, key: string, limit: WindowLimit): Promise<boolean> {
  return reserveAmount(runner, key, 1, limit);
}

/** The most a window counts (its column is a 4-byte integer): a larger limit is this one. */
const MAX_COUNT = 2 ** 31 - 1;

/** As `reserveHit`, for `amount` places at once (bytes of a file, say): all of them, or none when they do not fit. */
export async function reserveAmount(runner: SqlRunner, key: string, amount: number, limit: WindowLimit): Promise<boolean> {
  const max = Math.min(limit.max, MAX_COUNT);
  if (amount > max) return false;
  const { rows } = await sql<{ hits: number }>`
    insert into "rate_limit_counters" as c ("key", "hits", "window_ends") values (${key}, ${amount}, now() + ${limit.windowMs} * interval '1 millisecond')
    on conflict ("key") do update set
      "hits" = case when c."window_ends" <= now() then ${amount} else c."hits" + ${amount} end,
      "window_ends" = case when c."window_ends" <= now() then excluded."window_ends" else c."window_ends" end
    where c."window_ends" <= now() or c."hits"::bigint + ${amount} <= ${max}
    returning "hits"`.execute(pooled(runner));
  return rows.length === 1;
}

/** Gives back a place `reserveHit` took (the attempt turned out not to count), never below zero. */
export async function releaseHit(runner: SqlRunner, key: string): Promise<void> {
  await pooled(runner).updateTable('rate_limit_counters').set((eb) => ({ hits: eb('hits', '-', 1) }))
    .where('key', '=', key).where('hits', '>', 0).where('window_ends', '>', sql<Date>`now()`).execute();
}

/** The count in the current window, without counting. */
export async function readHits(runner: SqlRunner, key: string): Promise<WindowCount> {
  const { rows: [row] } = await sql<{ hits: number; reset_in_ms: string }>`
    select "hits", greatest(0, ceil(extract(epoch from ("window_ends" - now())) * 1000))::bigint as "reset_in_ms"
      from "rate_limit_counters" where "key" = ${key} and "window_ends" > now()`.execute(pooled(runner));
  return row ? { hits: Number(row.hits), resetInMs: Number(row.reset_in_ms) } : { hits: 0, resetInMs: 0 };
}

export async function clearHits(runner: SqlRunner, key: string): Promise<void> {
  await pooled(runner).deleteFrom('rate_limit_counters').where('key', '=', key).execute();
}

/** Removes counters whose window ended (run with the daily housekeeping). */
export async function pruneRateLimitCounters(runner: SqlRunner): Promise<number> {
  const result = await pooled(runner).deleteFrom('rate_limit_counters').where('window_ends', '<=', sql<Date>`now()`).executeTakeFirst();
  return Number(result.numDeletedRows);
}
