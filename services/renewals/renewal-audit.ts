/**
 * The audit row of a renewal decision made outside the request's workflow (the office's mark, the requester's
 * answer): the row the request's audit tab shows, of the kind RENEWAL_ACTIVITY.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/kysely';
import { RENEWAL_ACTIVITY } from '../../domain';

export async function writeRenewalAudit(
  db: Kysely<Database>, row: { requestId: number; text: string; by: string; userId?: number | null; channel: 'Portal' | 'Email' },
): Promise<void> {
  await sql`insert into request_activity (request_id, date, activity_type, activity_text, performed_by, performed_by_user_id, channel, created_at, updated_at)
    values (${row.requestId}, now(), ${RENEWAL_ACTIVITY}, ${row.text}, ${row.by}, ${row.userId ?? null}, ${row.channel}, now(), now())`.execute(db);
}
