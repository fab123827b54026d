/** Change password (PATCH users/{id}/password) and password-reset (spec 2 §7.9) payloads. */
import { Type } from 'typebox';
import { TEXT_MAX } from '../domain';
import { SessionUserRecord } from './session-user.schema';

const Password = Type.String({ maxLength: TEXT_MAX });

export const ChangePasswordBody = Type.Object({
  currentPassword: Password,
  password: Password,
  confirmPassword: Type.Optional(Password),
});

/** The new token (a password change ends every earlier session, this one included) and the refreshed user. */
export const ChangePasswordResult = Type.Object({ accessToken: Type.String(), user: SessionUserRecord });

export const ForgotPasswordBody = Type.Object({ email: Type.String({ minLength: 1, maxLength: TEXT_MAX }) });
export const ForgotPasswordResult = Type.Object({ email: Type.String() });

export const ResetTokenParams = Type.Object({ id: Type.String({ maxLength: 200 }) });
export const ResetTokenValidity = Type.Object({ id: Type.String(), isValid: Type.Boolean() });
export const ResetPasswordBody = Type.Object({ password: Password, confirmPassword: Type.Optional(Password) });
export const ResetPasswordResult = Type.Object({ isValid: Type.Boolean() });
