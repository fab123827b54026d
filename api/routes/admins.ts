import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser, requireAdmin } from '../plugins/auth';
import { AdminCreateBody, AdminList, AdminPatchBody, AdminRecord } from '../../contract/admin.schema';
import { errorResponses } from '../../contract/error.schema';
import { IdParams } from '../../contract/primitives';
import { createAdmin, listAdmins, removeAdmin, updateAdmin } from '../../services/accounts/admins';
import { recordRequestSecurityEvent } from '../security-events';
import { AdminSchema } from '../../db/entities';
import { recordById } from '../../services/requests/record-by-id';

const tags = ['admin'];

/** `admins` (spec 2 §7.11): GET, POST, PATCH admins/{id}, DELETE admins/{id}; administrators only. */
const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/admins', {
    onRequest: requireAdmin,
    schema: { tags, summary: 'The admin list', response: { 200: AdminList, ...errorResponses(401, 403) } },
  }, async (request) => listAdmins(request.em));

  app.get('/admins/:id', {
    onRequest: requireAdmin,
    schema: { tags, summary: 'An administrator', params: IdParams, response: { 200: AdminRecord, ...errorResponses(401, 403, 404) } },
  }, async (request) => recordById(request.em, AdminSchema, request.params.id));

  app.post('/admins', {
    onRequest: requireAdmin,
    schema: { tags, summary: 'Add an administrator', body: AdminCreateBody, response: { 201: AdminRecord, ...errorResponses(400, 401, 403) } },
  }, async (request, reply) => {
    const admin = await createAdmin(request.em, request.body);
    await recordRequestSecurityEvent(request, { kind: 'adminAdded', email: admin.email, detail: { adminId: admin.id } });
    return reply.code(201).send(admin);
  });

  app.patch('/admins/:id', {
    onRequest: requireAdmin,
    schema: {
      tags, summary: 'Edit an administrator (not your own email)', params: IdParams, body: AdminPatchBody,
      response: { 200: AdminRecord, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const admin = await updateAdmin(request.em, currentUser(request), request.params.id, request.body);
    await recordRequestSecurityEvent(request, { kind: 'adminChanged', email: admin.email, detail: { adminId: admin.id, fields: Object.keys(request.body) } });
    return admin;
  });

  app.delete('/admins/:id', {
    onRequest: requireAdmin,
    schema: {
      tags, summary: 'Remove administrative rights (not your own)', params: IdParams,
      response: { 200: AdminRecord, ...errorResponses(401, 403, 404) },
    },
  }, async (request) => {
    const admin = await removeAdmin(request.em, currentUser(request), request.params.id);
    await recordRequestSecurityEvent(request, { kind: 'adminRemoved', email: admin.email, detail: { adminId: admin.id } });
    return admin;
  });
};

export default adminRoutes;
