/**
 * The database side of the request clocks (domain/request-clocks.ts, workflows/request.workflow.ts): what a run
 * needs to arm them, the audit row and email of a clock that fired, and the signed release date. Each write is keyed
 * by the workflow's effect key, so a retry changes nothing.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { RequestActivitySchema, RequestEffectSchema, RequestSchema } from '../../db/entities';
import { AUTOMATED_EMAIL_ACTOR, ESCALATION_ACTIVITY, RELEASE_EXPIRED_MARK, REMINDER_ACTIVITY, SIGNED_RELEASE_ACTIVITY, signedReleaseRecordedText, statusEmailRecipients } from '../../domain';
import type { ClockStartResult, EffectRef, RecordClockEffectInput, RecordSignedReleaseInput, RunStartInput, RunStartResult } from '../../workflows/request-activities.types';
import { takeSnapshot } from './request-snapshot';

/**
 * What a run needs of PostgreSQL to arm the clocks, in one round trip (it runs at every fresh start, so at every
 * submit): the release dates, the last status change, and the reminders, escalations and release expiries since.
 */
const CLOCK_START_COLUMNS = `
    to_char(r.signed_release_date, 'YYYY-MM-DD') as signed_release_date, r.signed_release_recorded_at, lc.date as status_since,
    (select count(*) from request_activity a where a.request_id = r.id and a.activity_type = ?
      and (lc.date is null or a.date >= lc.date))::int as reminders,
    (select count(*) from request_activity a where a.request_id = r.id and a.activity_type = ?
      and (lc.date is null or a.date >= lc.date))::int as escalations,
    (select count(*) from request_activity a where a.request_id = r.id and r.signed_release_recorded_at is not null
      and a.date >= r.signed_release_recorded_at and a.activity_text like ?)::int as expiries`;
const CLOCK_START_FROM = `
  from requests r
  left join lateral (
    select a.date from request_activity a where a.request_id = r.id and a.activity_type in ('Submission', 'Status Change')
    order by a.date desc, a.id desc limit 1
  ) lc on true
  where r.id = ?`;

interface ClockStartRow {
  signed_release_date: string | null; signed_release_recorded_at: Date | null; status_since: Date | null;
  reminders: number; escalations: number; expiries: number;
}

const clockStartParams = (requestId: number) => [REMINDER_ACTIVITY, ESCALATION_ACTIVITY, `%${RELEASE_EXPIRED_MARK}%`, requestId];

function clockStartOf(row: ClockStartRow, config: AppConfig): ClockStartResult {
  return {
    policy: config.clockPolicy,
    statusSince: row.status_since ? new Date(row.status_since).toISOString() : null,
    remindersSent: row.reminders,
    escalated: row.escalations > 0,
    signedReleaseDate: row.signed_release_date,
    signedReleaseRecordedAt: row.signed_release_recorded_at ? new Date(row.signed_release_recorded_at).toISOString() : null,
    releaseExpiryHandled: row.expiries > 0,
  };
}

/** The effects of the request still owed (an earlier run ended before carrying them out), oldest first, as JSON. */
const OWED_SQL = `
  select coalesce(json_agg(json_build_object('key', e.idempotency_key, 'kind', e.kind, 'templateTitle', e.template_title) order by e.id), '[]')
  from request_effects e where e.request_id = r.id and e.state = 'pending'`;

/**
 * The run's one read at its start (a local activity, in the workflow task that takes the first command): the
 * clocks' start and the owed effects in one statement, either left out when continue-as-new carried it.
 */
export function runStartActivity(deps: { orm: Orm; config: AppConfig }) {
  return async function runStart(input: RunStartInput): Promise<RunStartResult> {
    const sql = input.clock
      ? `select ${CLOCK_START_COLUMNS}, (${OWED_SQL}) as owed ${CLOCK_START_FROM}`
      : `select (${OWED_SQL}) as owed from requests r where r.id = ?`;
    const [row] = await deps.orm.em.getConnection().execute<Array<ClockStartRow & { owed: EffectRef[] }>>(
      sql, input.clock ? clockStartParams(input.requestId) : [input.requestId]);
    if (!row) throw ApplicationFailure.nonRetryable(`Request ${input.requestId} does not exist`, 'NotFound');
    return { owed: input.owed ? row.owed : [], clockStart: input.clock ? clockStartOf(row, deps.config) : null };
  };
}

/** One transaction: the clock's audit row and the email effect it owes, with a snapshot of the request as it is now. */
export function recordClockEffectActivity(deps: { orm: Orm; config: AppConfig }) {
  return async function recordClockEffect(input: RecordClockEffectInput): Promise<EffectRef> {
    return deps.orm.em.fork().transactional(async (em) => {
      const existing = await em.findOne(RequestEffectSchema, { idempotencyKey: input.key });
      if (existing) return { key: existing.idempotencyKey, kind: existing.kind, templateTitle: existing.templateTitle };
      const request = await em.findOne(RequestSchema, input.requestId);
      if (!request) throw ApplicationFailure.nonRetryable(`Request ${input.requestId} does not exist`, 'NotFound');
      const snapshot = await takeSnapshot(em, request, { at: input.at, publicUrl: deps.config.publicUrl, timeZone: deps.config.clockPolicy.calendar.timeZone, withLetter: false });
      snapshot.recipients = statusEmailRecipients(input.templateTitle, request, deps.config.riskManagementEmail);
      if (input.additionalInformation) snapshot.variables.additionalInformation = input.additionalInformation;
      em.create(RequestActivitySchema, {
        requestId: request.id, date: new Date(input.at), activityType: input.activityType, activityText: input.activityText,
        performedBy: AUTOMATED_EMAIL_ACTOR, idempotencyKey: `${input.key}:clock`,
      });
      em.create(RequestEffectSchema, {
        idempotencyKey: input.key, requestId: request.id, kind: 'email', templateTitle: input.templateTitle, snapshot: snapshot,
      });
      return { key: input.key, kind: 'email' as const, templateTitle: input.templateTitle };
    });
  };
}

export function recordSignedReleaseActivity(deps: { orm: Orm }) {
  return async function recordSignedRelease(input: RecordSignedReleaseInput): Promise<void> {
    await deps.orm.em.fork().transactional(async (em) => {
      const auditKey = `${input.key}:release`;
      if (await em.findOne(RequestActivitySchema, { idempotencyKey: auditKey })) return;
      const request = await em.findOne(RequestSchema, input.requestId);
      if (!request) throw ApplicationFailure.nonRetryable(`Request ${input.requestId} does not exist`, 'NotFound');
      request.signedReleaseDate = input.signedReleaseDate;
      request.signedReleaseRecordedAt = new Date(input.at);
      em.create(RequestActivitySchema, {
        requestId: request.id, date: new Date(input.at), activityType: SIGNED_RELEASE_ACTIVITY,
        activityText: signedReleaseRecordedText(input.signedReleaseDate), performedBy: input.actor.name, idempotencyKey: auditKey,
      });
    });
  };
}
