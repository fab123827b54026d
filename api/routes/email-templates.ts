import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAdmin } from '../plugins/auth';
import { EmailTemplateRecord, PatchTemplateBody, PreviewResult, PreviewTemplateBody } from '../../contract/desk.schema';
import { errorResponses } from '../../contract/error.schema';
import { IdParams } from '../../contract/primitives';
import { listTemplates, previewTemplate, updateTemplate } from '../../services/desk/email-templates';
import { recordRequestSecurityEvent } from '../security-events';
import { EmailTemplateSchema } from '../../db/entities';
import { recordById } from '../../services/requests/record-by-id';

const tags = ['email-templates'];

/** `api/v1/email-templates` (spec 2 §7.9): list by order, edit subject and body, preview. Administrators only. */
const emailTemplateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', requireAdmin);
  app.get('/email-templates', {
    schema: { tags, summary: 'Email templates by order', response: { 200: Type.Object({ total: Type.Integer(), limit: Type.Integer(), skip: Type.Integer(), data: Type.Array(EmailTemplateRecord) }), ...errorResponses(401, 403) } },
  }, async (request) => {
    const data = await listTemplates(request.em);
    return { total: data.length, limit: data.length, skip: 0, data };
  });
  app.get('/email-templates/:id', {
    schema: { tags, summary: 'An email template', params: IdParams, response: { 200: EmailTemplateRecord, ...errorResponses(401, 403, 404) } },
  }, async (request) => recordById(request.em, EmailTemplateSchema, request.params.id));

  app.patch('/email-templates/:id', {
    schema: {
      tags, summary: 'Change subject and body', params: IdParams, body: PatchTemplateBody,
      description: 'Refused (400) when the handlebars does not compile or names a variable the request snapshot does not carry.',
      response: { 200: EmailTemplateRecord, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const template = await updateTemplate(request.em, request.params.id, request.body);
    await recordRequestSecurityEvent(request, { kind: 'templateEdited', email: request.sessionUser?.email, detail: { templateId: request.params.id, fields: Object.keys(request.body) } });
    return template;
  });
  app.post('/email-templates/preview', {
    schema: { tags, summary: 'Render a subject and body with a request (default: the latest submitted, or a sample)', body: PreviewTemplateBody, response: { 200: PreviewResult, ...errorResponses(400, 401, 403, 404) } },
  }, async (request) => previewTemplate(request.em, app.config.publicUrl, request.body));
};
export default emailTemplateRoutes;
