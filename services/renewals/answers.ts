/**
 * The requester's answer to "Do you still need this certificate?" (domain/renewals.ts), by the link in the email
 * (the token is its only key: random, stored as its SHA-256) or by replying to it. Yes puts the certificate in the
 * run's queue, no leaves it out; an answer may change while the office still waits for answers. The run is told at
 * once, so it stops waiting when nobody is left to answer.
 */
import { createHash } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/kysely';
import { answerOfReply, certificateSubtypeLabel, officeToday, policyYearLabel, RENEWAL_MESSAGES, renewalAnswerText, type RenewalAnswer } from '../../domain';
import { conflict, notFound, Refusal } from '../refusals';
import { writeRenewalAudit } from './renewal-audit';
import { tellRunOfAnswer } from './renewal-run-client';

interface QuestionRow {
  item_id: number; state: string; answer: RenewalAnswer | null; run_state: string; answer_by: string; workflow_id: string;
  request_id: number; request_number: number; certificate_holder: string | null; certificate_type: string | null; auto_type: string | null;
  start_date: Date; end_date: Date;
}

const questionQuery = (where: ReturnType<typeof sql>) => sql<QuestionRow>`
  select i.id as item_id, i.state, i.answer, r.state as run_state, r.answer_by::text as answer_by, r.workflow_id,
    q.id as request_id, q.request_number, q.certificate_holder, q.certificate_type, q.auto_type, p.start_date, p.end_date
  from renewal_items i join renewal_runs r on r.id = i.run_id join requests q on q.id = i.request_id join policies p on p.id = r.policy_year_id
  where ${where}`;

const isOpen = (row: QuestionRow, timeZone: string) =>
  row.run_state === 'asking' && ['asked', 'pending', 'declined'].includes(row.state) && officeToday(timeZone) <= row.answer_by;

function questionRecord(row: QuestionRow, timeZone: string) {
  return {
    requestNumber: row.request_number, holder: row.certificate_holder ?? '',
    subtypeLabel: certificateSubtypeLabel(row.certificate_type, row.auto_type),
    policyYear: policyYearLabel({ startDate: row.start_date, endDate: row.end_date }), answerBy: row.answer_by, answer: row.answer, open: isOpen(row, timeZone),
  };
}

/** The answer links' secret is random and kept only as its SHA-256 (the email holds the token itself). */
export const answerTokenHash = (token: string) => createHash('sha256').update(token).digest();

async function byToken(db: Kysely<Database>, token: string): Promise<QuestionRow> {
  const { rows: [row] } = await questionQuery(sql`i.answer_token_hash = ${answerTokenHash(token)}`).execute(db);
  if (!row) throw notFound(RENEWAL_MESSAGES.answerUnknown);
  return row;
}

export async function renewalQuestion(db: Kysely<Database>, token: string, timeZone: string) {
  return questionRecord(await byToken(db, token), timeZone);
}

/** Records the answer (the same answer again changes nothing) and tells the run. */
export async function answerRenewal(
  db: Kysely<Database>, temporal: Client, found: { token: string } | { itemId: number }, answer: RenewalAnswer,
  channel: 'link' | 'reply', who: string, timeZone: string,
) {
  const row = 'token' in found ? await byToken(db, found.token) : (await questionQuery(sql`i.id = ${found.itemId}`).execute(db)).rows[0];
  if (!row) throw notFound(RENEWAL_MESSAGES.answerUnknown);
  if (row.answer !== answer) {
    if (!isOpen(row, timeZone)) throw conflict(RENEWAL_MESSAGES.answerClosed);
    const changed = await db.transaction().execute(async (tx) => {
      const updated = await tx.updateTable('renewal_items')
        .set({ answer, answered_at: new Date(), state: answer === 'yes' ? 'pending' : 'declined', outcome: answer === 'no' ? 'The requester no longer needs it' : null, updated_at: new Date() })
        .where('id', '=', row.item_id).where('state', 'in', ['asked', 'pending', 'declined']).returning('id').executeTakeFirst();
      if (!updated) return false;
      await writeRenewalAudit(tx, {
        requestId: row.request_id, by: who, channel: channel === 'reply' ? 'Email' : 'Portal',
        text: renewalAnswerText(answer, policyYearLabel({ startDate: row.start_date, endDate: row.end_date }), channel),
      });
      return true;
    });
    if (!changed) throw conflict(RENEWAL_MESSAGES.answerClosed);
    // The run waits for answers until none is awaited.
    await tellRunOfAnswer(temporal, row.workflow_id);
  }
  return questionRecord({ ...row, answer, state: answer === 'yes' ? 'pending' : 'declined' }, timeZone);
}

/**
 * A reply by email to the renewal question: when the requester's reply (its own text's first word) says yes or no
 * and the office still waits for the request's answer, it is recorded as by the link. Answers which answer it made,
 * or null (not the requester, no question open, no yes or no): the reply is then a message like any other.
 */
export async function answerRenewalByReply(
  db: Kysely<Database>, temporal: Client, reply: { requestId: number; requesterEmail: string | null; senderEmail: string; senderName: string; text: string },
  timeZone: string,
): Promise<RenewalAnswer | null> {
  const answer = answerOfReply(reply.text);
  if (!answer || !reply.requesterEmail || reply.senderEmail.toLowerCase() !== reply.requesterEmail.toLowerCase()) return null;
  const { rows: [open] } = await sql<{ id: number }>`
    select i.id from renewal_items i join renewal_runs r on r.id = i.run_id
    where i.request_id = ${reply.requestId} and r.state = 'asking' and i.state in ('asked', 'pending', 'declined') and i.answer_token_hash is not null
    order by i.id desc limit 1`.execute(db);
  if (!open) return null;
  try {
    await answerRenewal(db, temporal, { itemId: open.id }, answer, 'reply', reply.senderName, timeZone);
    return answer;
  } catch (error) {
    // Closed meanwhile (the date passed, the office stopped waiting): the reply stays a message the office reads.
    if (error instanceof Refusal) return null;
    throw error;
  }
}
