import { ApplicationFailure } from '@temporalio/common';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { RequestActivitySchema, RequestEffectSchema, RequestSchema } from '../../db/entities';
import { DOCUMENT_ACTIVITY, documentAuditText, statusEmailRecipients } from '../../domain';
import type { EffectKeyInput, QueueLetterInput, QueueLetterResult } from '../../workflows/request-activities.types';
import { takeSnapshot } from './request-snapshot';

/**
 * generate-pdfs: in one transaction, the effect of a regenerated letter (with a snapshot of the request now, so
 * the letter says what is true today) and the audit row naming the administrator who asked. Keyed by the command:
 * a repeat returns the row already there. The letter activity renders it; with `sendWithEmail` the approval email
 * goes out with it (recipients as for the approval, domain/email-recipients.ts).
 */
export function queueLetterActivity(deps: { orm: Orm; config: AppConfig }) {
  return async function queueLetter(input: QueueLetterInput): Promise<QueueLetterResult> {
    return deps.orm.em.fork().transactional(async (em) => {
      const existing = await em.findOne(RequestEffectSchema, { idempotencyKey: input.key });
      if (existing) return { effect: { key: input.key, kind: existing.kind, templateTitle: existing.templateTitle }, state: existing.state };
      const request = await em.findOne(RequestSchema, input.requestId);
      if (!request) throw ApplicationFailure.nonRetryable(`Request ${input.requestId} does not exist`, 'NotFound');
      const snapshot = await takeSnapshot(em, request, { at: new Date().toISOString(), publicUrl: deps.config.publicUrl, timeZone: deps.config.clockPolicy.calendar.timeZone, withLetter: true });
      snapshot.recipients = statusEmailRecipients(input.templateTitle, request, deps.config.riskManagementEmail);
      const kind = input.sendWithEmail ? 'letter-and-email' as const : 'letter' as const;
      em.create(RequestEffectSchema, {
        idempotencyKey: input.key, requestId: request.id, kind, templateTitle: input.templateTitle, retryOf: null, letterDocumentId: null,
        snapshot: snapshot,
      });
      em.create(RequestActivitySchema, {
        requestId: request.id, date: new Date(), activityType: DOCUMENT_ACTIVITY,
        activityText: documentAuditText.regenerationRequested(input.sendWithEmail),
        performedBy: input.actor.name, performedByUserId: input.actor.userId ?? null,
        recipients: input.sendWithEmail ? snapshot.recipients.join(', ') : null,
        channel: 'Portal', idempotencyKey: `${input.key}:requested`,
      });
      return { effect: { key: input.key, kind, templateTitle: input.templateTitle }, state: 'pending' as const };
    });
  };
}

/** A `letter` effect owes nothing once its letter is stored: marked done so no later run carries it out again. */
export function finishLetterEffectActivity(deps: { orm: Orm }) {
  return async function finishLetterEffect(input: EffectKeyInput): Promise<void> {
    await deps.orm.em.fork().nativeUpdate(RequestEffectSchema, { idempotencyKey: input.key, kind: 'letter', state: 'pending' }, { state: 'sent', sentAt: new Date() });
  };
}
