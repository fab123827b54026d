import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { currentUser, requireAdmin } from '../plugins/auth';
import { errorResponses } from '../../contract/error.schema';
import { IdParams } from '../../contract/primitives';
import {
  AnswerBody, AnswerParams, CandidatesQuery, CandidatesResult, ItemsQuery, PreferenceBody, RenewalItemPage, RenewalQuestion, RenewalRun, RenewalRunList,
  RunControlParams, StartRunBody,
} from '../../contract/renewals.schema';
import { kysely } from '../../db/kysely';
import { displayNameOf } from '../../services/accounts/actors';
import { answerRenewal, renewalQuestion } from '../../services/renewals/answers';
import { renewalCandidates } from '../../services/renewals/candidates';
import { listRenewalRuns, renewalRun } from '../../services/renewals/run-progress';
import { controlRenewalRun, renewalItems, renewalResultWorkbook, setRenewalPreference, startRenewalRun } from '../../services/renewals/runs';
import { notFound } from '../../services/refusals';

const tags = ['renewals'];
const byOf = (request: FastifyRequest) => {
  const user = currentUser(request);
  return { name: displayNameOf(user), userId: user.id };
};

/**
 * Renewal season (domain/renewals.ts): the certificates a new policy year renews, the office's marks, the runs and
 * their control, for administrators; the requester's answer to "Do you still need this certificate?", public by the
 * token in the email.
 */
const renewalRoutes: FastifyPluginAsyncTypebox = async (admin) => {
  const timeZone = admin.config.clockPolicy.calendar.timeZone;
  const access = { temporal: admin.temporal, taskQueue: admin.config.taskQueue, timeZone };
  admin.addHook('onRequest', requireAdmin);
  admin.get('/renewals/candidates', {
    schema: { tags, summary: 'Current certificates whose coverage ends in the window, judged for renewal into the policy year', querystring: CandidatesQuery, response: { 200: CandidatesResult, ...errorResponses(400, 401, 403) } },
  }, async (request) => {
    const { all: _all, ...result } = await renewalCandidates(kysely(request.em), request.query, timeZone);
    return result;
  });
  admin.put('/requests/:id/renewal-preference', {
    schema: { tags, summary: 'Mark a certificate request "renews automatically", "never renew", or neither', params: IdParams, body: PreferenceBody, response: { 200: PreferenceBody, ...errorResponses(400, 401, 403, 404) } },
  }, async (request) => setRenewalPreference(kysely(request.em), request.params.id, request.body.preference, byOf(request)));
  admin.post('/renewal-runs', {
    schema: { tags, summary: 'Start a renewal run (renew now, or ask the requesters first)', body: StartRunBody, response: { 201: RenewalRun, ...errorResponses(400, 401, 403, 409, 503) } },
  }, async (request, reply) => reply.code(201).send(await startRenewalRun(kysely(request.em), access, request.body, byOf(request))));
  admin.get('/renewal-runs', {
    schema: { tags, summary: 'The latest renewal runs with their progress, newest first', response: { 200: RenewalRunList, ...errorResponses(401, 403) } },
  }, async (request) => ({ data: await listRenewalRuns(kysely(request.em)) }));
  admin.get('/renewal-runs/:id', {
    schema: { tags, summary: 'A renewal run with its progress', params: IdParams, response: { 200: RenewalRun, ...errorResponses(401, 403, 404) } },
  }, async (request) => (await renewalRun(kysely(request.em), request.params.id)) ?? Promise.reject(notFound('This renewal run does not exist.')));
  admin.post('/renewal-runs/:id/:action', {
    schema: { tags, summary: 'Pause, resume, cancel a run, or stop waiting for answers', params: RunControlParams, response: { 200: RenewalRun, ...errorResponses(400, 401, 403, 404, 409, 503) } },
  }, async (request) => controlRenewalRun(kysely(request.em), admin.temporal, request.params.id, request.params.action, byOf(request).name));
  admin.get('/renewal-runs/:id/items', {
    schema: { tags, summary: 'The certificates of a run, by state', params: IdParams, querystring: ItemsQuery, response: { 200: RenewalItemPage, ...errorResponses(400, 401, 403, 404) } },
  }, async (request) => renewalItems(kysely(request.em), request.params.id, request.query));
  admin.get('/renewal-runs/:id/result.xlsx', {
    schema: { tags, summary: 'The run\'s result as an xlsx workbook, one row per certificate', params: IdParams, response: { 200: Type.Unknown({ description: 'the xlsx file' }), ...errorResponses(401, 403, 404) } },
  }, async (request, reply) => {
    const { fileName, bytes } = await renewalResultWorkbook(kysely(request.em), request.params.id);
    reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    reply.header('content-disposition', `attachment; filename="${fileName}"`);
    return reply.send(bytes);
  });
};

/** Public: the token in the requester's email is the key (192 random bits, stored as its hash). */
export const renewalAnswerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const timeZone = app.config.clockPolicy.calendar.timeZone;
  app.get('/renewal-answers/:token', {
    schema: { tags, summary: 'The renewal question the token in the email asks', security: [], params: AnswerParams, response: { 200: RenewalQuestion, ...errorResponses(400, 404) } },
  }, async (request) => renewalQuestion(kysely(request.em), request.params.token, timeZone));
  app.post('/renewal-answers/:token', {
    schema: { tags, summary: 'Answer it: yes (renew) or no', security: [], params: AnswerParams, body: AnswerBody, response: { 200: RenewalQuestion, ...errorResponses(400, 404, 409) } },
  }, async (request) => answerRenewal(kysely(request.em), app.temporal, { token: request.params.token }, request.body.answer, 'link', 'Requester (answer link)', timeZone));
};
export default renewalRoutes;
