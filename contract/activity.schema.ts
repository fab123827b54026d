/** Audit trail entries (spec 2 §7.10). */
import { Type } from 'typebox';
import { Id, Nullable, Timestamp } from './primitives';

/** An audit entry. Not listed, so never sent: the workflow's idempotency key. */
export const ActivityRecord = Type.Object({
  id: Id,
  requestId: Id,
  date: Timestamp,
  activityType: Type.String(),
  activityText: Type.String(),
  performedBy: Type.String(),
  recipients: Type.Optional(Nullable(Type.String())),
  channel: Type.Optional(Nullable(Type.String())),
  effectId: Type.Optional(Nullable(Type.Integer({
    description: 'set on an "email failed" entry: that email can be sent again (POST /send-email with retryOf = this id)',
  }))),
  createdAt: Timestamp,
  updatedAt: Type.Optional(Timestamp),
});
