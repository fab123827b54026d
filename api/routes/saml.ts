import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { signSessionToken } from '../plugins/auth';
import { bindingCookie, boundRequestId, clearBindingCookie, completionTicket, handoffMark, readCompletionTicket } from '../auth/saml/browser-binding';
import { SamlMessageStore } from '../auth/saml/saml-message-store';
import { SAML_PATHS, ServiceProvider, SsoRefused } from '../auth/saml/service-provider';
import { recordSingleSignOnRefused } from '../../services/desk/security-log';
import { signInWithSso } from '../sessions/sso-sign-in';
import { kysely } from '../../db/kysely';

/** Largest SAMLResponse form we read: assertions are a few kilobytes; certificates and attributes fit well within. */
const ACS_BODY_LIMIT = 256 * 1024;

/**
 * University single sign-on (spec 2 §7.2), browser endpoints outside /api/v1 (not in the API description):
 *   GET  /saml/{product}/login     → redirect to the IdP with an AuthnRequest; the browser gets the binding cookie
 *   POST /saml/{product}/acs       ← the IdP's answer (HTTP-POST binding) → /login#access_token=<token>
 *                                     or /login#error=<code> (domain/single-sign-on.ts SSO_ERRORS); when the
 *                                     cross-site POST carried no cookie: → /saml/{product}/complete?ticket=…
 *   GET  /saml/{product}/complete  checks the binding cookie against the ticket, then as above
 *   GET  /saml/{product}/metadata  our SP metadata (entity id, consumer URL, signed assertions wanted)
 * The token travels in the URL hash: it never reaches a server log or a Referer; the login page signs in with it.
 * The answer must come back to the browser that started the sign-in (against login CSRF): browser-binding.ts.
 */
const samlRoutes: FastifyPluginAsync = async (app) => {
  const sp = new ServiceProvider(app.config, new SamlMessageStore(app.orm));
  if (!sp.configured) app.log.warn('single sign-on is not configured (SAML_IDP_METADATA_URL, or SAML_IDP_ENTRY_POINT and SAML_IDP_CERT)');
  const secure = app.config.publicUrl.startsWith('https:');
  const key = app.config.jwtSecret;

  // The IdP posts a form; only this plugin's routes read that content type.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));

  const refuse = async (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    if (!(error instanceof SsoRefused)) throw error;
    request.log.warn({ sso: error.code, detail: error.detail }, 'single sign-on refused');
    await recordSingleSignOnRefused(request.em, { ip: request.ip, code: error.code, detail: error.detail }).catch(() => undefined);
    return reply.header('cache-control', 'no-store').redirect(`/login#error=${error.code}`, 303);
  };

  /** The browser that started this sign-in proved itself: its session token, the binding cookie spent. */
  const finish = async (request: FastifyRequest, reply: FastifyReply, user: { id: number; sessionVersion: number }) => {
    const token = await signSessionToken(app, user);
    const handoff = handoffMark(secure);
    return reply.header('cache-control', 'no-store').header('set-cookie', [clearBindingCookie(secure), handoff.cookie])
      .redirect(`/login#access_token=${encodeURIComponent(token)}&handoff=${handoff.mark}`, 303);
  };

  app.get(SAML_PATHS.login, { schema: { hide: true } }, async (request, reply) => {
    try {
      const { url, requestId } = await sp.loginUrl();
      return reply.header('cache-control', 'no-store').header('set-cookie', bindingCookie(key, requestId, secure)).redirect(url, 302);
    } catch (error) {
      return refuse(request, reply, error);
    }
  });

  app.post<{ Body: { SAMLResponse?: string; RelayState?: string } }>(SAML_PATHS.acs, { schema: { hide: true } }, async (request, reply) => {
    try {
      const { identity, inResponseTo } = await sp.consume(typeof request.body?.SAMLResponse === 'string' ? request.body.SAMLResponse : undefined);
      const bound = boundRequestId(key, request.headers.cookie);
      if (bound !== null && bound !== inResponseTo) throw new SsoRefused('otherBrowser', `answer to ${inResponseTo}, browser started ${bound}`);
      const user = await signInWithSso(request.em, identity, request.ip);
      if (bound === inResponseTo) return await finish(request, reply, user);
      const ticket = completionTicket(key, user.id, inResponseTo);
      return reply.header('cache-control', 'no-store').redirect(`${SAML_PATHS.complete}?ticket=${encodeURIComponent(ticket)}`, 303);
    } catch (error) {
      return refuse(request, reply, error);
    }
  });

  app.get<{ Querystring: { ticket?: string } }>(SAML_PATHS.complete, { schema: { hide: true } }, async (request, reply) => {
    try {
      const claims = readCompletionTicket(key, String(request.query.ticket ?? ''));
      if (!claims) throw new SsoRefused('expired', 'no valid ticket');
      const bound = boundRequestId(key, request.headers.cookie);
      if (bound !== claims.requestId) throw new SsoRefused('otherBrowser', `answer to ${claims.requestId}, browser started ${bound ?? 'nothing'}`);
      const user = await kysely(request.em).selectFrom('users').select(['id', 'session_version', 'deleted_at'])
        .where('id', '=', claims.userId).executeTakeFirst();
      if (!user || user.deleted_at) throw new SsoRefused('inactiveUser', `user ${claims.userId} is gone or deactivated`);
      return await finish(request, reply, { id: user.id, sessionVersion: user.session_version });
    } catch (error) {
      return refuse(request, reply, error);
    }
  });

  app.get(SAML_PATHS.metadata, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/samlmetadata+xml').send(sp.metadata()));
};

export default samlRoutes;
