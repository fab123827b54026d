/** Discussions (spec 2 §7.8): messages in threads on a request. Limits come from domain/. */
import { Type, type Static } from 'typebox';
import { DISCUSSION_TOPIC_MAX, MESSAGE_MAX } from '../domain';
import { Id, Nullable, NullableTimestamp, Timestamp } from './primitives';

export const CreateDiscussionBody = Type.Object({
  requestId: Id,
  topic: Type.Optional(Nullable(Type.String({ maxLength: DISCUSSION_TOPIC_MAX, description: 'required on a new thread; a reply takes its thread\'s' }))),
  message: Type.String({ maxLength: MESSAGE_MAX }),
  discussionId: Type.Optional(Nullable(Type.String({ maxLength: 32, description: 'the thread id to reply in; omitted for a new topic' }))),
  sender: Type.Optional(Type.String({ description: 'ignored: the author is the signed-in user' })),
  senderEmail: Type.Optional(Type.String({ description: 'ignored: the author is the signed-in user' })),
}, { additionalProperties: false });
export type CreateDiscussionBody = Static<typeof CreateDiscussionBody>;

export const PatchDiscussionBody = Type.Object({
  deletedAt: Type.String({ format: 'date-time' }),
}, { additionalProperties: false });
export type PatchDiscussionBody = Static<typeof PatchDiscussionBody>;

export const DiscussionRecord = Type.Object({
  id: Id,
  createdAt: Timestamp,
  requestId: Id,
  discussionId: Type.String({ description: 'thread id: random uppercase, kept on replies' }),
  sender: Type.String(),
  senderEmail: Type.String(),
  fromAdmin: Type.Boolean(),
  topic: Type.String(),
  message: Type.String(),
  deletedAt: Type.Optional(NullableTimestamp),
  byEmail: Type.Optional(Type.Boolean({ description: 'arrived as a reply by email (its new text only)' })),
});
export type DiscussionRecord = Static<typeof DiscussionRecord>;
