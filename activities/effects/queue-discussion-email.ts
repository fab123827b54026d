import { ApplicationFailure } from '@temporalio/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { RequestActivitySchema, RequestEffectSchema, RequestSchema } from '../../db/entities';
import { messageToEmail } from '../../services/discussions/discussions';
import { discussionAuditText, discussionEmailKey, discussionRecipients, DISCUSSION_ACTIVITY, EMAIL_TEMPLATE_TITLES } from '../../domain';
import type { QueueDiscussionEmailInput, QueueDiscussionEmailResult } from '../../workflows/request-activities.types';
import { takeSnapshot } from './request-snapshot';

/**
 * A message posted on the request: in one transaction, the `Request Discussion` effect (to the other side,
 * domain/email-recipients.ts) and the audit row. Both are keyed by the message: a second delivery of the same
 * message (a repeated update, a retried activity, a later run) returns the row already there and writes nothing.
 */
export function queueDiscussionEmailActivity(deps: { orm: Orm; config: AppConfig }) {
  return async function queueDiscussionEmail(input: QueueDiscussionEmailInput): Promise<QueueDiscussionEmailResult> {
    const key = discussionEmailKey(input.discussionRowId);
    const templateTitle = EMAIL_TEMPLATE_TITLES.requestDiscussion;
    return deps.orm.em.fork().transactional(async (em) => {
      const existing = await em.findOne(RequestEffectSchema, { idempotencyKey: key });
      if (existing) return { effect: { key, kind: existing.kind, templateTitle }, state: existing.state };
      const message = await messageToEmail(em as EntityManager, input.requestId, input.discussionRowId);
      // The API gave up on this post and removed it before the workflow got to it: nothing to send.
      if (!message) return { effect: null, state: 'none' as const };
      const request = await em.findOne(RequestSchema, input.requestId);
      if (!request) throw ApplicationFailure.nonRetryable(`Request ${input.requestId} does not exist`, 'NotFound');
      const snapshot = await takeSnapshot(em, request, { at: new Date().toISOString(), publicUrl: deps.config.publicUrl, timeZone: deps.config.clockPolicy.calendar.timeZone, withLetter: false });
      snapshot.recipients = discussionRecipients(request, message.fromAdmin, deps.config.riskManagementEmail);
      em.create(RequestEffectSchema, {
        idempotencyKey: key, requestId: request.id, kind: 'email', templateTitle, retryOf: null, letterDocumentId: null,
        snapshot: snapshot,
      });
      em.create(RequestActivitySchema, {
        requestId: request.id, date: new Date(), activityType: DISCUSSION_ACTIVITY,
        activityText: `${discussionAuditText(message.topic, message.fromAdmin)}${message.byEmail ? ' by email' : ''}`,
        performedBy: message.sender, performedByUserId: message.senderUserId ?? null, recipients: null, channel: message.byEmail ? 'Email' : 'Portal', idempotencyKey: `${key}:posted`,
      });
      return { effect: { key, kind: 'email' as const, templateTitle }, state: 'pending' as const };
    });
  };
}
