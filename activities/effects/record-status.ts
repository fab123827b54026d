import { ApplicationFailure } from '@temporalio/common';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { RequestSchema, type Request } from '../../db/entities';
import { statusEmailRecipients } from '../../domain';
import type { EffectOrder, RecordStatusInput } from '../../workflows/request-activities.types';
import { takeSnapshot } from './request-snapshot';

type Em = Parameters<typeof takeSnapshot>[0];

async function snapshotFor(em: Em, request: Request, input: RecordStatusInput, effect: EffectOrder, config: AppConfig) {
  const snapshot = await takeSnapshot(em, request, { at: input.at, publicUrl: config.publicUrl, timeZone: config.clockPolicy.calendar.timeZone, withLetter: effect.kind === 'letter-and-email' });
  snapshot.recipients = statusEmailRecipients(effect.templateTitle, request, config.riskManagementEmail);
  if (input.additionalInformation) snapshot.variables.additionalInformation = input.additionalInformation;
  return snapshot;
}

/** The effect rows a change owes (none, its email or letter, and shape 7's second email), as the statement's rows. */
async function effectRowsOf(em: Em, request: Request, input: RecordStatusInput, config: AppConfig): Promise<Array<string | null>> {
  const rows: Array<string | null> = [];
  const orders: Array<[string, EffectOrder]> = [
    ...(input.effect ? [[input.key, input.effect] as [string, EffectOrder]] : []),
    ...(input.alsoEmail ? [[input.alsoEmail.key, { kind: 'email', templateTitle: input.alsoEmail.templateTitle }] as [string, EffectOrder]] : []),
  ];
  for (let i = 0; i < 2; i += 1) {
    const order = orders[i];
    if (!order) { rows.push(null, null, null, null); continue; }
    const [key, effect] = order;
    rows.push(key, effect.kind, effect.templateTitle, JSON.stringify(await snapshotFor(em, request, input, effect, config)));
  }
  return rows;
}

const auditTextOf = (input: RecordStatusInput) => (input.submitted
  ? `Request submitted (status "${input.status}")`
  : `Status changed from "${input.previousStatus}" to "${input.status}"`) + (input.reason ? `: ${input.reason}` : '');

/**
 * The status change, its audit row and the effects it owes (at most two), in one statement (so all or nothing, one round trip):
 * written only while the request is at the version the snapshot was taken from, and only once per key (the audit
 * row's key). Answers whether this call wrote it and whether it is written now (by this call or an earlier attempt).
 */
const RECORD_STATUS_SQL = `
  with req as (
    update requests set
      status = ?,
      submit_date = case when ?::boolean then ?::timestamptz else submit_date end,
      completed_date = ?::timestamptz,
      verified = coalesce(?::boolean, verified),
      internal_notes = case when ?::boolean then ? else internal_notes end,
      last_command_id = coalesce(?, last_command_id),
      version = version + 1, updated_at = now()
    where id = ? and version = ? and not exists (select 1 from request_activity where idempotency_key = ?)
    returning id
  ), audit as (
    insert into request_activity (request_id, date, activity_type, activity_text, performed_by, idempotency_key, created_at, updated_at)
    select id, ?::timestamptz, ?, ?, ?, ?, now(), now() from req
  ), effect as (
    insert into request_effects (idempotency_key, request_id, kind, template_title, snapshot, created_at, updated_at)
    select owed.key, req.id, owed.kind, owed.title, owed.snapshot::jsonb, now(), now()
    from req, (values (?::text, ?::text, ?::text, ?::text), (?::text, ?::text, ?::text, ?::text)) as owed(key, kind, title, snapshot)
    where owed.key is not null
  )
  select exists(select 1 from req) as written, exists(select 1 from request_activity where idempotency_key = ?) as done`;

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
      const effectRows = await effectRowsOf(em, request, input, deps.config);
      const [outcome] = await em.getConnection().execute<Array<{ written: boolean; done: boolean }>>(RECORD_STATUS_SQL, [
        input.status, input.submitted, input.at, input.completedDate,
        input.verified ?? null, input.internalNotes !== undefined, input.internalNotes ?? null, input.commandId,
        input.requestId, version, auditKey,
        input.at, input.submitted ? 'Submission' : 'Status Change', auditTextOf(input), input.actor.name, auditKey,
        ...effectRows,
        auditKey,
      ]);
      if (outcome.written || outcome.done) return;
      // The request was saved by someone else between the read and the write: take its new version (bounded; the
      // activity's own retries take over after that).
      if (attempt >= 3) throw new Error(`Request ${input.requestId} kept changing while its status was being recorded`);
    }
  };
}
