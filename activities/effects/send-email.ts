import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import Handlebars from 'handlebars';
import { sql } from 'kysely';
import type { AppConfig } from '../../config/app-config';
import { kysely } from '../../db/kysely';
import type { Orm } from '../../db/orm';
import { DocumentSchema, RequestActivitySchema, RequestEffectSchema, type Document, type RequestEffect } from '../../db/entities';
import {
  AUTOMATED_EMAIL_ACTOR, automatedEmailAuditText, DOCUMENT_ACTIVITY, documentAuditText, EFFECT_OUTCOME, EMAIL_ACTIVITY, EMAIL_FAILED_ACTIVITY, emailFailedAuditText, isEmailAddress, LETTER_FAILED_PREFIX,
  possiblyRepeatedSuffix,
} from '../../domain';
import { portalMessageId } from '../../domain/reply-address';
import type { DocumentFiles } from '../../storage/document-files';
import type { Mailer } from '../mailer';
import type { EffectKeyInput, SendEffectEmailResult } from '../../workflows/request-activities.types';
import { withHeartbeat } from './heartbeat';
import { LETTER_AUTHOR } from './render-letter';
import type { RequestSnapshot } from './request-snapshot';
import { requestEmailHeaders } from './request-email-headers';

/**
 * The Message-ID of an effect's email to its recipient at `recipientIndex` (domain/reply-address.ts): the same on
 * every attempt, so a mail client folds a copy.
 */
export const messageIdOf = (key: string, config: Pick<AppConfig, 'reply'>, recipientIndex = 0) =>
  portalMessageId(key, config.reply.messageIdDomain, recipientIndex);

interface SmtpError extends Error { responseCode?: number; response?: string; code?: string }

/**
 * A mail server's 5xx and an envelope it refused for good are permanent: retrying cannot help. A recipient refused
 * with 4xx ("mailbox busy, try later") is transient even when it was every recipient (nodemailer's EENVELOPE).
 */
function classify(error: SmtpError): Error {
  const code = error.responseCode ?? 0;
  const permanent = code >= 500 || (error.code === 'EENVELOPE' && !(code >= 400 && code < 500));
  const reason = error.response ?? error.message;
  return permanent ? ApplicationFailure.nonRetryable(reason, 'SmtpRejected') : error;
}

/**
 * What an attempt keeps in its heartbeat: the recipients the mail server took (`sent`) and refused for good
 * (`refused`). Each recipient gets a message of their own (their own reply address), so an attempt may end with
 * some recipients served; the next one sends to the others only. Without `sent` (a heartbeat written before emails
 * went to each recipient separately) every recipient not refused was served.
 */
export interface Delivery { refused: string[]; sent?: string[] }

/** The delivery an earlier attempt of this activity recorded in its heartbeat, if any. */
function deliveredEarlier(): Delivery | null {
  try {
    const details = Context.current().info.heartbeatDetails as Partial<Delivery> | undefined;
    if (!details || !Array.isArray(details.refused)) return null;
    return Array.isArray(details.sent) ? { refused: details.refused, sent: details.sent } : { refused: details.refused };
  } catch {
    return null; // called outside an activity (a test calling the function directly)
  }
}

/** Whether the delivery served or refused every recipient: nothing is left to send, only the mark. */
const deliveredToAll = (delivery: Delivery | null, recipients: string[]): delivery is Delivery =>
  delivery !== null && (delivery.sent === undefined || recipients.every((r) => delivery.sent!.includes(r) || delivery.refused.includes(r)));

/** A refusal of the recipient for good (RCPT TO answered 5xx, or an envelope nodemailer refuses), not of the message. */
const refusesRecipient = (error: SmtpError) => error.code === 'EENVELOPE' && !((error.responseCode ?? 0) >= 400 && (error.responseCode ?? 0) < 500);

/**
 * The mail server took the email but its "sent" mark could not be written yet: retried for as long as it takes
 * (worker/retry-window.ts never gives up on it), and never sent again.
 */
export class DeliveredNotMarked extends Error {
  override name = 'DeliveredNotMarked';
  constructor(cause: unknown) {
    super(`delivered; waiting to record it: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

function rememberDelivery(delivery: Delivery): void {
  try { Context.current().heartbeat(delivery); } catch { /* outside an activity */ }
}

/**
 * The "sent" mark, retried within this attempt (heartbeating, so the delivery reaches the server's record) while
 * PostgreSQL is away; past ~20 s the attempt fails and the next one marks it from the heartbeat, without sending.
 */
async function markedUntilStored(write: () => Promise<unknown>, delivery: Delivery, budgetMs = 20_000): Promise<void> {
  const deadline = Date.now() + budgetMs;
  for (let wait = 250; ; wait = Math.min(wait * 2, 4000)) {
    try {
      await write();
      return;
    } catch (error) {
      if (Date.now() + wait > deadline) throw new DeliveredNotMarked(error);
      // Each heartbeat carries the delivery again: a heartbeat without details would erase it from the record.
      rememberDelivery(delivery);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/**
 * Compiled templates by their text: an approval burst sends the same few templates hundreds of times, and an
 * edited template has a new text (so a new entry). Bounded in case templates are edited very often.
 */
const compiledTemplates = new Map<string, HandlebarsTemplateDelegate>();
function compiled(source: string): HandlebarsTemplateDelegate {
  let template = compiledTemplates.get(source);
  if (!template) {
    if (compiledTemplates.size >= 200) compiledTemplates.clear();
    template = Handlebars.compile(source, { noEscape: true });
    compiledTemplates.set(source, template);
  }
  return template;
}

/** What sending an effect's email reads: the effect and its template, in one round trip. */
interface EffectToSend {
  id: number; requestId: number; requestNumber: number | null; kind: RequestEffect['kind']; templateTitle: string; state: RequestEffect['state'];
  recipients: string | null; snapshot: RequestSnapshot; letterDocumentId: number | null;
  /** the template's subject and body; null when no template has the effect's title */
  subject: string | null; body: string | null;
}
const effectToSend = (key: string) => sql<EffectToSend>`
  select e.id, e.request_id as "requestId", r.request_number as "requestNumber", e.kind, e.template_title as "templateTitle", e.state, e.recipients, e.snapshot,
    e.letter_document_id as "letterDocumentId", t.subject, t.body
  from request_effects e left join email_templates t on t.title = e.template_title left join requests r on r.id = e.request_id
  where e.idempotency_key = ${key}`;

/** An audit row for the addresses the mail server refused (linked to the effect, whose outcome it records). */
interface RefusedRow {
  activityType: string; activityText: string; performedBy: string; recipients: string; idempotencyKey: string; effectOutcome: typeof EFFECT_OUTCOME.refused;
}

/**
 * The usual mark, in one statement: sent, with its audit row (and one for the addresses the server refused), while
 * the claim count is the one this attempt made. Answers false when another attempt claimed or marked it meanwhile:
 * the caller then marks it under a lock (`markUnderLock`), which reads the count it must report.
 */
const markSent = (m: {
  effectId: number; claims: number; recipients: string;
  email: { activityText: string; performedBy: string; idempotencyKey: string };
  refused: RefusedRow; anyRefused: boolean;
}) => sql<{ marked: boolean }>`
  with marked as (
    update request_effects set state = 'sent', sent_at = now(), recipients = ${m.recipients}, updated_at = now()
    where id = ${m.effectId} and state <> 'sent' and claims = ${m.claims}
    returning id, request_id
  ), email as (
    insert into request_activity (request_id, date, activity_type, activity_text, performed_by, recipients, channel, idempotency_key, created_at, updated_at)
    select request_id, now(), ${EMAIL_ACTIVITY}, ${m.email.activityText}, ${m.email.performedBy}, ${m.recipients}, 'Email', ${m.email.idempotencyKey}, now(), now() from marked
  ), refused as (
    insert into request_activity (request_id, date, activity_type, activity_text, performed_by, recipients, channel, idempotency_key, effect_id, effect_outcome, created_at, updated_at)
    select request_id, now(), ${m.refused.activityType}, ${m.refused.activityText}, ${m.refused.performedBy}, ${m.refused.recipients}, 'Email',
      ${m.refused.idempotencyKey}, id, ${m.refused.effectOutcome}, now(), now() from marked where ${m.anyRefused}::boolean
  )
  select exists(select 1 from marked) as marked`;

/**
 * The effect's letter first, then (approval emails only) the documents an administrator flagged "attach to the
 * approval email" (not letters generated earlier: those have a key, and the email carries its own). One query.
 */
async function attachmentsOf(em: EntityManager, effect: Pick<EffectToSend, 'letterDocumentId' | 'kind' | 'requestId'>): Promise<Document[]> {
  const letter = effect.letterDocumentId ? [{ id: effect.letterDocumentId }] : [];
  const flagged = effect.kind === 'letter-and-email' ? [{ isAttachment: true, legacyId: null, idempotencyKey: null }] : [];
  if (!letter.length && !flagged.length) return [];
  const found = await em.find(DocumentSchema, { requestId: effect.requestId, $or: [...letter, ...flagged] }, { orderBy: { id: 'asc' } });
  return [...found.filter((d) => d.id === effect.letterDocumentId), ...found.filter((d) => d.id !== effect.letterDocumentId)];
}

/**
 * Sends the effect's email, rendered from its snapshot, with the effect's letter (if any) attached: to each
 * recipient in a message of its own, carrying that recipient's reply address and the request's thread ids
 * (request-email-headers.ts).
 *
 * Claimed before the SMTP call, marked sent after it. A retry that finds a claim without a mark cannot know
 * whether the mail server got the first attempt (the worker may have died between the server's answer and the
 * mark): it sends again with the same Message-ID and the audit row says "sent (possibly twice)" (or "3 times": the
 * effect counts its claims). That window is
 * the only way an email can arrive twice (docs/REQUEST-FLOW.md "Effects").
 */
export function sendEffectEmailActivity(deps: { orm: Orm; mailer: Mailer; files: DocumentFiles; config: AppConfig }) {
  return async function sendEffectEmail(input: EffectKeyInput): Promise<SendEffectEmailResult> {
    // An earlier attempt that the mail server answered, but that could not write its mark (PostgreSQL away), left
    // the answer in its heartbeat: the email was delivered, so it is marked sent, never sent again.
    const delivered = deliveredEarlier();
    try {
      return await sendOnce(input, delivered);
    } catch (error) {
      if (delivered && delivered.sent === undefined && !(error instanceof ApplicationFailure && error.nonRetryable)) throw new DeliveredNotMarked(error);
      throw error;
    }
  };

  async function sendOnce(input: EffectKeyInput, delivered: Delivery | null): Promise<SendEffectEmailResult> {
    const em = deps.orm.em.fork();
    const { rows: [effect] } = await effectToSend(input.key).execute(kysely(em));
    if (!effect) throw ApplicationFailure.nonRetryable(`No effect ${input.key}`, 'NotFound');
    const messageId = messageIdOf(input.key, deps.config);
    if (effect.state === 'sent') {
      return { messageId, recipients: (effect.recipients ?? '').split(', '), possiblyTwice: false, alreadySent: true };
    }
    const { snapshot } = effect;
    const invalid = snapshot.recipients.filter((address) => !isEmailAddress(address));
    if (invalid.length) throw ApplicationFailure.nonRetryable(`"${invalid.join('", "')}" is not a valid email address`, 'InvalidAddress');
    if (!snapshot.recipients.length) throw ApplicationFailure.nonRetryable('The request names no recipient', 'InvalidAddress');
    if (effect.subject === null || effect.body === null) throw ApplicationFailure.nonRetryable(`No email template "${effect.templateTitle}"`, 'NotFound');
    const subject = compiled(effect.subject)(snapshot.variables);
    const text = compiled(effect.body)(snapshot.variables);
    const documents = await attachmentsOf(em, effect);
    if (effect.kind === 'letter-and-email' && documents[0]?.id !== effect.letterDocumentId) {
      throw ApplicationFailure.nonRetryable('The letter of this email is missing', 'NotFound');
    }

    /**
     * One message per recipient (each carries the reply address issued to that recipient, domain/reply-address.ts),
     * in the snapshot's order, skipping those `progress` says were served or refused. A recipient the server refuses
     * for good is noted (the others still get theirs); a temporary failure leaves the others going and then fails
     * the attempt, whose heartbeat says who is served, so the retry sends to the rest only. Answers the refused.
     */
    async function sendToEach(progress: Delivery): Promise<string[]> {
      const sent = [...(progress.sent ?? [])];
      const refusedNow = [...progress.refused];
      let temporary: Error | null = null;
      let permanent: SmtpError | null = null;
      for (const [index, recipient] of snapshot.recipients.entries()) {
        if (sent.includes(recipient) || refusedNow.includes(recipient)) continue;
        try {
          const info = await withHeartbeat(() => deps.mailer.sendMail({
            from: deps.config.mailFrom,
            to: recipient,
            subject,
            text,
            messageId: messageIdOf(input.key, deps.config, index),
            ...requestEmailHeaders(deps.config, { requestNumber: effect.requestNumber, templateTitle: effect.templateTitle, recipient }),
            attachments: documents.map((d) => ({ filename: d.name, contentType: d.mimeType, path: deps.files.pathOf(d.storedName) })),
          }));
          if ((info.rejected ?? []).length) refusedNow.push(recipient);
          else sent.push(recipient);
        } catch (error) {
          const smtp = error as SmtpError;
          const failure = classify(smtp);
          if (refusesRecipient(smtp)) {
            refusedNow.push(recipient);
            permanent ??= smtp;
          } else if (failure instanceof ApplicationFailure && failure.nonRetryable) {
            // The server refuses the message itself (its size, its content): no recipient will take it.
            rememberDelivery({ refused: refusedNow, sent });
            throw failure;
          } else {
            temporary ??= failure;
          }
        }
        rememberDelivery({ refused: refusedNow, sent });
      }
      if (temporary) throw temporary;
      if (!sent.length) throw classify(permanent ?? Object.assign(new Error('The mail server refused every recipient'), { responseCode: 550 }));
      return refusedNow;
    }

    let refused: string[];
    /** the claims this attempt counted (null: it made none, an earlier attempt delivered it) */
    let claims: number | null = null;
    if (deliveredToAll(delivered, snapshot.recipients)) {
      refused = delivered.refused;
    } else if (delivered) {
      // An earlier attempt served some recipients and said so: the others only, under its claim.
      refused = await sendToEach(delivered);
    } else {
      // The claim is durable before the SMTP call, and atomic: one UPDATE counts it (rows claimed before the count
      // existed held one) and only while the email is unsent. Two attempts running at once (an old run's activity
      // still alive beside a new run's) both count, so the one that marks it sent says "possibly twice"; an attempt
      // that comes after the mark sends nothing.
      const { rows: claimed } = await sql<{ claims: number }>`
        update request_effects set claimed_at = coalesce(claimed_at, now()), message_id = ${messageId}, recipients = ${snapshot.recipients.join(', ')},
                claims = greatest(claims, case when claimed_at is null then 0 else 1 end) + 1
          where id = ${effect.id} and state <> 'sent' returning claims`.execute(kysely(em));
      if (!claimed.length) return { messageId, recipients: snapshot.recipients, possiblyTwice: false, alreadySent: true };
      claims = claimed[0].claims;
      refused = await sendToEach({ refused: [], sent: [] });
    }
    const accepted = snapshot.recipients.filter((r) => !refused.includes(r));

    const refusedRow = (): RefusedRow => ({
      activityType: EMAIL_FAILED_ACTIVITY, activityText: emailFailedAuditText(effect.templateTitle, `the mail server refused ${refused.join(', ')}`),
      performedBy: AUTOMATED_EMAIL_ACTOR, recipients: refused.join(', '), idempotencyKey: `${input.key}:refused`, effectOutcome: EFFECT_OUTCOME.refused,
    });
    // The usual case: this attempt's claim is the last one, marked with its rows in one statement.
    const markAsClaimed = async () => {
      if (claims === null) return false;
      const { rows: [row] } = await markSent({
        effectId: effect.id, claims, recipients: accepted.join(', '),
        email: { activityText: automatedEmailAuditText(effect.templateTitle) + possiblyRepeatedSuffix(claims), performedBy: AUTOMATED_EMAIL_ACTOR, idempotencyKey: `${input.key}:email` },
        refused: refusedRow(), anyRefused: refused.length > 0,
      }).execute(kysely(em));
      if (row.marked) possiblyTwice = claims >= 2;
      return row.marked;
    };
    let possiblyTwice = false;
    await markedUntilStored(async () => (await markAsClaimed()) || em.transactional(async (tx) => {
      // How many attempts handed it to the mail server, read under a lock as it is marked: each may have delivered it.
      const marked = await tx.findOneOrFail(RequestEffectSchema, effect.id, { refresh: true, lockMode: LockMode.PESSIMISTIC_WRITE });
      if (marked.state === 'sent') return; // an attempt running beside this one marked it (and said how often it went)
      possiblyTwice = marked.claims >= 2;
      tx.assign(marked, { state: 'sent', sentAt: new Date(), recipients: accepted.join(', ') });
      tx.create(RequestActivitySchema, {
        requestId: effect.requestId, date: new Date(), activityType: EMAIL_ACTIVITY,
        activityText: automatedEmailAuditText(effect.templateTitle) + possiblyRepeatedSuffix(marked.claims),
        performedBy: AUTOMATED_EMAIL_ACTOR, recipients: accepted.join(', '), channel: 'Email', idempotencyKey: `${input.key}:email`,
      });
      if (refused.length) {
        const { activityType, activityText, performedBy, recipients, idempotencyKey, effectOutcome } = refusedRow();
        tx.create(RequestActivitySchema, {
          requestId: effect.requestId, date: new Date(), activityType, activityText, performedBy, recipients, channel: 'Email',
          idempotencyKey, effectId: effect.id, effectOutcome,
        });
      }
    }), { refused });
    return { messageId, recipients: accepted, possiblyTwice, alreadySent: false };
  }
}

/** After the last attempt: the effect is failed and the audit trail says why; the administrator can send it again. */
export function recordEffectFailureActivity(deps: { orm: Orm }) {
  return async function recordEffectFailure(input: { key: string; reason: string }): Promise<void> {
    await deps.orm.em.fork().transactional(async (em) => {
      const effect = await em.findOne(RequestEffectSchema, { idempotencyKey: input.key });
      if (!effect || effect.state !== 'pending') return;
      em.assign(effect, { state: 'failed', failedAt: new Date(), failure: input.reason });
      // A letter regenerated without an email: no email failed, nothing to send again; the trail says what happened.
      if (effect.kind === 'letter') {
        em.create(RequestActivitySchema, {
          requestId: effect.requestId, date: new Date(), activityType: DOCUMENT_ACTIVITY,
          activityText: documentAuditText.regenerationFailed(input.reason.startsWith(LETTER_FAILED_PREFIX) ? input.reason.slice(LETTER_FAILED_PREFIX.length) : input.reason),
          performedBy: LETTER_AUTHOR, recipients: null, channel: 'Portal', idempotencyKey: `${input.key}:failed`,
        });
        return;
      }
      em.create(RequestActivitySchema, {
        requestId: effect.requestId, date: new Date(), activityType: EMAIL_FAILED_ACTIVITY,
        activityText: emailFailedAuditText(effect.templateTitle, input.reason),
        performedBy: AUTOMATED_EMAIL_ACTOR, recipients: (effect.snapshot as unknown as RequestSnapshot).recipients?.join(', ') ?? null,
        channel: 'Email', idempotencyKey: `${input.key}:failed`, effectId: effect.id, effectOutcome: EFFECT_OUTCOME.failed,
      });
    });
  };
}
