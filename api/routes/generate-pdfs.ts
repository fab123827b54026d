import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAdmin } from '../plugins/auth';
import { DocumentRecord } from '../../contract/document.schema';
import { errorResponses } from '../../contract/error.schema';
import { Id } from '../../contract/primitives';
import { commandContextOf } from '../command-context';
import { generatePdfs } from '../../services/requests/generate-pdfs';

const GeneratePdfsBody = Type.Object({
  requestId: Id,
  sendWithEmail: Type.Optional(Type.Boolean({ description: 'email the new letter with the approval template' })),
}, { additionalProperties: false });

/** `api/v1/generate-pdfs` (spec 2 §7.7): regenerate a request's letter or certificate (administrators). */
const generatePdfRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/generate-pdfs', {
    onRequest: requireAdmin,
    schema: {
      tags: ['documents'],
      summary: "Regenerate an approved request's letter or certificate; answers the request's document list",
      description: 'Goes through the request workflow: the letter activity renders it (audited, retried, keyed by the command). '
        + 'With `sendWithEmail` the approval email goes out with it. A failure answers 500 with the reason; no answer in time, 503.',
      body: GeneratePdfsBody,
      response: { 200: Type.Array(DocumentRecord), ...errorResponses(400, 401, 403, 404, 500, 503) },
    },
  }, async (request) => generatePdfs(commandContextOf(request), request.body, request.server.config.workflowAnswerTimeoutMs));
};

export default generatePdfRoutes;
