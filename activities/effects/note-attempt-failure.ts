import { kysely } from '../../db/kysely';
import type { Orm } from '../../db/orm';
import type { EffectKeyInput } from '../../workflows/request-activities.types';

/** How long noting a failure may hold up the retry when PostgreSQL itself is the outage. */
const NOTE_BUDGET_MS = 1000;

/**
 * Wraps an effect's activity so that each failed attempt leaves its reason on the effect row while the effect is
 * still pending: the administrators' list of delayed emails and letters says why without asking
 * Temporal. Best effort: when PostgreSQL is the outage the note is skipped; the error is rethrown unchanged for the
 * retry policy.
 */
export function notingAttemptFailures<R>(orm: Orm, activity: (input: EffectKeyInput) => Promise<R>): (input: EffectKeyInput) => Promise<R> {
  return async (input) => {
    try {
      return await activity(input);
    } catch (error) {
      const reason = `last attempt: ${(error as Error)?.message ?? String(error)}`.slice(0, 2000);
      const note = kysely(orm.em.fork()).updateTable('request_effects').set({ failure: reason })
        .where('idempotency_key', '=', input.key).where('state', '=', 'pending').execute();
      await Promise.race([note, new Promise((resolve) => setTimeout(resolve, NOTE_BUDGET_MS))]).catch(() => undefined);
      note.catch(() => undefined);
      throw error;
    }
  };
}
