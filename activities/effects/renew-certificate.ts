/**
 * Renewal season (domain/renewals.ts), as the request workflow's activities: the certificate reissued for a new
 * policy year, and the question "Do you still need this certificate?" asked of the requester. Each writes, in one
 * transaction keyed by its command, the audit row and the effect the workflow then carries out (the letter with its
 * email, or the question's email); a repeat finds its effect and changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { sql } from 'kysely';
import type { AppConfig } from '../../config/app-config';
import { kysely } from '../../db/kysely';
import type { Orm } from '../../db/orm';
import { PolicyYearSchema, RequestActivitySchema, RequestEffectSchema, RequestSchema, type Request } from '../../db/entities';
import {
  CERTIFICATE_RENEWED_TEMPLATE, certificateSubtypeLabel, emailRecipients, policyYearLabel, RENEWAL_ACTIVITY, RENEWAL_MESSAGES, RENEWAL_QUESTION_TEMPLATE, renewalAnswerPath,
  renewalAskedText, renewalCoverageError, renewalPeriod, renewalQuestionText, renewalRecipients, renewedForText, renewedNoticeText, STATUS,
} from '../../domain';
import type { AskRenewalInput, AskRenewalResult, RenewCertificateInput, RenewCertificateResult } from '../../workflows/request-activities.types';
import { answerTokenHash } from '../../services/renewals/answers';
import { takeSnapshot } from './request-snapshot';

type Em = Parameters<Parameters<Orm['em']['transactional']>[0]>[0];

async function existingEffect(em: Em, key: string) {
  const existing = await em.findOne(RequestEffectSchema, { idempotencyKey: key });
  return existing ? { effect: { key, kind: existing.kind, templateTitle: existing.templateTitle }, state: existing.state } : null;
}

const subtypeLabelOf = (r: Request) => certificateSubtypeLabel(r.certificateType, r.autoType) || 'certificate';

export function renewCertificateActivity(deps: { orm: Orm; config: AppConfig }) {
  return async function renewCertificate(input: RenewCertificateInput): Promise<RenewCertificateResult> {
    return deps.orm.em.fork().transactional(async (em) => {
      const found = await existingEffect(em, input.key);
      if (found) {
        const claim = await kysely(em).selectFrom('request_renewals').select(['run_id']).where('effect_key', '=', input.key).executeTakeFirst();
        return { outcome: 'renewed' as const, ...found, note: null, byRunId: claim?.run_id ?? null };
      }
      const request = await em.findOne(RequestSchema, input.requestId);
      if (!request) throw ApplicationFailure.nonRetryable(`Request ${input.requestId} does not exist`, 'NotFound');
      if (request.requestType !== 'certificate' || request.status !== STATUS.approved) throw ApplicationFailure.nonRetryable(RENEWAL_MESSAGES.notApproved, 'Conflict');
      const years = await em.find(PolicyYearSchema, {});
      const year = years.find((y) => y.id === input.policyYearId);
      if (!year) throw ApplicationFailure.nonRetryable('The policy year of this renewal no longer exists.', 'NotFound');
      const yearLabel = policyYearLabel(year);
      const period = renewalPeriod({ ...request, certificateType: request.certificateType ?? null }, year);
      const uncovered = renewalCoverageError(period, years);
      if (uncovered) throw ApplicationFailure.nonRetryable(uncovered, 'Conflict');
      // One renewal per request and year, whichever run asks: a second (or concurrent) one waits here and finds it.
      const { rows: claimed } = await sql<{ effect_key: string }>`insert into request_renewals (request_id, policy_year_id, run_id, effect_key)
        values (${request.id}, ${year.id}, ${input.runId}, ${input.key}) on conflict do nothing returning effect_key`.execute(kysely(em));
      if (claimed.length === 0) {
        const other = await kysely(em).selectFrom('request_renewals').select(['run_id']).where('request_id', '=', request.id).where('policy_year_id', '=', year.id).executeTakeFirst();
        return { outcome: 'already' as const, effect: null, state: 'none' as const, note: RENEWAL_MESSAGES.alreadyRenewed(yearLabel), byRunId: other?.run_id ?? null };
      }

      const at = new Date();
      const snapshot = await takeSnapshot(em, request, {
        at: at.toISOString(), publicUrl: deps.config.publicUrl, timeZone: deps.config.clockPolicy.calendar.timeZone, withLetter: true, coverage: period,
      });
      snapshot.variables.additionalInformation = renewedNoticeText({ holder: request.certificateHolder ?? '', yearLabel, ...period });
      snapshot.recipients = renewalRecipients(request);
      em.create(RequestActivitySchema, {
        requestId: request.id, date: at, activityType: RENEWAL_ACTIVITY, activityText: renewedForText(yearLabel),
        performedBy: input.actor.name, performedByUserId: input.actor.userId ?? null, recipients: snapshot.recipients.join(', '),
        channel: 'Portal', idempotencyKey: `${input.key}:renewed`,
      });
      em.create(RequestEffectSchema, {
        idempotencyKey: input.key, requestId: request.id, kind: 'letter-and-email', templateTitle: CERTIFICATE_RENEWED_TEMPLATE, retryOf: null,
        letterDocumentId: null, snapshot,
      });
      return {
        outcome: 'renewed' as const, effect: { key: input.key, kind: 'letter-and-email' as const, templateTitle: CERTIFICATE_RENEWED_TEMPLATE },
        state: 'pending' as const, note: null, byRunId: input.runId,
      };
    });
  };
}

export function askRenewalActivity(deps: { orm: Orm; config: AppConfig }) {
  return async function askRenewal(input: AskRenewalInput): Promise<AskRenewalResult> {
    return deps.orm.em.fork().transactional(async (em) => {
      const found = await existingEffect(em, input.key);
      if (found) return found;
      const db = kysely(em);
      const item = await db.selectFrom('renewal_items as i').innerJoin('renewal_runs as r', 'r.id', 'i.run_id').innerJoin('policies as p', 'p.id', 'r.policy_year_id')
        .select(['i.id', 'i.state', sql<string | null>`r.answer_by::text`.as('answer_by'), 'p.start_date', 'p.end_date'])
        .where('i.run_id', '=', input.runId).where('i.request_id', '=', input.requestId).forUpdate('i').executeTakeFirst();
      // The run was cancelled, or the item answered meanwhile: nothing to ask.
      if (!item || item.state !== 'asked' || !item.answer_by) return { effect: null, state: 'none' as const };
      const request = await em.findOneOrFail(RequestSchema, input.requestId);
      const token = randomBytes(24).toString('base64url');
      await db.updateTable('renewal_items').set({ answer_token_hash: answerTokenHash(token), updated_at: new Date() }).where('id', '=', item.id).execute();
      const at = new Date();
      const yearLabel = policyYearLabel({ startDate: item.start_date, endDate: item.end_date });
      const answerBy = item.answer_by;
      const snapshot = await takeSnapshot(em, request, { at: at.toISOString(), publicUrl: deps.config.publicUrl, timeZone: deps.config.clockPolicy.calendar.timeZone, withLetter: false });
      const page = `${deps.config.publicUrl}${renewalAnswerPath(token)}`;
      snapshot.variables.additionalInformation = renewalQuestionText({
        holder: request.certificateHolder ?? '', subtypeLabel: subtypeLabelOf(request), yearLabel, answerBy, yesUrl: `${page}?answer=yes`, noUrl: `${page}?answer=no`,
      });
      // The requester decides whether the need continues: the question goes to them only.
      snapshot.recipients = emailRecipients(request).slice(0, 1);
      em.create(RequestActivitySchema, {
        requestId: request.id, date: at, activityType: RENEWAL_ACTIVITY, activityText: renewalAskedText(yearLabel, answerBy),
        performedBy: input.actor.name, performedByUserId: input.actor.userId ?? null, recipients: snapshot.recipients.join(', '),
        channel: 'Portal', idempotencyKey: `${input.key}:asked`,
      });
      em.create(RequestEffectSchema, {
        idempotencyKey: input.key, requestId: request.id, kind: 'email', templateTitle: RENEWAL_QUESTION_TEMPLATE, retryOf: null, letterDocumentId: null, snapshot,
      });
      return { effect: { key: input.key, kind: 'email' as const, templateTitle: RENEWAL_QUESTION_TEMPLATE }, state: 'pending' as const };
    });
  };
}
