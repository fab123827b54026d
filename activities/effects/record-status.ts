import { ApplicationFailure } from '@temporalio/common';
import { sql } from 'kysely';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { RequestSchema, type Request } from '../../db/entities';
import { STATUS_CHANGE_ACTIVITY, statusEmailRecipients, SUBMISSION_ACTIVITY } from '../../domain';
import type { EffectOrder, RecordStatusInput } from '../../workflows/request-activities.types';
import { takeSnapshot } from './request-snapshot';

type Em = Parameters<typeof takeSnapshot>[0];

async function snapshotFor(em: Em, request: Request, input: RecordStatusInput, effect: EffectOrder, config: AppConfig) {
  const snapshot = await takeSnapshot(em, request, { at: input.at, publicUrl: config.publicUrl, timeZone: config.clockPolicy.calendar.timeZone, withLetter: effect.kind === 'letter-and-email' });
  snapshot.recipients = statusEmailRecipients(effect.templateTitle, request, config.riskManagementEmail);
  if (input.additionalInformation) snapshot.variables.additionalInformation = input.additionalInformation;
  return snapshot;
}

/** An effect row a change owes: its key, kind, template and the snapshot (JSON), or nulls for none. */
interface OwedRow { key: string | null; kind: string | null; title: string | null; snapshot: string | null }
const NO_ROW: OwedRow = { key: null, kind: null, title: null, snapshot: null };

/** The effect rows a change owes (none, its email or letter, and a resubmission's confirmation to the requester), always two (unused: nulls). */
async function effectRowsOf(em: Em, request: Request, input: RecordStatusInput, config: AppConfig): Promise<[OwedRow, OwedRow]> {
  const orders: Array<[string, EffectOrder]> = [
    ...(input.effect ? [[input.key, input.effect] as [string, EffectOrder]] : []),
    ...(input.alsoEmail ? [[input.alsoEmail.key, { kind: 'email', templateTitle: input.alsoEmail.templateTitle }] as [string, EffectOrder]] : []),
  ];
  const rows: OwedRow[] = [];
  for (const [key, effect] of orders) {
    rows.push({ key, kind: effect.kind, title: effect.templateTitle, snapshot: JSON.stringify(await snapshotFor(em, request, input, effect, config)) });
  }
  return [rows[0] ?? NO_ROW, rows[1] ?? NO_ROW];
}

const auditTextOf = (input: RecordStatusInput) => (input.submitted
  ? `Request submitted (status "${input.status}")`
  : `Status changed from "${input.previousStatus}" to "${input.status}"`) + (input.reason ? `: ${input.reason}` : '');

/**
 * The status change, its audit row (with the change in columns: from, to, the clock that made it, the user), the
 * clocks' state of the new stay and the effects it owes (at most two), in one statement (so all or nothing, one
 * round trip): written only while the request is at the version the snapshot was taken from, and only once per key
 * (the audit row's key). Entering a status starts its stay's clocks afresh (no reminder sent, not escalated); a
 * release's expiry acted on stays so until a new release is recorded. Answers whether this call wrote it and
 * whether it is written now (by this call or an earlier attempt).
 */
function recordStatusStatement(input: RecordStatusInput, auditKey: string, version: number, owed: [OwedRow, OwedRow]) {
  const [first, second] = owed;
  const clock = input.clock ?? null;
  return sql<{ written: boolean; done: boolean }>`
  with req as (
    update requests set
      status = ${input.status},
      submit_date = case when ${input.submitted}::boolean then ${input.at}::timestamptz else submit_date end,
      completed_date = ${input.completedDate}::timestamptz,
      verified = coalesce(${input.verified ?? null}::boolean, verified),
      internal_notes = case when ${input.internalNotes !== undefined}::boolean then ${input.internalNotes ?? null} else internal_notes end,
      last_command_id = coalesce(${input.commandId}, last_command_id),
      version = version + 1, updated_at = now()
    where id = ${input.requestId} and version = ${version} and not exists (select 1 from request_activity where idempotency_key = ${auditKey})
    returning id
  ), audit as (
    insert into request_activity (request_id, date, activity_type, activity_text, performed_by, performed_by_user_id,
      status_from, status_to, clock, idempotency_key, created_at, updated_at)
    select id, ${input.at}::timestamptz, ${input.submitted ? SUBMISSION_ACTIVITY : STATUS_CHANGE_ACTIVITY}, ${auditTextOf(input)},
      ${input.actor.name}, ${input.actor.userId ?? null}::int, ${input.previousStatus}, ${input.status}, ${clock}, ${auditKey}, now(), now()
    from req
  ), clocks as (
    insert into request_clocks (request_id, status_entered_at, reminders_sent, escalated_at, release_expiry_handled_at)
    select id, ${input.at}::timestamptz, 0, null, case when ${clock} = 'release-expiry' then ${input.at}::timestamptz end from req
    on conflict (request_id) do update set status_entered_at = excluded.status_entered_at, reminders_sent = 0, escalated_at = null,
      release_expiry_handled_at = coalesce(excluded.release_expiry_handled_at, request_clocks.release_expiry_handled_at)
  ), effect as (
    insert into request_effects (idempotency_key, request_id, kind, template_title, snapshot, created_at, updated_at)
    select owed.key, req.id, owed.kind, owed.title, owed.snapshot::jsonb, now(), now()
    from req, (values (${first.key}::text, ${first.kind}::text, ${first.title}::text, ${first.snapshot}::text),
                      (${second.key}::text, ${second.kind}::text, ${second.title}::text, ${second.snapshot}::text)) as owed(key, kind, title, snapshot)
    where owed.key is not null
  )
  select exists(select 1 from req) as written, exists(select 1 from request_activity where idempotency_key = ${auditKey}) as done`;
}

/**
 * Persists a status change: the request's status and dates, the command that made it, its audit row, and the effect
 * it owes with a snapshot of the request as it is now (read first, then everything written in one statement). A
 * retry with the same key changes nothing; an edit of the request between the read and the write (an autosave) is
 * met by reading again, so the snapshot is always of the version the status was written on.
 */
export function recordStatusActivity(deps: { orm: Orm; config: AppConfig }) {
  return async function recordStatus(input: RecordStatusInput): Promise<void> {
    const auditKey = `${input.key}:status`;
    for (let attempt = 1; ; attempt += 1) {
      const em = deps.orm.em.fork();
      const request = await em.findOne(RequestSchema, input.requestId);
      if (!request) throw ApplicationFailure.nonRetryable(`Request ${input.requestId} does not exist`, 'NotFound');
      // The snapshot is of the request as this change leaves it (a certificate's kind follows the new status). Only
      // this copy changes: the statement below writes the row (the fork is never flushed).
      const version = request.version;
      request.status = input.status;
      if (input.submitted) request.submitDate = new Date(input.at);
      request.completedDate = input.completedDate ? new Date(input.completedDate) : null;
      if (input.verified !== undefined) request.verified = input.verified;
      if (input.internalNotes !== undefined) request.internalNotes = input.internalNotes;
      const owed = await effectRowsOf(em, request, input, deps.config);
      const { rows: [outcome] } = await recordStatusStatement(input, auditKey, version, owed).execute(em.getKysely());
      if (outcome.written || outcome.done) return;
      // The request was saved by someone else between the read and the write: take its new version (bounded; the
      // activity's own retries take over after that).
      if (attempt >= 3) throw new Error(`Request ${input.requestId} kept changing while its status was being recorded`);
    }
  };
}
