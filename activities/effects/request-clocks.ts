/**
 * The database side of the request clocks (domain/request-clocks.ts, workflows/request.workflow.ts): what a run
 * needs to arm them, the audit row and email of a clock that fired, and the signed release date. Each write is keyed
 * by the workflow's effect key, so a retry changes nothing.
 */
import { ApplicationFailure } from '@temporalio/common';
import { sql } from 'kysely';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { RequestActivitySchema, RequestEffectSchema, RequestSchema } from '../../db/entities';
import { AUTOMATED_EMAIL_ACTOR, SIGNED_RELEASE_ACTIVITY, signedReleaseRecordedText, statusEmailRecipients, type ClockKind } from '../../domain';
import type { ClockStartResult, EffectRef, RecordClockEffectInput, RecordSignedReleaseInput, RunStartInput, RunStartResult } from '../../workflows/request-activities.types';
import { takeSnapshot } from './request-snapshot';

/** What the clocks start from, as `request_clocks` and the request row keep it (columns only, never the audit text). */
interface ClockStartRow {
  signed_release_date: string | null; signed_release_recorded_at: Date | null; status_since: Date | null;
  reminders: number; escalated: boolean; release_expiry_handled: boolean;
}

/** The effects of the request still owed (an earlier run ended before carrying them out), oldest first, as JSON. */
const owedOf = (requestId: number) => sql<EffectRef[]>`(
  select coalesce(json_agg(json_build_object('key', e.idempotency_key, 'kind', e.kind, 'templateTitle', e.template_title) order by e.id), '[]')
  from request_effects e where e.request_id = ${requestId} and e.state = 'pending')`;

/**
 * What a run needs of PostgreSQL to arm the clocks, in one round trip (it runs at every fresh start, so at every
 * submit): the release dates, when the current status was entered, and the reminders, escalation and release expiry
 * acted on since; with the owed effects when asked (the run's one read at its start).
 */
const clockStartStatement = (requestId: number, withOwed: boolean) => sql<ClockStartRow & { owed: EffectRef[] | null }>`
  select to_char(r.signed_release_date, 'YYYY-MM-DD') as signed_release_date, r.signed_release_recorded_at,
    c.status_entered_at as status_since, coalesce(c.reminders_sent, 0)::int as reminders,
    c.escalated_at is not null as escalated, c.release_expiry_handled_at is not null as release_expiry_handled,
    ${withOwed ? owedOf(requestId) : sql`null`} as owed
  from requests r left join request_clocks c on c.request_id = r.id
  where r.id = ${requestId}`;

function clockStartOf(row: ClockStartRow, config: AppConfig): ClockStartResult {
  return {
    policy: config.clockPolicy,
    statusSince: row.status_since ? new Date(row.status_since).toISOString() : null,
    remindersSent: row.reminders,
    escalated: row.escalated,
    signedReleaseDate: row.signed_release_date,
    signedReleaseRecordedAt: row.signed_release_recorded_at ? new Date(row.signed_release_recorded_at).toISOString() : null,
    releaseExpiryHandled: row.release_expiry_handled,
  };
}


/**
 * The run's one read at its start (a local activity, in the workflow task that takes the first command): the
 * clocks' start and the owed effects in one statement, either left out when continue-as-new carried it.
 */
export function runStartActivity(deps: { orm: Orm; config: AppConfig }) {
  return async function runStart(input: RunStartInput): Promise<RunStartResult> {
    const kysely = deps.orm.em.fork().getKysely();
    const { rows: [row] } = input.clock
      ? await clockStartStatement(input.requestId, input.owed).execute(kysely)
      : await sql<{ owed: EffectRef[] }>`select ${owedOf(input.requestId)} as owed from requests r where r.id = ${input.requestId}`.execute(kysely);
    if (!row) throw ApplicationFailure.nonRetryable(`Request ${input.requestId} does not exist`, 'NotFound');
    return { owed: input.owed ? row.owed ?? [] : [], clockStart: input.clock ? clockStartOf(row as ClockStartRow, deps.config) : null };
  };
}

/**
 * What a clock's own audit row moves in the clocks' state of the stay: the reminders sent, the escalation, the
 * release expiry acted on. A request without a clocks row (it never entered a status through the workflow) gets one
 * from its status's time.
 */
const clockStateStatement = (requestId: number, clock: ClockKind, at: string) => sql`
  insert into request_clocks as c (request_id, status_entered_at, reminders_sent, escalated_at, release_expiry_handled_at)
  select r.id, coalesce(r.status_changed_at, ${at}::timestamptz),
    case ${clock} when 'reminder-1' then 1 when 'reminder-2' then 2 else 0 end,
    case when ${clock} = 'escalation' then ${at}::timestamptz end,
    case when ${clock} = 'release-expiry' then ${at}::timestamptz end
  from requests r where r.id = ${requestId}
  on conflict (request_id) do update set
    reminders_sent = greatest(c.reminders_sent, excluded.reminders_sent),
    escalated_at = coalesce(excluded.escalated_at, c.escalated_at),
    release_expiry_handled_at = coalesce(excluded.release_expiry_handled_at, c.release_expiry_handled_at)`;

/**
 * One transaction: the clock's audit row (naming its clock), the clocks' state it moves and the email effect it owes,
 * with a snapshot of the request as it is now.
 */
export function recordClockEffectActivity(deps: { orm: Orm; config: AppConfig }) {
  return async function recordClockEffect(input: RecordClockEffectInput): Promise<EffectRef> {
    const clock = input.clock;
    if (!clock) throw ApplicationFailure.nonRetryable('A clock\'s audit row must name its clock', 'BadRequest');
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
        performedBy: AUTOMATED_EMAIL_ACTOR, clock, idempotencyKey: `${input.key}:clock`,
      });
      await clockStateStatement(request.id, clock, input.at).execute(em.getKysely());
      em.create(RequestEffectSchema, {
        idempotencyKey: input.key, requestId: request.id, kind: 'email', templateTitle: input.templateTitle, snapshot: snapshot,
      });
      return { key: input.key, kind: 'email' as const, templateTitle: input.templateTitle };
    });
  };
}

/**
 * The administrator's signed release date: the request's release dates, its audit row, and a fresh release expiry in
 * the clocks' state (a new release has its own expiry to act on), in one statement, once per key.
 */
const signedReleaseStatement = (input: RecordSignedReleaseInput, auditKey: string) => sql<{ found: boolean }>`
  with req as (
    update requests set signed_release_date = ${input.signedReleaseDate}::date, signed_release_recorded_at = ${input.at}::timestamptz,
      version = version + 1, updated_at = now()
    where id = ${input.requestId} and not exists (select 1 from request_activity where idempotency_key = ${auditKey})
    returning id
  ), audit as (
    insert into request_activity (request_id, date, activity_type, activity_text, performed_by, performed_by_user_id, idempotency_key, created_at, updated_at)
    select id, ${input.at}::timestamptz, ${SIGNED_RELEASE_ACTIVITY}, ${signedReleaseRecordedText(input.signedReleaseDate)},
      ${input.actor.name}, ${input.actor.userId ?? null}::int, ${auditKey}, now(), now()
    from req
  ), clocks as (
    update request_clocks set release_expiry_handled_at = null where request_id in (select id from req)
  )
  select exists(select 1 from requests where id = ${input.requestId}) as found`;

export function recordSignedReleaseActivity(deps: { orm: Orm }) {
  return async function recordSignedRelease(input: RecordSignedReleaseInput): Promise<void> {
    const { rows: [row] } = await signedReleaseStatement(input, `${input.key}:release`).execute(deps.orm.em.fork().getKysely());
    if (!row?.found) throw ApplicationFailure.nonRetryable(`Request ${input.requestId} does not exist`, 'NotFound');
  };
}
