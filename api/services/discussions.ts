/**
 * Discussions (spec 2 §7.8): the message is stored, then handed to the request's workflow as an update
 * whose id derives from the message; the workflow emails the other side and writes the audit row.
 */
import { writeWithinQuota } from './quotas';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DiscussionSchema, RequestActivitySchema, type Discussion } from '../../db/entities';
import {
  DISCUSSION_ACTIVITY, discussionDeletedAuditText, discussionErrors, discussionsOpen, DISCUSSIONS_CLOSED_MESSAGE, threadIdFrom,
  type RequestStatus,
} from '../../domain';
import { badRequest, forbidden, notFound } from '../errors';
import type { CreateDiscussionBody, DiscussionRecord, PatchDiscussionBody } from '../../contract/discussion.schema';
import type { SessionUser } from '../../contract/session-user.schema';
import type { CommandContext } from './command-context';
import { findVisibleRequest } from './request-access';
import { postDiscussion } from './request-workflows';
import { displayNameOf } from './actors';

export const recordOf = (d: Discussion): DiscussionRecord => ({
  id: d.id, createdAt: d.createdAt, requestId: d.requestId, discussionId: d.discussionId, sender: d.sender,
  senderEmail: d.senderEmail, fromAdmin: d.fromAdmin, topic: d.topic, message: d.message, deletedAt: d.deletedAt ?? null,
  byEmail: d.byEmail,
});

/** The messages of a request shown on its pages, oldest first; deleted ones are kept in the table but not shown. */
export async function discussionsOf(em: EntityManager, requestId: number): Promise<DiscussionRecord[]> {
  const rows = await em.find(DiscussionSchema, { requestId, deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return rows.map(recordOf);
}

export async function createDiscussion(ctx: CommandContext, body: CreateDiscussionBody): Promise<DiscussionRecord> {
  const request = await findVisibleRequest(ctx.em, ctx.user, body.requestId);
  if (!discussionsOpen(request.status as RequestStatus)) throw forbidden(DISCUSSIONS_CLOSED_MESSAGE);
  const errors = discussionErrors(body);
  if (Object.keys(errors).length) throw badRequest('Please correct the highlighted fields', errors);
  let topic = (body.topic ?? '').trim();
  let threadId = body.discussionId ?? null;
  if (threadId) {
    const first = await ctx.em.findOne(DiscussionSchema, { requestId: request.id, discussionId: threadId }, { orderBy: { id: 'asc' } });
    if (!first) throw badRequest('Unknown discussion', { discussionId: 'Unknown discussion' });
    topic = first.topic;
  } else {
    threadId = threadIdFrom(randomBytes(32));
  }
  // The quota's count and the new message are one step: a burst of posts at the limit cannot all pass.
  const row = await writeWithinQuota(ctx.em, ctx.user, ctx.quotas, 'messagesPerHour', async (em) => {
    const created = em.create(DiscussionSchema, {
      requestId: request.id, discussionId: threadId, topic, message: body.message.trim(),
      sender: displayNameOf(ctx.user), senderEmail: ctx.user.email, senderUserId: ctx.user.id,
      fromAdmin: ctx.user.isAdmin, deletedAt: null,
    });
    await em.flush();
    return created;
  });
  try {
    await postDiscussion(ctx.workflows, {
      id: request.id, requestNumber: request.requestNumber!, requestType: request.requestType, certificateType: request.certificateType,
      status: request.status, version: request.version, lastCommandId: request.lastCommandId,
    }, row.id, { name: row.sender, email: row.senderEmail });
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
