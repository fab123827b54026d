import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../contract/error.schema';
import { ExternalUserRecord } from '../../contract/external-user.schema';
import { CaptchaChallenge, CaptchaChallengeQuery, RegistrationBody } from '../../contract/registration.schema';
import { newCaptchaChallenge, newSignInChallenge, redeemCaptcha } from '../sessions/captcha';
import { signInCheckLevelFor } from '../sessions/sign-in';
import { registerExternalUser } from '../../services/accounts/registration';

/** Open registration of external requesters (POST users) behind a self-hosted proof-of-work captcha. */
const registrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Per address: a hospital's staff share one, and once a machine there has filled the address's sign-in window each
  // of their sign-ins needs a challenge too; a challenge costs this server one HMAC and its solver the work.
  // With `email`: a sign-in's check, as much work as a sign-in of that email from this address needs now
  // (domain/abuse-limits.ts SIGN_IN_CHECK); the sign-in checks the level again when it redeems it.
  app.get('/captcha-challenge', {
    config: { rateLimit: { max: 300, timeWindow: '1 minute', keyGenerator: (request: { ip: string }) => `captcha|${request.ip}` } },
    schema: {
      tags: ['users'], summary: 'A new ALTCHA challenge (the registration form; with email, a sign-in that needs a check)', security: [],
      querystring: CaptchaChallengeQuery, response: { 200: CaptchaChallenge, ...errorResponses(429) },
    },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { email } = request.query;
    const challenge = email === undefined
      ? await newCaptchaChallenge(app.config.jwtSecret)
      : await newSignInChallenge(app.config.jwtSecret, Math.max(1, await signInCheckLevelFor(request.em, email, request.ip)));
    return { ...challenge } as Record<string, unknown>;
  });

  app.post('/users', {
    config: { rateLimit: { max: 10, timeWindow: '1 minute', keyGenerator: (request: { ip: string }) => `register|${request.ip}` } },
    schema: {
      tags: ['users'], summary: 'Register as an external requester (a solved captcha required)', security: [], body: RegistrationBody,
      response: { 201: ExternalUserRecord, ...errorResponses(400, 409, 429) },
    },
  }, async (request, reply) => reply.code(201).send(await registerExternalUser(
    { em: request.em, temporal: app.temporal, config: app.config, ip: request.ip }, request.body,
    (proof) => redeemCaptcha(request.em, app.config.jwtSecret, proof),
  )));
};

export default registrationRoutes;
