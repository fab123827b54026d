/** Registration of an external requester (POST users, spec 1 §5, spec 2 §8.3) and the captcha challenge. */
import { Type, type Static, type TSchema } from 'typebox';

const Text = Type.String({ maxLength: 300 });
export const RegistrationBody = Type.Object({
  lastName: Text,
  firstName: Text,
  middleInitial: Type.Optional(Text),
  company: Text,
  phone: Text,
  email: Text,
  password: Text,
  altcha: Type.Optional(Type.String({ maxLength: 4096, description: 'the solved ALTCHA payload (base64)' })),
});
export type RegistrationBody = Static<typeof RegistrationBody>;

/** `email`: the challenge is a sign-in's, at the level a sign-in of that email from the caller's address needs now. */
export const CaptchaChallengeQuery = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 200, description: "a sign-in's check for this email (else registration's)" })),
});
export type CaptchaChallengeQuery = Static<typeof CaptchaChallengeQuery>;

export const CaptchaChallenge = Type.Unsafe<Record<string, unknown>>({
  type: 'object', additionalProperties: true, description: 'An ALTCHA v2 challenge: parameters and signature',
} as TSchema);
