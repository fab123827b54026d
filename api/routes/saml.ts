import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { signSessionToken } from '../plugins/auth';
import { SamlMessageStore } from '../auth/saml/saml-message-store';
import { SAML_PATHS, ServiceProvider, SsoRefused } from '../auth/saml/service-provider';
import { signInWithSso } from '../services/sso-sign-in';

/** Largest SAMLResponse form we read: assertions are a few kilobytes; certificates and attributes fit well within. */
const ACS_BODY_LIMIT = 256 * 1024;

/**
 * University single sign-on (spec 2 §7.2), browser endpoints outside /api/v1 (not in the API description):
 *   GET  /saml/{product}/login     → redirect to the IdP with an AuthnRequest
 *   POST /saml/{product}/acs       ← the IdP's answer (HTTP-POST binding) → /login#access_token=<token>
 *                                     or /login#error=<code> (domain/single-sign-on.ts SSO_ERRORS)
 *   GET  /saml/{product}/metadata  our SP metadata (entity id, consumer URL, signed assertions wanted)
 * The token travels in the URL hash: it never reaches a server log or a Referer; the login page signs in with it.
 */
const samlRoutes: FastifyPluginAsync = async (app) => {
  const sp = new ServiceProvider(app.config, new SamlMessageStore(app.orm));
  if (!sp.configured) app.log.warn('single sign-on is not configured (SAML_IDP_METADATA_URL, or SAML_IDP_ENTRY_POINT and SAML_IDP_CERT)');

  // The IdP posts a form; only this plugin's routes read that content type.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));

  const refuse = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    if (!(error instanceof SsoRefused)) throw error;
    request.log.warn({ sso: error.code, detail: error.detail }, 'single sign-on refused');
    return reply.header('cache-control', 'no-store').redirect(`/login#error=${error.code}`, 303);
  };

  app.get(SAML_PATHS.login, { schema: { hide: true } }, async (request, reply) => {
    try {
      return reply.header('cache-control', 'no-store').redirect(await sp.loginUrl(), 302);
    } catch (error) {
      return refuse(request, reply, error);
    }
  });

  app.post<{ Body: { SAMLResponse?: string; RelayState?: string } }>(SAML_PATHS.acs, { schema: { hide: true } }, async (request, reply) => {
    try {
      const identity = await sp.consume(typeof request.body?.SAMLResponse === 'string' ? request.body.SAMLResponse : undefined);
      const user = await signInWithSso(request.em, identity);
      const token = await signSessionToken(app, user);
      return reply.header('cache-control', 'no-store').redirect(`/login#access_token=${encodeURIComponent(token)}`, 303);
    } catch (error) {
      return refuse(request, reply, error);
    }
  });

  app.get(SAML_PATHS.metadata, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/samlmetadata+xml').send(sp.metadata()));
};

export default samlRoutes;
