import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser, requirePasswordChangeUser, signSessionToken } from '../plugins/auth';
import { forbidden } from '../errors';
import { errorResponses } from '../../contract/error.schema';
import {
  ChangePasswordBody, ChangePasswordResult, ForgotPasswordBody, ForgotPasswordResult, ResetPasswordBody, ResetPasswordResult,
  ResetTokenParams, ResetTokenValidity,
} from '../../contract/password.schema';
import { IdParams } from '../../contract/primitives';
import { changePassword, isResetTokenValid, requestPasswordReset, resetPassword } from '../../services/accounts/passwords';
import { recordRequestSecurityEvent } from '../security-events';
import { toSessionUser } from '../sessions/session-user';

/**
 * Change password (the one call, with log out and re-authentication, that a user held to the password page may
 * make) and `password-reset` (spec 2 §7.9): POST forgot-password, GET token validity, PATCH the new password.
 */
const passwordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.patch('/users/:id/password', {
    onRequest: requirePasswordChangeUser,
    schema: {
      tags: ['users'], summary: 'Change the signed-in external user\'s password', params: IdParams, body: ChangePasswordBody,
      response: { 200: ChangePasswordResult, ...errorResponses(400, 401, 403, 429, 503) },
    },
  }, async (request) => {
    const me = currentUser(request);
    if (me.id !== request.params.id || !me.isExternal) throw forbidden('Only an external user changes their own password');
    const user = await changePassword(request.em, me.id, request.body);
    await recordRequestSecurityEvent(request, { kind: 'passwordChanged', email: user.email });
    return { accessToken: await signSessionToken(app, user), user: await toSessionUser(request.em, user, app.config) };
  });

  const limited = { rateLimit: { max: 10, timeWindow: '1 minute', keyGenerator: (request: { ip: string }) => `reset|${request.ip}` } };

  app.post('/password-reset', {
    config: limited,
    schema: {
      tags: ['users'], summary: 'Forgot password: emails a reset link if the address belongs to an external user',
      description: 'The answer never says whether the address was found.', security: [], body: ForgotPasswordBody,
      response: { 201: ForgotPasswordResult, ...errorResponses(400, 429, 503) },
    },
  }, async (request, reply) => {
    await requestPasswordReset(request.em, app.temporal, app.config, request.body.email);
    // Logged whether or not the address belongs to anyone: a flood of requests for strangers' addresses shows.
    await recordRequestSecurityEvent(request, { kind: 'passwordResetRequested', email: request.body.email.trim() });
    return reply.code(201).send({ email: request.body.email.trim() });
  });

  app.get('/password-reset/:id', {
    config: limited,
    schema: {
      tags: ['users'], summary: 'Whether a reset token is valid', security: [], params: ResetTokenParams,
      response: { 200: ResetTokenValidity, ...errorResponses(429) },
    },
  }, async (request) => ({ id: request.params.id, isValid: await isResetTokenValid(request.em, request.params.id) }));

  app.patch('/password-reset/:id', {
    config: limited,
    schema: {
      tags: ['users'], summary: 'Set a new password with a reset token (single use)', security: [], params: ResetTokenParams,
      body: ResetPasswordBody, response: { 200: ResetPasswordResult, ...errorResponses(400, 429) },
    },
  }, async (request) => {
    const user = await resetPassword(request.em, request.params.id, request.body);
    await recordRequestSecurityEvent(request, { kind: 'passwordReset', userId: user.id, email: user.email });
    return { isValid: false };
  });
};

export default passwordRoutes;
