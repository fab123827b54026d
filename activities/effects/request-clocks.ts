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
import type { ClockStartResult, EffectRef, RecordClockEffectInput, RecordSignedReleaseInput } from '../request-activities.types';
import { takeSnapshot } from './request-snapshot';

const dayOf = (value: unknown): string | null =>
  value == null ? null : value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);

export function clockStartActivity(deps: { orm: Orm; config: AppConfig }) {
  return async function clockStart(input: { requestId: number }): Promise<ClockStartResult> {
    const em = deps.orm.em.fork();
    const request = await em.findOne(RequestSchema, input.requestId);
    if (!request) throw ApplicationFailure.nonRetryable(`Request ${input.requestId} does not exist`, 'NotFound');
    const [lastChange] = await em.find(RequestActivitySchema, { requestId: request.id, activityType: { $in: ['Submission', 'Status Change'] } }, { orderBy: { date: 'desc', id: 'desc' }, limit: 1 });
    const since = lastChange ? { date: { $gte: lastChange.date } } : {};
    const recordedAt = request.signedReleaseRecordedAt;
    const expiryRows = recordedAt
      ? await em.count(RequestActivitySchema, { requestId: request.id, date: { $gte: recordedAt }, activityText: { $like: `%${RELEASE_EXPIRED_MARK}%` } })
      : 0;
    return {
      policy: deps.config.clockPolicy,
      statusSince: lastChange?.date.toISOString() ?? null,
      remindersSent: await em.count(RequestActivitySchema, { requestId: request.id, activityType: REMINDER_ACTIVITY, ...since }),
      escalated: (await em.count(RequestActivitySchema, { requestId: request.id, activityType: ESCALATION_ACTIVITY, ...since })) > 0,
      signedReleaseDate: dayOf(request.signedReleaseDate),
      signedReleaseRecordedAt: request.signedReleaseRecordedAt?.toISOString() ?? null,
      releaseExpiryHandled: expiryRows > 0,
    };
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
      const snapshot = await takeSnapshot(em, request, { at: input.at, publicUrl: deps.config.publicUrl, withLetter: false });
      snapshot.recipients = statusEmailRecipients(input.templateTitle, request, deps.config.riskManagementEmail);
      if (input.additionalInformation) snapshot.variables.additionalInformation = input.additionalInformation;
      em.create(RequestActivitySchema, {
        requestId: request.id, date: new Date(input.at), activityType: input.activityType, activityText: input.activityText,
        performedBy: AUTOMATED_EMAIL_ACTOR, idempotencyKey: `${input.key}:clock`,
      } as never);
      em.create(RequestEffectSchema, {
        idempotencyKey: input.key, requestId: request.id, kind: 'email', templateTitle: input.templateTitle, snapshot: snapshot as never,
      } as never);
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
      request.signedReleaseDate = input.signedReleaseDate as never;
      request.signedReleaseRecordedAt = new Date(input.at);
      em.create(RequestActivitySchema, {
        requestId: request.id, date: new Date(input.at), activityType: SIGNED_RELEASE_ACTIVITY,
        activityText: signedReleaseRecordedText(input.signedReleaseDate), performedBy: input.actor.name, idempotencyKey: auditKey,
      } as never);
    });
  };
}
