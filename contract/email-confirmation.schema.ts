/** Email confirmation links: ask for a link again, check one, use one. */
import { Type } from 'typebox';
import { Nullable } from './primitives';

export const ConfirmationTokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
export const ConfirmationLinkSent = Type.Object({ email: Type.String() });
/** The account a valid link would give its address to, so whoever opens it knows what they confirm. */
export const ConfirmationAccount = Type.Object({
  /** the address the link proves */
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  company: Nullable(Type.String()),
  /** when the account registered */
  registeredAt: Type.String({ format: 'date-time' }),
  /** the address would replace the account's current one (an email change), rather than confirm it */
  isChange: Type.Boolean(),
});
export const ConfirmationValidity = Type.Object({ isValid: Type.Boolean(), account: Type.Optional(ConfirmationAccount) });
export const EmailConfirmed = Type.Object({ email: Type.String(), confirmed: Type.Boolean() });
