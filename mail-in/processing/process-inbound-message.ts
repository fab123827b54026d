/**
 * Processing one received email (stored before it was accepted, table `inbound_messages`): automated mail is
 * ignored; a reply whose token, sender, request and the sender's messages-an-hour quota pass is posted to the
 * request's discussion (its new text only, its attachments as documents under the upload rules) and handed to the
 * request workflow's `discussionPosted` update like a message typed in the portal, so the usual email and audit row
 * follow; anything else is refused and the workflow answers the sender once (domain/inbound-mail.ts says which
 * refusals are answered).
 *
 * Who a reply is from is what the portal matched, never what the sender typed: the reply address's token names the
 * one address it was sent to, and only that address may use it (the office mailbox's address, also from an
 * administrator's own); the author shown is that address's account (or the address itself), and the office's name
 * only for an administrator answering through the office mailbox's address. Its thread is the one of the message it
 * answers (In-Reply-To).
 *
 * Idempotent at every step, for a worker killed anywhere: the discussion row is unique per received message, each
 * document per (message, attachment), the update id per discussion row, and a decided row answers its decision.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { AdminSchema, InboundMessageSchema, RequestSchema, UserSchema, type Discussion, type InboundMessage, type Request } from '../../db/entities';
import {
  accountDisplayName, answersRefusal, automatedMailReason, DISCUSSION_TOPIC_MAX, emailedMessageBody, discussionsOpen, INBOUND_ATTACHMENTS_MAX,
  MESSAGE_MAX, stripReplyPrefixes, tooManyAttachmentsNote, type InboundRefusal, type RequestStatus,
} from '../../domain';
import { discussionRowOfMessageId, parseReplyAddress } from '../../domain/reply-address';
import type { DocumentFiles } from '../../storage/document-files';
import {
  emailedThreadOn, handToWorkflow, keepMessage, messageOfEmail, newThread, threadOfMessage, type Poster, type Thread,
} from '../../services/discussions/discussions';
import { addReceivedFile, type ReceivedFileRefusal } from '../../services/documents/received-files';
import { asApplicationFailure, Refusal } from '../../services/refusals';
import { answerRenewalByReply } from '../../services/renewals/answers';
import { kysely } from '../../db/kysely';
import { isIssuedTo, verifyReplyToken } from '../../services/reply-token';
import type { InboundMailActivities, InboundProcessResult } from '../../workflows/inbound-mail-activities.types';
import type { ReplyTextReader } from './reply-text-reader';
import { senderName } from '../../domain/reply-address';

type Deps = { orm: Orm; files: DocumentFiles; config: AppConfig; replies: ReplyTextReader };

/**
 * How long a posted reply waits for its request's workflow: a workflow at Temporal's limit of updates in flight (a
 * burst of replies to one request) is then asked again by Temporal's activity retry, seconds later.
 */
const UPDATE_DEADLINE_MS = 8_000;

const addressesOf = (list: AddressObject | AddressObject[] | undefined): Array<{ address: string; name: string }> =>
  (Array.isArray(list) ? list : list ? [list] : []).flatMap((o) => o.value)
    .flatMap((v) => (v.group ? v.group : [v])).filter((v) => !!v.address).map((v) => ({ address: v.address!.toLowerCase(), name: v.name ?? '' }));

const headerText = (mail: ParsedMail, name: string): string | null => {
  const value = mail.headers.get(name);
  if (value == null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && 'value' in value) return String((value as { value: unknown }).value);
  if (typeof value === 'object' && 'text' in value) return String((value as { text: unknown }).text);
  return String(value);
};

/** Parses the stored bytes of a received message (the whole message, or only its header for one too large). */
export async function parseStored(files: DocumentFiles, row: InboundMessage): Promise<ParsedMail | null> {
  if (!row.storedName) return null;
  // HTML-only mail is left to the reply-text rule (mail-in/processing/reply-text.ts), which makes it text safely.
  return simpleParser(await files.readAll(row.storedName), { skipImageLinks: true, skipTextLinks: true, skipHtmlToText: true });
}

/** Whether `mail` is automated (never posted, never answered): domain/inbound-mail.ts decides. */
export function automatedReasonOf(mail: ParsedMail | null, row: Pick<InboundMessage, 'envelopeFrom'>): string | null {
  return automatedMailReason({
    autoSubmitted: mail ? headerText(mail, 'auto-submitted') : null,
    precedence: mail ? headerText(mail, 'precedence') : null,
    listId: mail ? headerText(mail, 'list-id') : null,
    returnPath: mail?.headers.has('return-path') ? (mail.headers.get('return-path') as AddressObject | undefined)?.text ?? '<>' : null,
    contentType: mail ? headerText(mail, 'content-type') : null,
    envelopeFrom: row.envelopeFrom,
  });
}

type Verdict = { refusal: InboundRefusal; request?: Request } | { refusal?: undefined; request: Request; sender: Poster };

/**
 * The account of a reply's sender: the requester's own when the address is theirs, else the one account of that
 * address (an office sender's is the internal one: administrators sign in through the university's sign-on); none
 * when no account, or more than one, has it.
 */
async function senderAccountOf(em: EntityManager, request: Request, address: string, admin: boolean) {
  const fields = ['id', 'email', 'firstName', 'lastName', 'deletedAt'] as const;
  const requester = await em.findOne(UserSchema, { id: request.requesterId }, { fields });
  if (requester?.email.toLowerCase() === address) return requester;
  const accounts = await em.find(UserSchema, admin ? { email: address, isExternal: false } : { email: address }, { fields, limit: 2 });
  return accounts.length === 1 ? accounts[0] : null;
}

/** The request a reply names and who may post there as whom, or why not. */
async function judge(em: EntityManager, deps: Deps, row: InboundMessage, mail: ParsedMail, from: string): Promise<Verdict> {
  const { local, domain, tokenKey, tokenMaxAgeDays } = deps.config.reply;
  if (!domain) return { refusal: 'bad-token' };
  const candidates = [
    ...row.envelopeTo.split(',').map((a) => a.trim()),
    ...addressesOf(mail.to).map((a) => a.address), ...addressesOf(mail.cc).map((a) => a.address),
    headerText(mail, 'delivered-to') ?? '',
  ];
  const token = candidates.map((a) => parseReplyAddress(a, local, domain)).find((t) => !!t);
  const claims = token ? verifyReplyToken(token, tokenKey, { maxAgeDays: tokenMaxAgeDays }) : null;
  if (!claims) return { refusal: 'bad-token' };
  const request = await em.findOne(RequestSchema, { requestNumber: claims.requestNumber });
  if (!request) return { refusal: 'bad-token' };
  if (claims.expired) return { refusal: 'expired', request };
  // The token names the one address it was sent to. The office mailbox's reply addresses also take an
  // administrator's own address (they answer the shared mailbox from their own), and speak as the office.
  const office = deps.config.riskManagementEmail.toLowerCase();
  const administrator = from === office || (await em.count(AdminSchema, { email: from })) > 0;
  const toSender = isIssuedTo(claims, from, tokenKey);
  const throughOffice = administrator && isIssuedTo(claims, office, tokenKey);
  if (!toSender && !throughOffice) return { refusal: 'unknown-sender', request };
  const account = await senderAccountOf(em, request, from, administrator);
  if (account?.deletedAt) return { refusal: 'inactive', request };
  if (!discussionsOpen(request.status as RequestStatus)) return { refusal: 'closed', request };
  const name = throughOffice && !toSender ? senderName(deps.config.mailFrom) : account ? accountDisplayName(account) : from;
  return { request, sender: { name, email: from, isAdmin: administrator, userId: account?.id ?? null } };
}

async function decide(em: EntityManager, row: InboundMessage, state: 'refused' | 'ignored' | 'posted', outcome: string, extra: Partial<InboundMessage> = {}) {
  em.assign(row, { state, outcome, processedAt: new Date(), ...extra });
  await em.flush();
}

/** What the sender of an email is told about an attachment that was not added. */
const ATTACHMENT_NOTES: Record<ReceivedFileRefusal, (filename: string) => string> = {
  'too-large': (filename) => `${filename} was not added: it is larger than the upload limit.`,
  type: (filename) => `${filename} was not added: this file type is not accepted.`,
  quota: (filename) => `${filename} was not added: the daily upload quota is used up.`,
};

/**
 * The thread a reply joins: the thread of the discussion message it answers (the portal's email about that message is
 * named in its In-Reply-To or References), else the thread an earlier answer by email with the same subject started
 * (answers to one status email), else a new one named after its subject (after Re:/Fwd:).
 */
async function threadOfReply(em: EntityManager, deps: Deps, request: Request, mail: ParsedMail): Promise<Thread> {
  const named = [mail.inReplyTo ?? '', ...[mail.references ?? []].flat().reverse()].flatMap((ids) => ids.split(/\s+/)).filter(Boolean);
  for (const messageId of named) {
    const rowId = discussionRowOfMessageId(messageId, deps.config.reply.messageIdDomain);
    const answered = rowId ? await threadOfMessage(em, request.id, rowId) : null;
    if (answered) return answered;
  }
  const topic = (stripReplyPrefixes(mail.subject ?? '') || 'Reply by email').slice(0, DISCUSSION_TOPIC_MAX);
  return (await emailedThreadOn(em, request.id, topic)) ?? newThread(topic);
}

/**
 * The reply's message, with its attachments as documents (at most INBOUND_ATTACHMENTS_MAX; the rest are noted as not
 * added), within the sender's messages-an-hour quota as a post on the portal (services/discussions/discussions.ts):
 * nothing of a refused one is kept. Null when it brings nothing (no new text, no attachment added).
 */
async function keepReply(deps: Deps, em: EntityManager, row: InboundMessage, request: Request, mail: ParsedMail, text: string, sender: Poster): Promise<Discussion | null> {
  const attachments = mail.attachments.filter((a) => !(a.related && a.contentDisposition === 'inline'));
  const taken = attachments.slice(0, INBOUND_ATTACHMENTS_MAX);
  const thread = await threadOfReply(em, deps, request, mail);
  return keepMessage(em, deps.config.quotas, request, sender, thread, async (tx) => {
    const notes: string[] = [];
    let added = 0;
    for (const [index, attachment] of taken.entries()) {
      const filename = attachment.filename || `attachment-${index + 1}`;
      const result = await addReceivedFile(deps, tx, request, {
        filename, bytes: new Uint8Array(attachment.content), key: `inbound:${row.id}:${index}`,
        description: 'Attached to a reply by email', auditSuffix: 'from a reply by email', channel: 'Email',
      }, sender);
      if ('refused' in result) notes.push(ATTACHMENT_NOTES[result.refused](filename));
      else added += 1;
    }
    if (attachments.length > taken.length) notes.push(tooManyAttachmentsNote(attachments.length - taken.length));
    if (!text && added <= 0) return null;
    return emailedMessageBody(text, added, notes, MESSAGE_MAX);
  }, { byEmail: true, inboundMessageId: row.id });
}

/**
 * A finished request takes no message, but its requester may answer the renewal question ("Do you still need this
 * certificate?") by replying yes or no (services/renewals/answers.ts): the answer is recorded, the reply kept as
 * decided, and nothing more is posted or answered.
 */
async function renewalAnswerOf(deps: Deps, request: Request, mail: ParsedMail, from: string): Promise<string | null> {
  const reading = await deps.replies.read({ text: mail.text || null, html: mail.html || null });
  if ('unreadable' in reading) return null;
  return answerRenewalByReply(kysely(deps.orm.em.fork()), Context.current().client, {
    requestId: request.id, requesterEmail: request.requesterEmail ?? null, senderEmail: from, senderName: from, text: reading.text,
  }, deps.config.clockPolicy.calendar.timeZone);
}

export function processInboundMessageActivity(deps: Deps): InboundMailActivities['processInboundMessage'] {
  return async function processInboundMessage({ inboundMessageId }): Promise<InboundProcessResult> {
    const em = deps.orm.em.fork() as EntityManager;
    const row = await em.findOne(InboundMessageSchema, inboundMessageId);
    if (!row) throw ApplicationFailure.nonRetryable(`No inbound message ${inboundMessageId}`, 'NotFound');
    if (row.state === 'refused') return { outcome: 'refused', answerOwed: !row.answerSentAt && answersRefusal(row.outcome as InboundRefusal) };
    if (row.state === 'ignored') return { outcome: 'ignored', answerOwed: false };
    const refuse = async (refusal: InboundRefusal, request?: Request): Promise<InboundProcessResult> => {
      await decide(em, row, 'refused', refusal, { requestId: request?.id ?? null });
      return { outcome: 'refused', answerOwed: answersRefusal(refusal) };
    };

    const mail = await parseStored(deps.files, row);
    const automated = automatedReasonOf(mail, row);
    if (automated) {
      await decide(em, row, 'ignored', `automated: ${automated}`);
      return { outcome: 'ignored', answerOwed: false };
    }
    if (!mail) return refuse('too-large');
    const from = addressesOf(mail.from)[0]?.address ?? (row.envelopeFrom ?? '').toLowerCase();
    if (row.state !== 'posted') {
      // Judged on the header alone first, so a message too large (only its header kept) is answered only where its
      // reply address and sender hold, and never in the words of a sender the address was not sent to.
      const verdict = await judge(em, deps, row, mail, from);
      if (verdict.refusal === 'closed' && verdict.request && row.outcome !== 'too-large') {
        const answered = await renewalAnswerOf(deps, verdict.request, mail, from);
        if (answered) {
          await decide(em, row, 'ignored', `renewal answer: ${answered}`, { requestId: verdict.request.id });
          return { outcome: 'ignored', answerOwed: false };
        }
      }
      if (verdict.refusal) return refuse(verdict.refusal, verdict.request);
      const { request, sender } = verdict;
      if (row.outcome === 'too-large') return refuse('too-large', request);
      let discussion = await messageOfEmail(em, row.id);
      if (!discussion) {
        // Read on a thread of its own, bounded: markup no library can read within the bounds is the message's fault.
        const reading = await deps.replies.read({ text: mail.text || null, html: mail.html || null });
        if ('unreadable' in reading) {
          Context.current().log.warn('reply by email unreadable', { inboundMessageId: row.id, reason: reading.unreadable });
          return refuse('unreadable', request);
        }
        try {
          discussion = await keepReply(deps, em, row, request, mail, reading.text, sender);
        } catch (error) {
          if (error instanceof Refusal && error.kind === 'over-quota') return refuse('too-many', request);
          throw error;
        }
        if (!discussion) return refuse('empty', request);
        em.assign(row, { requestId: request.id });
        await em.flush();
      }
      // The request workflow takes it from here (update id per message: a retry is the same update).
      const { client, info } = Context.current();
      try {
        await handToWorkflow({ temporal: client, taskQueue: info.taskQueue, answerTimeoutMs: UPDATE_DEADLINE_MS }, { ...request, requestNumber: request.requestNumber! }, discussion);
      } catch (error) {
        if (error instanceof Refusal) throw asApplicationFailure(error);
        throw error;
      }
      await decide(em, row, 'posted', 'posted', { discussionId: discussion.id });
    }
    return { outcome: 'posted', answerOwed: false };
  };
}
