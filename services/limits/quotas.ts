/**
 * Per-user quotas (figures in domain/abuse-limits.ts): drafts held at once and discussion messages
 * an hour, counted by PostgreSQL from the rows themselves (so every API process agrees, and deleting a draft frees
 * its place). Administrators are not counted. Each refusal is a 429 in the spec's error shape and a line in the
 * security log.
 *
 * The count and the row it allows are one step: `writeWithinQuota` runs both in a transaction that holds the user's
 * turn for that quota (services/limits/turns.ts; for messages the sender address's, which replies by email take too), so a burst
 * of calls at the limit, on any number of API processes, is let through one at a time and exactly as many pass as
 * there are places (each would otherwise count the same rows and pass). Only one user's calls of one kind wait on
 * each other, for as long as a count and an insert take.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { quotaMessage, type UserQuotas } from '../../domain/abuse-limits';
import { kysely } from '../../db/kysely';
import { senderMessagesInLastHour, senderMessagesTurn, withTurn, type TurnKey } from './turns';
import { overQuota } from '../refusals';
import { recordSecurityEvent } from '../desk/security-log';

type Quota = 'openDrafts' | 'messagesPerHour';

/**
 * Whose quota: an account (a signed-in user), or for a message by email from an address without one, that address
 * (`id` null; only the messages quota counts by address).
 */
export interface QuotaHolder { id: number | null; email: string; isAdmin: boolean }

/** Any fixed number: the first number of the drafts quota's turns (the second is the user's id). */
const DRAFTS_TURN = 160_101;

/** Each quota's turn and count. */
const QUOTA_STEPS: Record<Quota, { turn(user: QuotaHolder): TurnKey; used(tx: EntityManager, user: QuotaHolder): Promise<number> }> = {
  openDrafts: {
    turn: (user) => [DRAFTS_TURN, user.id ?? 0],
    used: async (tx, user) => {
      const { rows } = await sql<{ n: string }>`select count(*) as n from "requests" where "requester_id" = ${user.id} and "status" = 'Draft'`.execute(kysely(tx));
      return Number(rows[0]?.n ?? 0);
    },
  },
  // By the sender's address, as replies by email are counted: one turn and one count for both ways of posting.
  messagesPerHour: { turn: (user) => senderMessagesTurn(user.email), used: (tx, user) => senderMessagesInLastHour(tx, user.email) },
};

/** Thrown inside the transaction so that it rolls back; logged and answered once it has. */
class QuotaFull extends Error {
  constructor(readonly quota: Quota, readonly limit: number) { super(`${quota} quota full`); }
}

/**
 * Runs `write` (which adds the row the quota counts) in a transaction, after the user's count under `quota` was
 * found below the limit while holding the user's lock for it; else answers 429 and logs the refusal.
 */
export async function writeWithinQuota<T>(
  em: EntityManager, user: QuotaHolder, quotas: UserQuotas, quota: Quota, write: (tx: EntityManager) => Promise<T>,
): Promise<T> {
  try {
    if (user.isAdmin) return await em.transactional(write);
    return await withTurn(em, QUOTA_STEPS[quota].turn(user), async (tx) => {
      if ((await QUOTA_STEPS[quota].used(tx, user)) >= quotas[quota]) throw new QuotaFull(quota, quotas[quota]);
      return write(tx);
    });
  } catch (error) {
    if (!(error instanceof QuotaFull)) throw error;
    await recordSecurityEvent(em, { kind: 'quotaRefused', userId: user.id, email: user.email, detail: { quota, limit: error.limit } });
    throw overQuota(quotaMessage[quota](error.limit), { quota, limit: error.limit });
  }
}
