/** `POST /send-email` (spec 2 §7.9): an administrator sends a template email for a request. */
import { Type, type Static } from 'typebox';
import { ALL_EMAIL_TEMPLATE_TITLES } from '../domain';
import { Id, StringEnum } from './primitives';

export const SendEmailBody = Type.Object({
  requestId: Id,
  // The twelve of the spec and the clocks' templates (a failed reminder can be sent again).
  templateTitle: StringEnum(ALL_EMAIL_TEMPLATE_TITLES),
  recipients: Type.Optional(Type.String({
    maxLength: 1000,
    description: 'additional recipients (split on spaces, semicolons and commas); the requester always comes first. '
      + "Omitted: the request's own recipients.",
  })),
  retryOf: Type.Optional(Type.Integer({
    minimum: 1, description: 'id of an "email failed" request-activity entry (one with effectId) to send again',
  })),
}, { additionalProperties: false });
export type SendEmailBody = Static<typeof SendEmailBody>;

export const SendEmailAccepted = Type.Object({
  queued: Type.Literal(true),
  templateTitle: Type.String(),
});
export type SendEmailAccepted = Static<typeof SendEmailAccepted>;
