/** Email confirmation links (issue #16): ask for a link again, check one, use one. */
import { Type } from 'typebox';

export const ConfirmationTokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
export const ConfirmationLinkSent = Type.Object({ email: Type.String() });
export const ConfirmationValidity = Type.Object({ isValid: Type.Boolean() });
export const EmailConfirmed = Type.Object({ email: Type.String(), confirmed: Type.Boolean() });
