/** `api/v1/authentication` payloads (spec 2 §7.2). */
import { Type } from 'typebox';
import { TEXT_MAX } from '../domain';
import { SessionUserRecord } from './session-user.schema';

/** A JWT is far below this; the bound keeps a hostile body from costing a large verify. */
const TOKEN_MAX = 4096;
/** A solved ALTCHA payload (base64 of the challenge and its solution) is well under 2 KB. */
const CHECK_MAX = 4096;

export const AuthenticationBody = Type.Object({
  strategy: Type.String({ description: "'local' (email and password) or 'jwt' (re-authentication with accessToken)" }),
  email: Type.Optional(Type.String({ maxLength: TEXT_MAX })),
  password: Type.Optional(Type.String({ maxLength: TEXT_MAX })),
  accessToken: Type.Optional(Type.String({ maxLength: TOKEN_MAX })),
  altcha: Type.Optional(Type.String({
    maxLength: CHECK_MAX,
    description: "local: a solved ALTCHA challenge (GET captcha-challenge?email=…), needed once the address's failed sign-ins fill their window or the account failed a few times (401 with data.reason 'checkRequired' and data.level)",
  })),
});

export const AuthenticationResult = Type.Object({
  accessToken: Type.String(),
  authentication: Type.Object({ strategy: Type.String(), accessToken: Type.String() }),
  user: SessionUserRecord,
});

export const LogoutResult = Type.Object({ accessToken: Type.Null() });
