import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Gives a request its number when its draft is created (spec 2 §7.3: start 50001, +1 each, from the counter row);
 * a request numbered before (a draft of an older release) keeps it. The request row
 * is locked first, so two submits of one request get one number; the counter row's lock serializes concurrent
 * submits of different requests, so no two requests share a number and none is skipped.
 */
export async function assignRequestNumber(em: EntityManager, requestId: number): Promise<number> {
  return em.transactional(async (tx) => {
    const [row] = await tx.execute<{ request_number: number | null }[]>(
      'select request_number from requests where id = ? for update', [requestId]);
    if (row?.request_number) return row.request_number;
    const [counter] = await tx.execute<{ last_request_number: number }[]>(
      `update counters set last_request_number = last_request_number + 1 where name = 'request' returning last_request_number`);
    await tx.execute('update requests set request_number = ? where id = ?', [counter.last_request_number, requestId]);
    return counter.last_request_number;
  });
}
