/**
 * The messages-an-hour quota's count and lock, one for both ways a message is posted: on the portal
 * (api/services/quotas.ts) and by email (activities/inbound/process-inbound-message.ts). A sender's posts take turns,
 * by a transaction-level advisory lock on the address, to count the last hour's messages and add their own, so a
 * burst sent at once, either way or both, gets exactly the places that are left.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { QUOTAS } from '../domain/abuse-limits';
import { kysely } from './kysely';

/** Holds the sender's turn until the caller's transaction ends (`tx` must be inside one). */
export async function holdSenderMessagesTurn(tx: EntityManager, email: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`sender-messages|${email.trim().toLowerCase()}`}))`.execute(kysely(tx));
}

/** The sender's messages of the last hour, posted either way (deleted ones too: they were sent). */
export async function senderMessagesInLastHour(em: EntityManager, email: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from "discussions"
    where lower("sender_email") = ${email.trim().toLowerCase()}
      and "created_at" > now() - ${QUOTAS.messagesPerHour.windowMs} * interval '1 millisecond'`.execute(kysely(em));
  return Number(rows[0]?.n ?? 0);
}
