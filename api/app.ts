/**
 * The Fastify app as a plugin tree: external libraries, app decorators, the API description, then routes under
 * /api/v1. Every route declares its body, params, query and responses once as typebox schemas (contract/):
 * they give ajv its validation, the serializer its whitelist of response fields, TypeScript its types and
 * /api/docs its OpenAPI document. `server.ts` only listens; tests build the app and talk to it with `app.inject`.
 */
import Fastify, { type FastifyServerOptions } from 'fastify';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import ajvErrors from 'ajv-errors';
import type { Client } from '@temporalio/client';
import qs from 'qs';
import type { AppConfig } from '../config/app-config';
import type { Orm } from '../db/orm';
import type { DocumentFiles } from '../storage/document-files';
import './plugins/app-context';
import authPlugin from './plugins/auth';
import apiDocs from './plugins/api-docs';
import errorHandler from './plugins/error-handler';
import requestId, { requestIdOptions } from './plugins/request-id';
import securityHeaders from './plugins/security-headers';
import ormContext from './plugins/orm-context';
import staticUi from './plugins/static-ui';
import storableInput from './plugins/storable-input';
import untrustedForwardedFor from './plugins/untrusted-forwarded-for';
import { QS_OPTIONS } from './query/feathers-query';
import adminDashboardRoutes from './routes/admin-dashboard';
import reportRoutes from './routes/reports';
import adminRoutes from './routes/admins';
import authenticationRoutes from './routes/authentication';
import documentRoutes from './routes/documents';
import healthRoutes from './routes/health';
import passwordRoutes from './routes/passwords';
import emailConfirmationRoutes from './routes/email-confirmations';
import registrationRoutes from './routes/registration';
import peopleRoutes from './routes/people';
import securityLogRoutes from './routes/security-log';
import emailProblemsRoutes from './routes/email-problems';
import housekeeping from './plugins/housekeeping';
import { postgresRateLimitStore } from './plugins/rate-limit-store';
import eventRoutes from './routes/events';
import metricsPlugin from './plugins/metrics';
import requestEventsPlugin from './plugins/request-events';
import requestActivityRoutes from './routes/request-activity';
import requestRoutes from './routes/requests';
import samlRoutes from './routes/saml';
import discussionRoutes from './routes/discussions';
import sendEmailRoutes from './routes/send-email';
import generatePdfRoutes from './routes/generate-pdfs';
import issuedLetterRoutes from './routes/issued-letters';
import userRoutes from './routes/users';
import claimHistoryRoutes from './routes/claim-history';
import csStarsRoutes from './routes/cs-stars';
import rosterRoutes from './routes/rosters';
import emailTemplateRoutes from './routes/email-templates';
import exportRoutes from './routes/export-requests';
import faqRoutes from './routes/faqs';
import webhookRoutes from './routes/webhooks';
import policyRoutes from './routes/policies';
import searchRequestRoutes from './routes/search-requests';
import verificationRoutes from './routes/verification';
import instantCertificateRoutes from './routes/instant-certificates';
import renewalRoutes, { renewalAnswerRoutes } from './routes/renewals';
import apiKeyRoutes from './routes/api-keys';

/**
 * The CSP the UI runs under: scripts, styles, fonts and calls from this origin only; the ALTCHA widget's
 * proof-of-work runs in a worker made from a blob and may set inline styles; forms post to this origin only (the
 * identity provider's page posting its assertion to /saml/…/acs runs under the IdP's own policy); no framing.
 */
const contentSecurityPolicy = () => ({
  defaultSrc: ["'self'"],
  // 'unsafe-eval': the UI validates the certificate forms with ajv in the browser, which compiles its
  // schemas with new Function. No inline script is allowed. Precompiling those validators (ajv standalone) removes it.
  scriptSrc: ["'self'", "'unsafe-eval'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null, // the development portal is plain http on 127.0.0.1; production terminates TLS in front
});

interface AppDeps { config: AppConfig; orm: Orm; temporal: Client; files: DocumentFiles }

/**
 * The schema compilers, one pair per process rather than per app: the routes' schemas are the same objects for every
 * app a process builds (tests and benches build one per portal they start), so a second app reuses the ajv instance
 * and the validators and serializers the first compiled (a few hundred milliseconds of CPU per app). Compiled code
 * depends only on the schema and the shared schemas, which the caches are keyed by.
 */
const buildValidator = AjvCompiler();
const buildSerializerUncached = SerializerSelector();
const serializerFactories = new Map<string, (route: { schema: object }) => unknown>();
function buildSerializer(externalSchemas: unknown, options: unknown) {
  const key = JSON.stringify([externalSchemas, options]);
  let factory = serializerFactories.get(key);
  if (!factory) {
    const compile = buildSerializerUncached(externalSchemas as never, options as never) as (route: { schema: object }) => unknown;
    const compiled = new WeakMap<object, unknown>();
    factory = (route) => {
      if (!compiled.has(route.schema)) compiled.set(route.schema, compile(route));
      return compiled.get(route.schema);
    };
    serializerFactories.set(key, factory);
  }
  return factory;
}

export async function buildApp(deps: AppDeps, options: FastifyServerOptions = {}) {
  const app = Fastify({
    logger: options.logger ?? false,
    ...requestIdOptions(deps.config.trustProxy),
    bodyLimit: 1024 * 1024,
    trustProxy: deps.config.trustProxy as boolean | string[], // a number of hops works too (Fastify's docs); its types omit it
    routerOptions: { querystringParser: (text: string) => qs.parse(text, QS_OPTIONS) as Record<string, unknown> },
    // ajv-errors: a route schema may carry the spec's message for a field (`errorMessage`), e.g. person dates.
    ajv: { customOptions: { allErrors: true, removeAdditional: true, coerceTypes: true, useDefaults: true }, plugins: [ajvErrors as never] },
    schemaController: { compilersFactory: { buildValidator, buildSerializer: buildSerializer as never } },
    ...options,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('config', deps.config);
  app.decorate('orm', deps.orm);
  app.decorate('temporal', deps.temporal);
  app.decorate('files', deps.files);

  await app.register(errorHandler);
  await app.register(requestId); // x-request-id, and the id the Temporal calls carry into the workflows
  await app.register(untrustedForwardedFor); // warns when a proxy is not named in TRUST_PROXY
  await app.register(storableInput); // before the routes: it bounds their integers as they are added
  await app.register(securityHeaders, { contentSecurityPolicy: { directives: contentSecurityPolicy() } });
  // Registered before the routes; only routes that opt in (sign-in) are limited.
  // preHandler: the key includes the body's email. Counted in PostgreSQL, shared by every API process.
  await app.register(rateLimit, { global: false, hook: 'preHandler', store: postgresRateLimitStore(deps.orm) });
  await app.register(ormContext);
  await app.register(authPlugin);
  await app.register(multipart, {
    limits: { fileSize: deps.config.uploadMaxBytes, files: 1, fields: 10, fieldSize: 4096, parts: 12, headerPairs: 100 },
  });
  await app.register(requestEventsPlugin);
  await app.register(metricsPlugin); // counts every request; served on METRICS_PORT by api/server.ts
  await app.register(housekeeping);
  await app.register(apiDocs); // before the routes: it collects them as they are added
  await app.register(async (api) => {
    await api.register(healthRoutes);
    await api.register(authenticationRoutes);
    await api.register(requestRoutes);
    await api.register(adminDashboardRoutes);
    await api.register(documentRoutes);
    await api.register(requestActivityRoutes);
    await api.register(sendEmailRoutes);
    await api.register(generatePdfRoutes);
    await api.register(issuedLetterRoutes); // verification codes and revocation
    await api.register(discussionRoutes);
    await api.register(passwordRoutes);
    await api.register(emailConfirmationRoutes); // proven email ownership
    await api.register(adminRoutes);
    await api.register(userRoutes);
    await api.register(registrationRoutes);
    await api.register(peopleRoutes);
    await api.register(eventRoutes); // live dashboards
    // the administrators' desk
    await api.register(searchRequestRoutes);
    await api.register(faqRoutes);
    await api.register(policyRoutes);
    await api.register(emailTemplateRoutes);
    await api.register(csStarsRoutes);
    await api.register(rosterRoutes); // requests uploaded in bulk
    await api.register(claimHistoryRoutes);
    await api.register(exportRoutes);
    await api.register(securityLogRoutes);
    await api.register(emailProblemsRoutes);
    await api.register(verificationRoutes); // public: checks a certificate's code or PDF, no sign-in
    await api.register(reportRoutes); // the administrators' reports
    await api.register(instantCertificateRoutes); // rules that issue standard certificates on submit
    await api.register(apiKeyRoutes); // organisations' systems: their keys
    await api.register(webhookRoutes); // an account's signed webhooks
    await api.register(renewalRoutes); // renewal season: certificates reissued for a new policy year
    await api.register(renewalAnswerRoutes); // public: a requester's answer to the renewal question
  }, { prefix: '/api/v1' });
  await app.register(samlRoutes); // browser endpoints of the university single sign-on: /saml/{product}/…
  await app.register(staticUi);
  return app;
}
