/**
 * Turns that writers take, one at a time across every process, by a transaction-level advisory lock; and the
 * messages-an-hour quota's turn and count, one for both ways a message is posted: on the portal
 * (services/limits/quotas.ts) and by email (mail-in/processing/process-inbound-message.ts). A sender's posts take turns
 * to count the last hour's messages and add their own, so a burst sent at once, either way or both, gets exactly the
 * places that are left.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { QUOTAS } from '../../domain/abuse-limits';
import { kysely } from '../../db/kysely';

/** A turn's name: two numbers (a fixed one per kind of turn, and an id), or a text (hashed to one number). */
export type TurnKey = readonly [number, number] | string;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` in a transaction that holds the turn `key` until it ends. The turn is tried, not waited for: a caller
 * that does not get it gives its connection back and tries again shortly (20 ms, doubling to about a second, with
 * jitter). Waiting on the lock would hold a connection per waiter, and a burst of one writer's calls could then hold
 * every connection of the pool while the turn's holder waits for one more (for statements it runs on the pool).
 */
export async function withTurn<T>(em: EntityManager, key: TurnKey, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const done = await em.transactional(async (tx) => {
      const { rows } = await (typeof key === 'string'
        ? sql<{ got: boolean }>`select pg_try_advisory_xact_lock(hashtext(${key})) as got`
        : sql<{ got: boolean }>`select pg_try_advisory_xact_lock(${key[0]}::int, ${key[1]}::int) as got`).execute(kysely(tx));
      return rows[0]?.got ? { value: await work(tx) } : null;
    });
    if (done) return done.value;
    await pause(Math.min(1000, 20 * 2 ** Math.min(attempt, 6)) * (0.5 + Math.random()));
  }
}

/** The turn of a sender's messages (by address, as replies by email know their senders). */
export const senderMessagesTurn = (email: string): TurnKey => `sender-messages|${email.trim().toLowerCase()}`;

/** The sender's messages of the last hour, posted either way (deleted ones too: they were sent). */
export async function senderMessagesInLastHour(em: EntityManager, email: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from "discussions"
    where lower("sender_email") = ${email.trim().toLowerCase()}
      and "created_at" > now() - ${QUOTAS.messagesPerHour.windowMs} * interval '1 millisecond'`.execute(kysely(em));
  return Number(rows[0]?.n ?? 0);
}
