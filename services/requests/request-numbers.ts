import type { EntityManager } from '@mikro-orm/postgresql';
import { kysely } from '../../db/kysely';

/**
 * Gives a request its number when its draft is created (spec 2 §7.3: start 50001, +1 each, from the counter row);
 * a request numbered before (a draft of an older release) keeps it. The request row
 * is locked first, so two submits of one request get one number; the counter row's lock serializes concurrent
 * submits of different requests, so no two requests share a number and none is skipped.
 */
export async function assignRequestNumber(em: EntityManager, requestId: number): Promise<number> {
  return em.transactional(async (tx) => {
    const db = kysely(tx);
    const row = await db.selectFrom('requests').select('request_number').where('id', '=', requestId).forUpdate().executeTakeFirst();
    if (row?.request_number) return row.request_number;
    const counter = await db.updateTable('counters').set((eb) => ({ last_request_number: eb('last_request_number', '+', 1) }))
      .where('name', '=', 'request').returning('last_request_number').executeTakeFirstOrThrow();
    await db.updateTable('requests').set({ request_number: counter.last_request_number }).where('id', '=', requestId).execute();
    return counter.last_request_number;
  });
}
