/**
 * Discussions (spec 2 §7.8), whatever door a message comes by (the portal, a reply by email): the message is kept
 * within its sender's quota, then handed to the request's workflow as an update whose id derives from the message;
 * the workflow emails the other side and writes the audit row.
 */
import { writeWithinQuota } from '../limits/quotas';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DiscussionSchema, RequestActivitySchema, type Discussion } from '../../db/entities';
import {
  DISCUSSION_ACTIVITY, discussionDeletedAuditText, discussionErrors, discussionsOpen, DISCUSSIONS_CLOSED_MESSAGE, threadIdFrom,
  type RequestStatus, type UserQuotas,
} from '../../domain';
import { forbidden, invalid, notFound } from '../refusals';
import type { CreateDiscussionBody, DiscussionRecord, PatchDiscussionBody } from '../../contract/discussion.schema';
import type { SessionUser } from '../../contract/session-user.schema';
import type { CommandContext } from '../context';
import { findVisibleRequest } from '../requests/request-access';
import { requestRecordById } from '../requests/record-by-id';
import { postDiscussion, type RequestStartRow, type WorkflowAccess } from '../requests/request-workflow-client';
import { displayNameOf } from '../accounts/actors';

export const recordOf = (d: Discussion): DiscussionRecord => ({
  id: d.id, createdAt: d.createdAt, requestId: d.requestId, discussionId: d.discussionId, sender: d.sender,
  senderEmail: d.senderEmail, fromAdmin: d.fromAdmin, topic: d.topic, message: d.message, deletedAt: d.deletedAt ?? null,
  byEmail: d.byEmail,
});

/** `GET discussions/:id`: one message of a request the caller may see (a deleted one is not shown). */
export async function discussionById(em: EntityManager, user: SessionUser, id: number): Promise<DiscussionRecord> {
  return recordOf(await requestRecordById(em, user, DiscussionSchema, id, { deletedAt: null }));
}

/** The message `rowId` of the request as its email tells of it; null when it is gone or deleted (nothing to send). */
export async function messageToEmail(em: EntityManager, requestId: number, rowId: number): Promise<Discussion | null> {
  const message = await em.findOne(DiscussionSchema, { id: rowId, requestId });
  return message && !message.deletedAt ? message : null;
}

/** The messages of a request shown on its pages, oldest first; deleted ones are kept in the table but not shown. */
export async function discussionsOf(em: EntityManager, requestId: number): Promise<DiscussionRecord[]> {
  const rows = await em.find(DiscussionSchema, { requestId, deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return rows.map(recordOf);
}

/** Who posts a message: the name shown, the address, the account (null: none known), whether as the office. */
export interface Poster { name: string; email: string; userId: number | null; isAdmin: boolean }

/** A signed-in user as a message's poster. */
export const posterOf = (user: SessionUser): Poster => ({ name: displayNameOf(user), email: user.email, userId: user.id, isAdmin: user.isAdmin });

/** A thread of a request: its id (random uppercase, new on a new topic, kept on a reply) and its topic. */
export interface Thread { discussionId: string; topic: string }

export const newThread = (topic: string): Thread => ({ discussionId: threadIdFrom(randomBytes(32)), topic });

/** The thread `discussionId` of the request, or null when the request has no such thread. */
export async function threadOf(em: EntityManager, requestId: number, discussionId: string): Promise<Thread | null> {
  const first = await em.findOne(DiscussionSchema, { requestId, discussionId }, { orderBy: { id: 'asc' } });
  return first ? { discussionId, topic: first.topic } : null;
}

/** The thread of the request's message `messageRowId` (the message an answer by email names), or null. */
export async function threadOfMessage(em: EntityManager, requestId: number, messageRowId: number): Promise<Thread | null> {
  const answered = await em.findOne(DiscussionSchema, { id: messageRowId, requestId });
  return answered ? { discussionId: answered.discussionId, topic: answered.topic } : null;
}

/** The thread an earlier message by email on `topic` started on the request (answers to one status email), or null. */
export async function emailedThreadOn(em: EntityManager, requestId: number, topic: string): Promise<Thread | null> {
  const earlier = await em.findOne(DiscussionSchema, { requestId, topic, byEmail: true }, { orderBy: { id: 'asc' } });
  return earlier ? { discussionId: earlier.discussionId, topic } : null;
}

/** The message a received email already became (a retried processing finds it), or null. */
export const messageOfEmail = (em: EntityManager, inboundMessageId: number): Promise<Discussion | null> =>
  em.findOne(DiscussionSchema, { inboundMessageId });

/**
 * Keeps a message, whatever door it came by, within its sender's messages-an-hour quota (services/limits/quotas.ts:
 * the count and the row in one transaction under the sender's turn, by address, one count for every way of posting;
 * administrators are not counted). `compose` runs first inside that transaction, for what else the message brings
 * (an email's attachments), and gives the text; null keeps nothing. A refusal over the quota is `over-quota`.
 */
export async function keepMessage(
  em: EntityManager, quotas: UserQuotas, request: { id: number }, poster: Poster, thread: Thread,
  compose: (tx: EntityManager) => Promise<string | null>, origin: { byEmail: boolean; inboundMessageId?: number } = { byEmail: false },
): Promise<Discussion | null> {
  const holder = { id: poster.userId, email: poster.email, isAdmin: poster.isAdmin };
  return writeWithinQuota(em, holder, quotas, 'messagesPerHour', async (tx) => {
    const text = await compose(tx);
    if (text === null) return null;
    const created = tx.create(DiscussionSchema, {
      requestId: request.id, discussionId: thread.discussionId, topic: thread.topic, message: text,
      sender: poster.name, senderEmail: poster.email, senderUserId: poster.userId, fromAdmin: poster.isAdmin, deletedAt: null,
      byEmail: origin.byEmail, inboundMessageId: origin.inboundMessageId ?? null,
    });
    await tx.flush();
    return created;
  });
}

/** Hands a kept message to its request's workflow, which emails the other side and writes the audit row. */
export function handToWorkflow(workflows: WorkflowAccess, request: RequestStartRow, message: Discussion): Promise<{ queued: boolean }> {
  return postDiscussion(workflows, request, message.id, { name: message.sender, email: message.senderEmail, userId: message.senderUserId ?? undefined });
}

/** `POST discussions` (spec 2 §7.8): a new topic, or a reply on a thread of the request. */
export async function createDiscussion(ctx: CommandContext, body: CreateDiscussionBody): Promise<DiscussionRecord> {
  const request = await findVisibleRequest(ctx.em, ctx.user, body.requestId);
  if (!discussionsOpen(request.status as RequestStatus)) throw forbidden(DISCUSSIONS_CLOSED_MESSAGE);
  const errors = discussionErrors(body);
  if (Object.keys(errors).length) throw invalid('Please correct the highlighted fields', errors);
  const thread = body.discussionId ? await threadOf(ctx.em, request.id, body.discussionId) : newThread((body.topic ?? '').trim());
  if (!thread) throw invalid('Unknown discussion', { discussionId: 'Unknown discussion' });
  const row = (await keepMessage(ctx.em, ctx.quotas, request, posterOf(ctx.user), thread, async () => body.message.trim()))!;
  try {
    await handToWorkflow(ctx.workflows, { ...request, requestNumber: request.requestNumber! }, row);
  } catch (error) {
    // Not posted: the sender keeps the text and tries again. Should the workflow still get this update later, it
    // finds no message and sends nothing (activities/effects/queue-discussion-email.ts).
    await ctx.em.nativeDelete(DiscussionSchema, { id: row.id });
    throw error;
  }
  return recordOf(row);
}

/** `PATCH discussions/:id` with deletedAt: administrators only; the row stays, with an audit entry. */
export async function deleteDiscussion(em: EntityManager, user: SessionUser, id: number, body: PatchDiscussionBody): Promise<DiscussionRecord> {
  if (!user.isAdmin) throw forbidden('Only administrators may delete a message');
  const row = await em.findOne(DiscussionSchema, id);
  if (!row) throw notFound(`No record found for id '${id}'`);
  if (!row.deletedAt) {
    em.assign(row, { deletedAt: new Date(body.deletedAt) });
    em.create(RequestActivitySchema, {
      requestId: row.requestId, date: new Date(), activityType: DISCUSSION_ACTIVITY, activityText: discussionDeletedAuditText(row.topic),
      performedBy: displayNameOf(user), performedByUserId: user.id, recipients: null, channel: 'Portal',
    });
    await em.flush();
  }
  return recordOf(row);
}
