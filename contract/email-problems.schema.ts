/** `GET api/v1/email-problems`: emails and letters that did not go out. Administrators only. */
import { Type, type Static } from 'typebox';
import { REQUEST_TYPE } from '../domain';
import { Nullable, StringEnum } from './primitives';

export const EmailProblemsQuery = Type.Object({
  $limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 200, default: 50, description: '0: the total only' })),
  $skip: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
}, { additionalProperties: false });
export type EmailProblemsQuery = Static<typeof EmailProblemsQuery>;

export const EmailProblem = Type.Object({
  effectId: Type.Integer(),
  requestId: Type.Integer(),
  requestNumber: Nullable(Type.Integer()),
  requestType: StringEnum(Object.values(REQUEST_TYPE)),
  state: StringEnum(['failed', 'delayed'] as const, { description: 'failed: given up (Send again); delayed: still being retried' }),
  stateLabel: Type.String(),
  subject: Type.String({ description: 'the email template, or "Letter (no email)"' }),
  templateTitle: Type.String(),
  recipients: Type.String(),
  reason: Nullable(Type.String({ description: 'why it failed, or the last attempt\'s error while it is retried' })),
  since: Type.String({ format: 'date-time', description: 'failed: when it failed; delayed: when it was queued' }),
  retryOf: Nullable(Type.Integer({ description: 'the "Email Failed" audit entry to pass as `retryOf` to POST /send-email; null when it cannot be sent again' })),
});

export const EmailProblemsPage = Type.Object({
  total: Type.Integer({ minimum: 0 }), limit: Type.Integer({ minimum: 0 }), skip: Type.Integer({ minimum: 0 }), data: Type.Array(EmailProblem),
});
export type EmailProblemsPage = Static<typeof EmailProblemsPage>;
