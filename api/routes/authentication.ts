import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UserSchema } from '../../db/entities';
import { MESSAGES } from '../../domain';
import { verifyPassword } from '../auth/password-hash';
import { badRequest, notAuthenticated } from '../errors';
import { authenticate } from '../plugins/auth';
import { AuthenticationBody, AuthenticationResult, LogoutResult } from '../schemas/authentication.schema';
import { errorResponses } from '../schemas/error.schema';
import { loadSessionUser, toSessionUser } from '../services/session-user';

const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

const tags = ['authentication'];

/** `api/v1/authentication` (spec 2 §7.2): local and jwt strategies; DELETE logs out. */
const authenticationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/authentication', {
      schema: {
        tags, summary: 'Sign in (local) or re-authenticate (jwt)', security: [], body: AuthenticationBody,
        response: { 200: AuthenticationResult, ...errorResponses(400, 401, 429) },
      },
      // Password guessing: 20 sign-in attempts a minute per client address and email.
      config: {
        rateLimit: {
          max: 20,
          timeWindow: '1 minute',
          keyGenerator: (request: { ip: string; body?: unknown }) =>
            `${request.ip}|${String((request.body as { email?: string } | undefined)?.email ?? '').toLowerCase()}`,
        },
      },
    }, async (request) => {
      const { strategy } = request.body;
      if (strategy === 'local') {
        const email = request.body.email?.trim().toLowerCase();
        const password = request.body.password ?? '';
        if (!email || !password) throw notAuthenticated(MESSAGES.loginFailed);
        const user = await request.em.findOne(UserSchema, { email }, { populate: ['passwordHash'] });
        // Same work whether or not the email exists, so timing does not reveal registered addresses.
        const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
        if (!user || !ok) throw notAuthenticated(MESSAGES.loginFailed);
        if (user.deletedAt) throw notAuthenticated(MESSAGES.inactiveUser, { reason: 'inactiveUser' });
        user.lastLogin = new Date();
        await request.em.flush();
        const accessToken = await app.jwt.sign({ sub: user.id });
        return { accessToken, authentication: { strategy: 'local', accessToken }, user: await toSessionUser(request.em, user) };
      }
      if (strategy === 'jwt') {
        const accessToken = request.body.accessToken;
        if (!accessToken) throw notAuthenticated(MESSAGES.noAccessToken);
        let sub: number;
        try {
          sub = Number(app.jwt.verify<{ sub: number }>(accessToken).sub);
        } catch {
          throw notAuthenticated(MESSAGES.sessionExpired, { reason: 'authFail' });
        }
        const user = await loadSessionUser(request.em, sub);
        if (!user) throw notAuthenticated(MESSAGES.inactiveUser, { reason: 'inactiveUser' });
        return { accessToken, authentication: { strategy: 'jwt', accessToken }, user };
      }
      throw badRequest('unknown strategy');
    });

  // Tokens are stateless; logging out forgets the token in the browser. The call still requires a valid token.
  app.delete('/authentication', {
    schema: { tags, summary: 'Log out', response: { 200: LogoutResult, ...errorResponses(401) } },
  }, async (request) => {
    await authenticate(request);
    return { accessToken: null };
  });
};

export default authenticationRoutes;
