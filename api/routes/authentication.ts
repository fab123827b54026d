import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UserSchema } from '../../db/entities';
import { MESSAGES } from '../../domain';
import { badRequest, notAuthenticated } from '../errors';
import { knowsAccount, knownDeviceCookie, readKnownDevice } from '../auth/known-device';
import { currentUser, requirePasswordChangeUser, signSessionToken, checkSessionToken } from '../plugins/auth';
import { AuthenticationBody, AuthenticationResult, LogoutResult } from '../../contract/authentication.schema';
import { errorResponses } from '../../contract/error.schema';
import { sessionFromToken, toSessionUser } from '../sessions/session-user';
import { signInWithPassword } from '../sessions/sign-in';
import { refuseToken } from '../sessions/reauthentication';

const tags = ['authentication'];

/** `api/v1/authentication` (spec 2 §7.2): local and jwt strategies; DELETE logs out. */
const authenticationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/authentication', {
      schema: {
        tags, summary: 'Sign in (local) or re-authenticate (jwt)', security: [], body: AuthenticationBody,
        response: { 200: AuthenticationResult, ...errorResponses(400, 401, 429, 503) },
      },
      // Per client address and email: 20 sign-in calls a minute (counted in PostgreSQL). services/sign-in.ts counts
      // failed attempts per account, per address and per known browser (domain/abuse-limits.ts). None locks an
      // account: every window passes on its own, and a full address window asks for a solved check (401,
      // data.reason 'checkRequired') instead of refusing.
      // A jwt re-authentication (every page change and page load) is not counted here: a token the portal signed
      // costs one statement, like any signed-in call, and tokens it never signed are counted per address by
      // services/reauthentication.ts, so a busy administrator is never refused for load.
      config: {
        rateLimit: {
          max: 20,
          timeWindow: '1 minute',
          allowList: (request: { body?: unknown }) => (request.body as { strategy?: string } | undefined)?.strategy === 'jwt',
          keyGenerator: (request: { ip: string; body?: unknown }) =>
            `${request.ip}|${String((request.body as { email?: string } | undefined)?.email ?? '').trim().toLowerCase()}`,
        },
      },
    }, async (request, reply) => {
      const { strategy } = request.body;
      if (strategy === 'local') {
        const serverKey = app.config.jwtSecret;
        const device = readKnownDevice(serverKey, request.headers.cookie);
        const knownDeviceId = device && knowsAccount(serverKey, device, request.body.email ?? '') ? device.id : null;
        const user = await signInWithPassword(request.em, request.body.email, request.body.password, { ip: request.ip, knownDeviceId },
          { solution: request.body.altcha, serverSecret: serverKey });
        const accessToken = await signSessionToken(app, user);
        reply.header('set-cookie', knownDeviceCookie(serverKey, device, user.email, app.config.publicUrl.startsWith('https:')));
        return { accessToken, authentication: { strategy: 'local', accessToken }, user: await toSessionUser(request.em, user, app.config) };
      }
      if (strategy === 'jwt') {
        const accessToken = request.body.accessToken;
        if (!accessToken) throw notAuthenticated(MESSAGES.noAccessToken);
        const checked = checkSessionToken(app, accessToken);
        if ('refused' in checked) return refuseToken(request.em, request.ip, checked.refused);
        const user = await sessionFromToken(request.em, checked.claims, app.config);
        return { accessToken, authentication: { strategy: 'jwt', accessToken }, user };
      }
      throw badRequest('unknown strategy');
    });

  // Logout ends the token for real: the user's session version rises, so this token (and any other of the user's
  // earlier tokens) is refused from the next call on.
  app.delete('/authentication', {
    onRequest: requirePasswordChangeUser,
    schema: { tags, summary: 'Log out (ends every token of the user)', response: { 200: LogoutResult, ...errorResponses(401) } },
  }, async (request) => {
    const user = await request.em.findOneOrFail(UserSchema, { id: currentUser(request).id });
    user.sessionVersion += 1;
    await request.em.flush();
    return { accessToken: null };
  });
};

export default authenticationRoutes;
