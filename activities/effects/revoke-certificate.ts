import { LockMode } from '@mikro-orm/core';
import { ApplicationFailure } from '@temporalio/common';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { IssuedLetterSchema, RequestActivitySchema, RequestEffectSchema, RequestSchema } from '../../db/entities';
import {
  CERTIFICATE_REVOKED_ACTIVITY, CERTIFICATE_REVOKED_TEMPLATE, formatOfficeDate, formatVerificationCode, ISSUED_LETTER_MESSAGES,
  isRevokeReason, revokeAuditText, revokedNoticeText, revokeRefusal, statusEmailRecipients,
} from '../../domain';
import type { RevokeCertificateInput, RevokeCertificateResult } from '../../workflows/request-activities.types';
import { takeSnapshot } from './request-snapshot';

/**
 * An administrator's revocation, in one transaction: the issued letter marked revoked (reason category, note, who,
 * when), the audit row, and the email effect that tells the requester (template "Certificate Revoked", what was
 * revoked and why in `{{additionalInformation}}`). Keyed by the command: a repeat finds its effect and changes
 * nothing. Only the current letter can be revoked: a revoked or superseded one is refused (not retried).
 */
export function revokeCertificateActivity(deps: { orm: Orm; config: AppConfig }) {
  return async function revokeCertificate(input: RevokeCertificateInput): Promise<RevokeCertificateResult> {
    return deps.orm.em.fork().transactional(async (em) => {
      const existing = await em.findOne(RequestEffectSchema, { idempotencyKey: input.key });
      if (existing) {
        const revoked = await em.findOne(IssuedLetterSchema, { requestId: input.requestId, verificationCode: input.code });
        return {
          effect: { key: existing.idempotencyKey, kind: existing.kind, templateTitle: existing.templateTitle },
          state: existing.state, revokedAt: (revoked?.revokedAt ?? existing.createdAt).toISOString(),
        };
      }
      if (!isRevokeReason(input.reason)) throw ApplicationFailure.nonRetryable(ISSUED_LETTER_MESSAGES.reason, 'BadRequest');
      // Locked: a concurrent revocation or a new letter superseding this one waits for this transaction.
      const letter = await em.findOne(IssuedLetterSchema, { requestId: input.requestId, verificationCode: input.code, issuedAt: { $ne: null } },
        { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!letter) throw ApplicationFailure.nonRetryable(ISSUED_LETTER_MESSAGES.notFound, 'NotFound');
      const refusal = revokeRefusal(letter);
      if (refusal) throw ApplicationFailure.nonRetryable(refusal, 'Conflict');
      const request = await em.findOneOrFail(RequestSchema, input.requestId);

      const timeZone = deps.config.clockPolicy.calendar.timeZone;
      const revokedAt = new Date();
      const note = input.note?.trim() || null;
      letter.revokedAt = revokedAt;
      letter.revokeReason = input.reason;
      letter.revokeNote = note;
      letter.revokedBy = input.revokedBy;
      const described = {
        kindLabel: letter.facts.kindLabel, code: formatVerificationCode(letter.verificationCode),
        issuedOn: formatOfficeDate(letter.issuedAt!.toISOString(), timeZone), reason: input.reason, note,
      };
      const snapshot = await takeSnapshot(em, request, { at: revokedAt.toISOString(), publicUrl: deps.config.publicUrl, timeZone, withLetter: false });
      snapshot.variables.additionalInformation = revokedNoticeText(described);
      snapshot.recipients = statusEmailRecipients(CERTIFICATE_REVOKED_TEMPLATE, request, deps.config.riskManagementEmail);
      em.create(RequestActivitySchema, {
        requestId: request.id, date: revokedAt, activityType: CERTIFICATE_REVOKED_ACTIVITY, activityText: revokeAuditText(described),
        performedBy: input.actor.name, performedByUserId: input.actor.userId ?? null, recipients: null, channel: 'Portal',
        idempotencyKey: `${input.key}:revoked`,
      });
      em.create(RequestEffectSchema, {
        idempotencyKey: input.key, requestId: request.id, kind: 'email', templateTitle: CERTIFICATE_REVOKED_TEMPLATE, retryOf: null,
        letterDocumentId: null, snapshot,
      });
      return { effect: { key: input.key, kind: 'email' as const, templateTitle: CERTIFICATE_REVOKED_TEMPLATE }, state: 'pending' as const, revokedAt: revokedAt.toISOString() };
    });
  };
}
