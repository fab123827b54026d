import { ApplicationFailure } from '@temporalio/common';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { EmailTemplateSchema, RequestActivitySchema, RequestEffectSchema, RequestSchema } from '../../db/entities';
import { EMAIL_ACTIVITY, EMAIL_FAILED_ACTIVITY, emailRequestedAuditText } from '../../domain';
import type { EffectRef, QueueEmailInput } from '../../workflows/request-activities.types';
import { takeSnapshot } from './request-snapshot';

/**
 * An email an administrator asked for (the "Send again" of a failed one, or a template sent on demand): an effect
 * row with a snapshot taken now, so a corrected address is used. Sending a failed approval again reuses its
 * letter when the letter was made.
 */
export function queueEmailActivity(deps: { orm: Orm; config: AppConfig }) {
  return async function queueEmail(input: QueueEmailInput): Promise<EffectRef> {
    const em = deps.orm.em.fork();
    const existing = await em.findOne(RequestEffectSchema, { idempotencyKey: input.key });
    if (existing) return { key: existing.idempotencyKey, kind: existing.kind, templateTitle: existing.templateTitle };

    const request = await em.findOne(RequestSchema, input.requestId);
    if (!request) throw ApplicationFailure.nonRetryable(`Request ${input.requestId} does not exist`, 'NotFound');
    if (!(await em.findOne(EmailTemplateSchema, { title: input.templateTitle }))) {
      throw ApplicationFailure.nonRetryable(`Unknown email template "${input.templateTitle}"`, 'BadRequest');
    }
    let kind: EffectRef['kind'] = 'email';
    let letterDocumentId: number | null = null;
    let additionalInformation: string | number | undefined;
    if (input.retryOf) {
      const failedRow = await em.findOne(RequestActivitySchema, { id: input.retryOf, requestId: request.id, activityType: EMAIL_FAILED_ACTIVITY });
      const failed = failedRow?.effectId ? await em.findOne(RequestEffectSchema, failedRow.effectId) : null;
      if (!failed || failed.templateTitle !== input.templateTitle) {
        throw ApplicationFailure.nonRetryable('Only a failed email of this request can be sent again', 'BadRequest');
      }
      kind = failed.kind;
      letterDocumentId = failed.letterDocumentId ?? null;
      // what that email had to say (a revocation's reason, an expired release) is said again
      additionalInformation = (failed.snapshot as { variables?: Record<string, string | number> }).variables?.additionalInformation;
    }
    const snapshot = await takeSnapshot(em, request, {
      at: new Date().toISOString(), publicUrl: deps.config.publicUrl, timeZone: deps.config.clockPolicy.calendar.timeZone, withLetter: kind === 'letter-and-email' && !letterDocumentId,
    });
    if (input.recipients?.length) snapshot.recipients = input.recipients;
    if (additionalInformation) snapshot.variables.additionalInformation = additionalInformation;
    // Who asked for it, in the trail beside the automated "email sent" row (keyed: a retried activity writes one).
    em.create(RequestActivitySchema, {
      requestId: request.id, date: new Date(), activityType: EMAIL_ACTIVITY, activityText: emailRequestedAuditText(input.templateTitle, !!input.retryOf),
      performedBy: input.actor.name, performedByUserId: input.actor.userId ?? null, recipients: snapshot.recipients.join(', '), channel: 'Portal', idempotencyKey: `${input.key}:requested`,
    });
    const effect = em.create(RequestEffectSchema, {
      idempotencyKey: input.key, requestId: request.id, kind, templateTitle: input.templateTitle, retryOf: input.retryOf,
      letterDocumentId,
      snapshot: snapshot,
    });
    await em.flush();
    return { key: effect.idempotencyKey, kind: effect.kind, templateTitle: effect.templateTitle };
  };
}
