import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../contract/error.schema';
import { CertificateParams, IssuedLetterItem, IssuedLetterList, RevokeCertificateBody } from '../../contract/issued-letter.schema';
import { IdParams } from '../../contract/primitives';
import { currentUser, requireAdmin, requireUser } from '../plugins/auth';
import { commandContextOf } from '../command-context';
import { listIssuedLetters, revokeIssuedLetter } from '../../services/requests/issued-letters';
import { kysely } from '../../db/kysely';
import { requestRenewal } from '../../services/renewals/runs';

const tags = ['certificates'];

/** A request's issued certificates and claim-history letters with their verification codes, and revoking one. */
const issuedLetterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/requests/:id/certificates', {
    onRequest: requireUser,
    schema: {
      tags, summary: "The request's issued certificates and claim-history letters, newest first, with their codes and status",
      params: IdParams, response: { 200: IssuedLetterList, ...errorResponses(401, 403, 404) },
    },
  }, async (request) => {
    const user = currentUser(request);
    const items = await listIssuedLetters(request.em, user, request.params.id);
    const renewal = user.isAdmin ? await requestRenewal(kysely(request.em), request.params.id) : null;
    return { items, ...(renewal ? { renewal } : {}) };
  });

  app.post('/requests/:id/certificates/:code/revoke', {
    onRequest: requireAdmin,
    schema: {
      tags,
      summary: 'Revoke an issued certificate or claim-history letter (administrators)',
      description: 'Goes through the request workflow: the letter is marked revoked with the reason, audited, and the requester '
        + 'is emailed ("Certificate Revoked"). Only the current letter can be revoked: a revoked or superseded one answers 409.',
      params: CertificateParams, body: RevokeCertificateBody,
      response: { 200: IssuedLetterItem, ...errorResponses(400, 401, 403, 404, 409, 503) },
    },
  }, async (request) => revokeIssuedLetter(commandContextOf(request), request.params.id, request.params.code, request.body));
};

export default issuedLetterRoutes;
