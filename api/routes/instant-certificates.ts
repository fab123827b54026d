import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { requireAdmin, currentUser } from '../plugins/auth';
import { errorResponses } from '../../contract/error.schema';
import { IdParams } from '../../contract/primitives';
import {
  HeldRequesterList, HoldBody, HoldRecord, InstantCheckPage, InstantDecisionRecord, InstantRuleBody, InstantRuleList, InstantRuleRecord,
  InstantRuleVersionRecord, InstantSettingsRecord, PageQuery, SimulateBody, SimulationResult, SwitchBody, UpdateInstantRuleBody,
} from '../../contract/instant.schema';
import { Nullable } from '../../contract/primitives';
import { displayNameOf } from '../../services/accounts/actors';
import { confirmInstantCheck, instantChecks, instantDecisionOf } from '../../services/instant/checks';
import { simulateRule } from '../../services/instant/simulate';
import {
  createInstantRule, heldRequesters, instantRule, instantRuleVersions, instantSettings, listInstantRules, setInstantHold, setInstantRuleEnabled, setOfficeSwitch,
  updateInstantRule, type RuleEditor,
} from '../../services/instant/rules';

const tags = ['instant-certificates'];

const editorOf = (request: FastifyRequest): RuleEditor => {
  const user = currentUser(request);
  return { userId: user.id, name: displayNameOf(user), email: user.email, ip: request.ip };
};

/**
 * Instant certificates (domain/instant-rules.ts): the office's rules, its switch, the check-after-issue list, a
 * request's decision and the requester holds. Administrators only: a requester never reads a rule.
 */
const instantCertificateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', requireAdmin);
  const timeZone = app.config.clockPolicy.calendar.timeZone;

  app.get('/instant-rules', {
    schema: { tags, summary: 'The office switch and every rule, newest first', response: { 200: InstantRuleList, ...errorResponses(401, 403) } },
  }, async (request) => ({ settings: await instantSettings(request.em), data: await listInstantRules(request.em, timeZone) }));
  app.post('/instant-rules', {
    schema: { tags, summary: 'Write a rule (it starts switched off)', body: InstantRuleBody, response: { 201: InstantRuleRecord, ...errorResponses(400, 401, 403) } },
  }, async (request, reply) => reply.code(201).send(await createInstantRule(request.em, request.body, editorOf(request))));
  app.post('/instant-rules/simulate', {
    schema: { tags, summary: 'What a rule would have issued over the last 12 months (nothing is saved)', body: SimulateBody, response: { 200: SimulationResult, ...errorResponses(400, 401, 403) } },
  }, async (request) => simulateRule(request.em, request.body, timeZone, new Date()));
  app.get('/instant-rules/:id', {
    schema: { tags, summary: 'A rule as it stands', params: IdParams, response: { 200: InstantRuleRecord, ...errorResponses(401, 403, 404) } },
  }, async (request) => instantRule(request.em, request.params.id));
  app.put('/instant-rules/:id', {
    schema: { tags, summary: 'Save a new version of a rule', params: IdParams, body: UpdateInstantRuleBody, response: { 200: InstantRuleRecord, ...errorResponses(400, 401, 403, 404, 409) } },
  }, async (request) => updateInstantRule(request.em, request.params.id, request.body, editorOf(request)));
  app.put('/instant-rules/:id/enabled', {
    schema: { tags, summary: 'Switch a rule on or off', params: IdParams, body: SwitchBody, response: { 200: InstantRuleRecord, ...errorResponses(400, 401, 403, 404) } },
  }, async (request) => setInstantRuleEnabled(request.em, request.params.id, request.body.enabled, editorOf(request)));
  app.get('/instant-rules/:id/versions', {
    schema: { tags, summary: 'Every saved version of a rule, newest first', params: IdParams, response: { 200: Type.Object({ data: Type.Array(InstantRuleVersionRecord) }), ...errorResponses(401, 403, 404) } },
  }, async (request) => ({ data: await instantRuleVersions(request.em, request.params.id) }));
  app.put('/instant-settings', {
    schema: { tags, summary: 'Switch instant certificates on or off for the office', body: SwitchBody, response: { 200: InstantSettingsRecord, ...errorResponses(400, 401, 403) } },
  }, async (request) => setOfficeSwitch(request.em, request.body.enabled, editorOf(request)));

  app.get('/instant-checks', {
    schema: { tags, summary: 'Check after issue: instant issues waiting for an administrator, oldest first', querystring: PageQuery, response: { 200: InstantCheckPage, ...errorResponses(400, 401, 403) } },
  }, async (request) => instantChecks(request.em, request.query.$limit ?? 25, request.query.$skip ?? 0));
  app.post('/instant-checks/:id/confirm', {
    schema: { tags, summary: 'Confirm an instant issue after checking it', params: IdParams, response: { 200: InstantDecisionRecord, ...errorResponses(401, 403, 404) } },
  }, async (request) => confirmInstantCheck(request.em, request.params.id, displayNameOf(currentUser(request))));
  app.get('/requests/:id/instant-decision', {
    schema: { tags, summary: 'The rule that issued the request, or what stopped it', params: IdParams, response: { 200: Type.Object({ decision: Nullable(Type.Object(InstantDecisionRecord.properties)) }), ...errorResponses(401, 403) } },
  }, async (request) => ({ decision: await instantDecisionOf(request.em, request.params.id) }));
  app.get('/instant-holds', {
    schema: { tags, summary: 'Requesters on hold: their requests wait for a person', response: { 200: HeldRequesterList, ...errorResponses(401, 403) } },
  }, async (request) => ({ data: await heldRequesters(request.em) }));
  app.put('/users/:id/instant-hold', {
    schema: { tags, summary: 'Hold a requester from instant certificates, or release them', params: IdParams, body: HoldBody, response: { 200: HoldRecord, ...errorResponses(400, 401, 403, 404) } },
  }, async (request) => setInstantHold(request.em, request.params.id, request.body.hold, request.body.reason, editorOf(request)));
};
export default instantCertificateRoutes;
