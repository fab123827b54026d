/**
 * Renewal runs as the office starts and steers them: the run and its certificates recorded in one transaction, then
 * its workflow started (workflows/renewal-run.workflow.ts); pause, resume, cancel and "stop waiting for answers" are
 * updates the workflow answers once it wrote the state; the items page and the result workbook are read here.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import ExcelJS from 'exceljs';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/kysely';
import { formatVerificationCode, officeToday, policyYearLabel, RENEWAL_MESSAGES, renewalRunWorkflowId, type RenewalItemState, type RenewalMode } from '../../domain';
import type { RenewalControlAction } from '../../workflows/renewal-run.messages';
import { conflict, invalid, notFound, unavailable } from '../refusals';
import { renewalCandidates } from './candidates';
import { renewalRun, type RenewalRunRecord } from './run-progress';
import { writeRenewalAudit } from './renewal-audit';
import { startRenewalRunWorkflow, steerRenewalRun } from './renewal-run-client';


export interface StartRun { policyYearId: number; mode: RenewalMode; from: string; to: string; answerBy?: string; requestIds?: number[] }
export interface RunAccess { temporal: Client; taskQueue: string; timeZone: string }

export async function startRenewalRun(db: Kysely<Database>, access: RunAccess, input: StartRun, by: { name: string; userId: number }): Promise<RenewalRunRecord> {
  if (input.mode === 'ask') {
    if (!input.answerBy) throw invalid(RENEWAL_MESSAGES.answerByRequired, { answerBy: RENEWAL_MESSAGES.answerByRequired });
    if (input.answerBy <= officeToday(access.timeZone)) throw invalid(RENEWAL_MESSAGES.answerByPast, { answerBy: RENEWAL_MESSAGES.answerByPast });
  }
  const found = await renewalCandidates(db, { policyYearId: input.policyYearId, from: input.from, to: input.to }, access.timeZone);
  if (found.refusal) throw conflict(found.refusal);
  const chosen = input.requestIds ? new Set(input.requestIds) : null;
  const items = found.all.filter((c) => c.verdict === 'renew' && (!chosen || chosen.has(c.requestId)));
  if (items.length === 0) throw invalid(RENEWAL_MESSAGES.nothingToRenew);
  const nonce = randomBytes(6).toString('hex');
  const runId = await db.transaction().execute(async (tx) => {
    const run = await tx.insertInto('renewal_runs').values({
      policy_year_id: input.policyYearId, mode: input.mode, answer_by: input.mode === 'ask' ? input.answerBy! : null,
      coverage_from: found.window!.from, coverage_to: found.window!.to, state: input.mode === 'ask' ? 'asking' : 'running',
      workflow_id: `pending-${nonce}`, created_by: by.name, created_by_user_id: by.userId,
    }).returning('id').executeTakeFirstOrThrow();
    await tx.updateTable('renewal_runs').set({ workflow_id: renewalRunWorkflowId(run.id, nonce) }).where('id', '=', run.id).execute();
    // One statement for all of them: 50,000 rows are one round trip.
    await sql`insert into renewal_items (run_id, request_id, issued_letter_id, reason, state)
      select ${run.id}, x.request_id, x.letter_id, x.reason, ${input.mode === 'ask' ? 'asked' : 'pending'}
      from unnest(${items.map((c) => c.requestId)}::int[], ${items.map((c) => c.letterId)}::int[], ${items.map((c) => c.reason)}::text[]) as x(request_id, letter_id, reason)`.execute(tx);
    return run.id;
  });
  try {
    await startRenewalRunWorkflow(access.temporal, access.taskQueue, renewalRunWorkflowId(runId, nonce), { runId });
  } catch (error) {
    await db.updateTable('renewal_items').set({ state: 'cancelled', outcome: 'The run could not start' }).where('run_id', '=', runId).execute();
    await db.updateTable('renewal_runs').set({ state: 'cancelled', finished_at: new Date() }).where('id', '=', runId).execute();
    throw Object.assign(unavailable('The renewal service did not answer in time. Nothing was renewed; please try again in a few minutes.'), { cause: error });
  }
  return (await renewalRun(db, runId))!;
}

/** Pause, resume, cancel, stop waiting for answers: the run's workflow changes course and writes its state. */
export async function controlRenewalRun(db: Kysely<Database>, temporal: Client, id: number, action: RenewalControlAction, by: string): Promise<RenewalRunRecord> {
  const run = await db.selectFrom('renewal_runs').select(['workflow_id', 'state', 'mode']).where('id', '=', id).executeTakeFirst();
  if (!run) throw notFound('This renewal run does not exist.');
  if (run.state === 'finished' || run.state === 'cancelled') throw conflict(RENEWAL_MESSAGES.notRunning);
  if (action === 'close-asking' && run.state !== 'asking') throw conflict('This run no longer waits for answers.');
  await steerRenewalRun(temporal, run.workflow_id, action, by);
  return (await renewalRun(db, id))!;
}

interface ItemRow {
  id: number; request_id: number; request_number: number; certificate_holder: string | null; requester_name: string | null; requester_email: string | null;
  reason: string; state: RenewalItemState; effect_state: 'pending' | 'sent' | 'failed' | null; answer: 'yes' | 'no' | null; outcome: string | null; updated_at: Date;
  old_code: string | null; new_code: string | null; total: number;
}

const itemsQuery = (runId: number, state: RenewalItemState | undefined, limit: number, skip: number) => sql<ItemRow>`
  select i.id, i.request_id, r.request_number, r.certificate_holder, r.requester_name, r.requester_email, i.reason, i.state,
    e.state as effect_state, i.answer, i.outcome, i.updated_at, ol.verification_code as old_code, nl.verification_code as new_code,
    count(*) over ()::int as total
  from renewal_items i join requests r on r.id = i.request_id
  left join request_effects e on e.idempotency_key = i.effect_key
  left join issued_letters ol on ol.id = i.issued_letter_id
  left join issued_letters nl on nl.idempotency_key = i.effect_key
  where i.run_id = ${runId} ${state ? sql`and i.state = ${state}` : sql``}
  order by i.id limit ${limit} offset ${skip}`;

const itemRecord = (row: ItemRow) => ({
  id: row.id, requestId: row.request_id, requestNumber: row.request_number, holder: row.certificate_holder ?? '',
  requester: row.requester_name ?? row.requester_email ?? '', reason: row.reason, state: row.state,
  delivery: row.state === 'renewed' ? row.effect_state ?? 'pending' : null, answer: row.answer, outcome: row.outcome, updatedAt: row.updated_at,
});

export async function renewalItems(db: Kysely<Database>, runId: number, query: { state?: RenewalItemState; $limit?: number; $skip?: number }) {
  if (!(await renewalRun(db, runId))) throw notFound('This renewal run does not exist.');
  const limit = query.$limit ?? 50;
  const skip = query.$skip ?? 0;
  const { rows } = await itemsQuery(runId, query.state, limit, skip).execute(db);
  const total = rows[0]?.total ?? (skip > 0 ? (await itemsQuery(runId, query.state, 1, 0).execute(db)).rows[0]?.total ?? 0 : 0);
  return { total, limit, skip, data: rows.map(itemRecord) };
}

const STATE_WORDS: Record<RenewalItemState, string> = {
  asked: 'Waiting for an answer', pending: 'Not yet renewed', renewed: 'Renewed', failed: 'Failed', declined: 'Not needed (requester said no)',
  unanswered: 'Not renewed: no answer by the date', skipped: 'Already renewed', cancelled: 'Not renewed: run cancelled',
};

/** A renewed certificate's letter and email, as the page says it. */
const DELIVERY_WORDS: Record<'pending' | 'sent' | 'failed', string> = { pending: 'Waiting', sent: 'Sent', failed: 'Failed' };

/** The run's result as a workbook: one row per certificate, what happened to it and why, streamed page by page. */
export async function renewalResultWorkbook(db: Kysely<Database>, runId: number): Promise<{ fileName: string; bytes: Buffer }> {
  const run = await renewalRun(db, runId);
  if (!run) throw notFound('This renewal run does not exist.');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(`Renewals ${run.policyYear.label}`);
  sheet.columns = [
    { header: 'Request', key: 'request', width: 10 }, { header: 'Certificate holder', key: 'holder', width: 32 },
    { header: 'Requester', key: 'requester', width: 28 }, { header: 'Why renewed', key: 'reason', width: 36 },
    { header: 'Result', key: 'result', width: 30 }, { header: 'Letter and email', key: 'delivery', width: 14 },
    { header: 'Answer', key: 'answer', width: 8 }, { header: 'Note', key: 'outcome', width: 40 },
    { header: 'Old code', key: 'oldCode', width: 17 }, { header: 'New code', key: 'newCode', width: 17 },
  ];
  sheet.getRow(1).font = { bold: true };
  const PAGE = 1_000;
  for (let skip = 0; ; skip += PAGE) {
    const { rows } = await itemsQuery(runId, undefined, PAGE, skip).execute(db);
    for (const row of rows) {
      sheet.addRow({
        request: row.request_number, holder: row.certificate_holder ?? '', requester: row.requester_name ?? row.requester_email ?? '',
        reason: row.reason, result: STATE_WORDS[row.state], delivery: row.state === 'renewed' ? DELIVERY_WORDS[row.effect_state ?? 'pending'] : '',
        answer: row.answer ?? '', outcome: row.outcome ?? '',
        // The codes as the paper, the verification page and the Renewals list print them (XXXX-XXXX-XXXXX).
        oldCode: row.old_code ? formatVerificationCode(row.old_code) : '', newCode: row.new_code ? formatVerificationCode(row.new_code) : '',
      });
    }
    if (rows.length < PAGE) break;
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: sheet.columns.length } };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  const bytes = Buffer.from(await book.xlsx.writeBuffer());
  return { fileName: `renewal-run-${run.id}-${run.policyYear.label.replace(/\D+/g, '-')}.xlsx`, bytes };
}

/** The office's renewal mark on a request (a certificate request only), audited. */
export async function setRenewalPreference(db: Kysely<Database>, requestId: number, preference: 'auto' | 'never' | null, by: { name: string; userId: number }) {
  const request = await db.selectFrom('requests').select(['id', 'request_type', 'renewal_preference']).where('id', '=', requestId).executeTakeFirst();
  if (!request) throw notFound('Resource not found');
  if (request.request_type !== 'certificate') throw invalid('Only a certificate request can be marked for renewal.');
  if (request.renewal_preference !== preference) {
    await db.transaction().execute(async (tx) => {
      await tx.updateTable('requests').set({ renewal_preference: preference }).where('id', '=', requestId).execute();
      await writeRenewalAudit(tx, {
        requestId, by: by.name, userId: by.userId, channel: 'Portal',
        text: preference ? `Marked "${preference === 'auto' ? 'renews automatically' : 'never renew'}"` : 'Renewal mark removed: the rules decide',
      });
    });
  }
  return { preference };
}

/** A certificate request's renewal mark and the policy years it was renewed for (null: not a certificate request). */
export async function requestRenewal(db: Kysely<Database>, requestId: number): Promise<{ preference: 'auto' | 'never' | null; renewedFor: string[] } | null> {
  const request = await db.selectFrom('requests').select(['request_type', 'renewal_preference']).where('id', '=', requestId).executeTakeFirst();
  if (!request || request.request_type !== 'certificate') return null;
  const years = await db.selectFrom('request_renewals as rr').innerJoin('policies as p', 'p.id', 'rr.policy_year_id')
    .select(['p.start_date', 'p.end_date']).where('rr.request_id', '=', requestId).orderBy('p.start_date').execute();
  return { preference: request.renewal_preference ?? null, renewedFor: years.map((y) => policyYearLabel({ startDate: y.start_date, endDate: y.end_date })) };
}
