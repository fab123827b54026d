import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAdmin } from '../plugins/auth';
import { CreatePolicyBody, PatchPolicyBody, PolicyRecord } from '../../contract/desk.schema';
import { errorResponses } from '../../contract/error.schema';
import { IdParams } from '../../contract/primitives';
import { createPolicy, deletePolicy, listPolicies, updatePolicy } from '../../services/desk/policies';
import { wakeUpsOf } from '../../services/requests/wake-ups';
import { PolicyYearSchema } from '../../db/entities';
import { recordById } from '../../services/requests/record-by-id';

const tags = ['policies'];

/** `api/v1/policies` (spec 2 §7.11): policy years; no two may overlap. Administrators only. */
const policyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', requireAdmin);
  app.get('/policies', {
    schema: { tags, summary: 'Policy years, newest first', response: { 200: Type.Object({ total: Type.Integer(), limit: Type.Integer(), skip: Type.Integer(), data: Type.Array(PolicyRecord) }), ...errorResponses(401, 403) } },
  }, async (request) => {
    const data = await listPolicies(request.em);
    return { total: data.length, limit: data.length, skip: 0, data };
  });
  app.get('/policies/:id', {
    schema: { tags, summary: 'A policy year', params: IdParams, response: { 200: PolicyRecord, ...errorResponses(401, 403, 404) } },
  }, async (request) => recordById(request.em, PolicyYearSchema, request.params.id));
  app.post('/policies', {
    schema: { tags, summary: 'Add a policy year', body: CreatePolicyBody, response: { 201: PolicyRecord, ...errorResponses(400, 401, 403) } },
  }, async (request, reply) => reply.code(201).send(await createPolicy(request.em, request.body, wakeUpsOf(app))));
  app.patch('/policies/:id', {
    schema: { tags, summary: 'Change a policy year', params: IdParams, body: PatchPolicyBody, response: { 200: PolicyRecord, ...errorResponses(400, 401, 403, 404) } },
  }, async (request) => updatePolicy(request.em, request.params.id, request.body, wakeUpsOf(app)));
  app.delete('/policies/:id', {
    schema: { tags, summary: 'Delete a policy year', params: IdParams, response: { 200: PolicyRecord, ...errorResponses(401, 403, 404) } },
  }, async (request) => deletePolicy(request.em, request.params.id));
};
export default policyRoutes;
