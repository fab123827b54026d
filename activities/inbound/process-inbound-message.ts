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
import { WithStartWorkflowOperation } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { simpleParser, type AddressObject, type Attachment, type ParsedMail } from 'mailparser';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AppConfig } from '../../config/app-config';
import { isIssuedTo, verifyReplyToken } from '../../config/reply-token';
import { pooled } from '../../db/kysely';
import { reserveAmount } from '../../db/rate-limits';
import { senderMessagesInLastHour, senderMessagesTurn, withTurn } from '../../db/turns';
import type { Orm } from '../../db/orm';
import {
  AdminSchema, DiscussionSchema, DocumentSchema, InboundMessageSchema, RequestActivitySchema, RequestSchema, UserSchema,
  type Discussion, type InboundMessage, type Request,
} from '../../db/entities';
import {
  accountDisplayName, answersRefusal, automatedMailReason, DISCUSSION_TOPIC_MAX, emailedMessageBody, DOCUMENT_ACTIVITY, documentAuditText,
  discussionsOpen, INBOUND_ATTACHMENTS_MAX, MESSAGE_MAX, QUOTAS, stripReplyPrefixes, threadIdFrom, tooManyAttachmentsNote,
  UPLOAD_SLOT_TTL_MS, type InboundRefusal, type RequestStatus,
} from '../../domain';
import { discussionRowOfMessageId, parseReplyAddress } from '../../domain/reply-address';
import { DocumentFiles } from '../../storage/document-files';
import { sniffUploadBytes } from '../../storage/file-sniffing';
import type { InboundMailActivities, InboundProcessResult } from '../../workflows/inbound-mail-activities.types';
import { discussionPostedUpdate, REQUEST_WORKFLOW_TYPE } from '../../workflows/request.messages';
import { requestStartOptions } from '../../workflows/request-start';
import type { ReplyTextReader } from '../mail/reply-text-reader';
import { senderName } from '../effects/request-email-headers';

type Deps = { orm: Orm; files: DocumentFiles; config: AppConfig; replies: ReplyTextReader };

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
  // HTML-only mail is left to the reply-text rule (activities/mail/reply-text.ts), which makes it text safely.
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

/** Temporal refused the update for the workflow's in-flight limit (RESOURCE_EXHAUSTED): retried soon. */
function isBusy(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === 8 || e.code === 4 || /RESOURCE_EXHAUSTED|DEADLINE_EXCEEDED|in-flight|too many/i.test(e.message ?? '')) return true;
  }
  return false;
}

/** Who a reply is from: the name shown, the address, whether the office, and the account (null: none known). */
interface Sender { name: string; email: string; admin: boolean; userId: number | null }

type Verdict = { refusal: InboundRefusal; request?: Request } | { refusal?: undefined; request: Request; sender: Sender };

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
  return { request, sender: { name, email: from, admin: administrator, userId: account?.id ?? null } };
}

async function decide(em: EntityManager, row: InboundMessage, state: 'refused' | 'ignored' | 'posted', outcome: string, extra: Partial<InboundMessage> = {}) {
  em.assign(row, { state, outcome, processedAt: new Date(), ...extra });
  await em.flush();
}

/** The name a new document of the request may take: the file's own, else with " (2)", " (3)" … before its extension. */
const uniqueName = async (em: EntityManager, requestId: number, wanted: string): Promise<string> => {
  // eslint-disable-next-line no-control-regex -- control characters are what a file name must not keep
  const base = wanted.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').trim().slice(0, 180) || 'attachment';
  const taken = new Set((await em.find(DocumentSchema, { requestId }, { fields: ['name'] })).map((d) => d.name));
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : base.replace(/(\.[^.]*)?$/, (ext) => ` (${n})${ext ?? ''}`);
    if (!taken.has(name)) return name;
  }
};

/**
 * One attachment as a document, under the upload rules: the size limit, the type sniffed from the bytes, the
 * sender's daily upload quota (the account's, or for a sender without one the address's; administrators are not
 * counted). Keyed by (message, attachment): a retry finds it. Answers a note for the message when the attachment
 * was not taken.
 */
async function keepAttachment(deps: Deps, em: EntityManager, row: InboundMessage, request: Request, index: number, attachment: Attachment, sender: Sender): Promise<string | null> {
  const key = `inbound:${row.id}:${index}`;
  if (await em.count(DocumentSchema, { inboundKey: key })) return null;
  const filename = attachment.filename || `attachment-${index + 1}`;
  const bytes = new Uint8Array(attachment.content);
  if (bytes.byteLength === 0) return null;
  if (bytes.byteLength > deps.config.uploadMaxBytes) return `${filename} was not added: it is larger than the upload limit.`;
  const sniffed = await sniffUploadBytes(bytes);
  if (!sniffed) return `${filename} was not added: this file type is not accepted.`;
  // Administrators' uploads are not counted against a quota.
  const user = sender.admin || sender.userId === null ? null : { id: sender.userId };
  const slotId = randomUUID();
  if (user) {
    const { rows } = await sql<{ refusal: string | null }>`
      select "refusal" from reserve_upload_slot(${slotId}, ${user.id}, ${bytes.byteLength}, ${deps.config.quotas.uploadBytesPerDay},
        ${QUOTAS.uploadBytesPerDay.windowMs}, ${1_000_000}, ${UPLOAD_SLOT_TTL_MS})`.execute(pooled(em));
    if (rows[0]?.refusal) return `${filename} was not added: the daily upload quota is used up.`;
  } else if (!sender.admin) {
    // A sender without an account (a recipient the request names) has the same daily bytes, counted by address.
    const window = { max: deps.config.quotas.uploadBytesPerDay, windowMs: QUOTAS.uploadBytesPerDay.windowMs };
    if (!(await reserveAmount(em, `inbound-upload-bytes|${sender.email.toLowerCase()}`, bytes.byteLength, window))) {
      return `${filename} was not added: the daily upload quota is used up.`;
    }
  }
  const storedName = `r${request.id}-${DocumentFiles.newStoredName(`x.${sniffed.extension}`)}`;
  await deps.files.write(storedName, bytes);
  await em.transactional(async (tx) => {
    if (user) {
      // On the pool, committed at once: the bytes just written have their register row whatever the documents' fate.
      await sql`with freed as (delete from "upload_slots" where "id" = ${slotId})
        insert into "uploads" ("stored_name", "user_id", "request_id", "size") values (${storedName}, ${user.id}, ${request.id}, ${bytes.byteLength})`
        .execute(pooled(tx));
    }
    const name = await uniqueName(tx, request.id, filename);
    tx.create(DocumentSchema, {
      requestId: request.id, name, description: 'Attached to a reply by email', storedName, mimeType: sniffed.mimeType,
      size: bytes.byteLength, isAttachment: false, uploadedBy: sender.name, uploadedByUserId: sender.userId, addedByAdmin: sender.admin, legacyId: null, idempotencyKey: null, inboundKey: key,
    });
    tx.create(RequestActivitySchema, {
      requestId: request.id, date: new Date(), activityType: DOCUMENT_ACTIVITY, activityText: `${documentAuditText.added(name, false)} from a reply by email`,
      performedBy: sender.name, performedByUserId: sender.userId, recipients: null, channel: 'Email', idempotencyKey: `${key}:added`,
    });
  });
  return null;
}

/**
 * The thread a reply joins: the thread of the discussion message it answers (the portal's email about that message is
 * named in its In-Reply-To or References), else the thread an earlier answer by email with the same subject started
 * (answers to one status email), else a new one named after its subject (after Re:/Fwd:).
 */
async function threadOf(em: EntityManager, deps: Deps, request: Request, mail: ParsedMail): Promise<{ discussionId: string; topic: string }> {
  const named = [mail.inReplyTo ?? '', ...[mail.references ?? []].flat().reverse()].flatMap((ids) => ids.split(/\s+/)).filter(Boolean);
  for (const messageId of named) {
    const rowId = discussionRowOfMessageId(messageId, deps.config.reply.messageIdDomain);
    const answered = rowId ? await em.findOne(DiscussionSchema, { id: rowId, requestId: request.id }) : null;
    if (answered) return { discussionId: answered.discussionId, topic: answered.topic };
  }
  const topic = (stripReplyPrefixes(mail.subject ?? '') || 'Reply by email').slice(0, DISCUSSION_TOPIC_MAX);
  const earlier = await em.findOne(DiscussionSchema, { requestId: request.id, topic, byEmail: true }, { orderBy: { id: 'asc' } });
  return earlier ? { discussionId: earlier.discussionId, topic } : { discussionId: threadIdFrom(randomBytes(32)), topic };
}

/**
 * The reply's attachments as documents (at most INBOUND_ATTACHMENTS_MAX; the rest are noted as not added) and its
 * message as a discussion row, or why it is not posted.
 */
async function keepReply(
  deps: Deps, em: EntityManager, row: InboundMessage, request: Request, mail: ParsedMail, text: string, sender: Sender,
): Promise<{ refusal: 'empty' } | { discussion: Discussion }> {
  const attachments = mail.attachments.filter((a) => !(a.related && a.contentDisposition === 'inline'));
  const taken = attachments.slice(0, INBOUND_ATTACHMENTS_MAX);
  const notes: string[] = [];
  for (const [index, attachment] of taken.entries()) {
    const note = await keepAttachment(deps, em, row, request, index, attachment, sender);
    if (note) notes.push(note);
  }
  const added = taken.length - notes.length;
  if (attachments.length > taken.length) notes.push(tooManyAttachmentsNote(attachments.length - taken.length));
  if (!text && added <= 0) return { refusal: 'empty' };
  const body = emailedMessageBody(text, added, notes, MESSAGE_MAX);
  const thread = await threadOf(em, deps, request, mail);
  const discussion = em.create(DiscussionSchema, {
    requestId: request.id, discussionId: thread.discussionId, topic: thread.topic, message: body,
    sender: sender.name, senderEmail: sender.email, senderUserId: sender.userId, fromAdmin: sender.admin, deletedAt: null, byEmail: true, inboundMessageId: row.id,
  });
  await em.flush();
  return { discussion };
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
      if (verdict.refusal) return refuse(verdict.refusal, verdict.request);
      const { request, sender } = verdict;
      if (row.outcome === 'too-large') return refuse('too-large', request);
      let discussion: Discussion | null = await em.findOne(DiscussionSchema, { inboundMessageId: row.id });
      if (!discussion) {
        // Read on a thread of its own, bounded: markup no library can read within the bounds is the message's fault.
        const reading = await deps.replies.read({ text: mail.text || null, html: mail.html || null });
        if ('unreadable' in reading) {
          Context.current().log.warn('reply by email unreadable', { inboundMessageId: row.id, reason: reading.unreadable });
          return refuse('unreadable', request);
        }
        // The messages-an-hour quota holds for replies by email as for posts on the portal (administrators are not
        // counted; each reply posted also notifies the office by email): the sender's turn is held while the reply's
        // count is taken and its attachments and message are kept, so a burst of emails processed at once gets
        // exactly the places left, and nothing of a refused one is kept.
        const kept = sender.admin
          ? await em.transactional((tx) => keepReply(deps, tx, row, request, mail, reading.text, sender))
          : await withTurn(em, senderMessagesTurn(from), async (tx) => {
            if ((await senderMessagesInLastHour(tx, from)) >= deps.config.quotas.messagesPerHour) return { refusal: 'too-many' as const };
            return keepReply(deps, tx, row, request, mail, reading.text, sender);
          });
        if ('refusal' in kept) return refuse(kept.refusal, request);
        discussion = kept.discussion;
        em.assign(row, { requestId: request.id });
        await em.flush();
      }
      // The request workflow takes it from here (update id per message: a retry is the same update).
      const { client, info } = Context.current();
      try {
        // Within a deadline: a workflow at Temporal's limit of updates in flight is retried by Temporal's activity
        // retry (seconds) rather than waited for inside this attempt until its timeout.
        await client.connection.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () => client.workflow.executeUpdateWithStart(discussionPostedUpdate, {
          args: [{ discussionRowId: discussion.id, actor: { name: discussion.sender, email: discussion.senderEmail, userId: discussion.senderUserId ?? undefined } }],
          updateId: `discussion:${request.requestNumber}:${discussion.id}`,
          startWorkflowOperation: new WithStartWorkflowOperation(
            REQUEST_WORKFLOW_TYPE, requestStartOptions({ ...request, requestNumber: request.requestNumber! }, info.taskQueue)),
        }));
      } catch (error) {
        // Temporal takes a few updates in flight per workflow: a burst of replies to one request waits its turn.
        if (isBusy(error)) throw ApplicationFailure.retryable(`request ${request.requestNumber} is busy with other updates`, 'RequestWorkflowBusy');
        throw error;
      }
      await decide(em, row, 'posted', 'posted', { discussionId: discussion.id });
    }
    return { outcome: 'posted', answerOwed: false };
  };
}
