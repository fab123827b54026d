/**
 * The public verification of issued certificates and claim-history letters (no sign-in): by code, or by dropping the
 * PDF file. Every answer (refusals included) asks search engines not to index it and caches nothing (a status can
 * change at any time); each call counts in its address's window first.
 */
import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { VERIFICATION_LIMIT, VERIFICATION_TOO_MANY } from '../../domain';
import { errorResponses } from '../../contract/error.schema';
import { VerificationAnswer, VerificationCodeParams } from '../../contract/verification.schema';
import { ApiError, badRequest } from '../errors';
import { countHit } from '../../services/limits/rate-limits';
import { looksLikePdf, PDF_HEADER_BYTES, verifyCode, verifyPdf } from '../../services/requests/verification';

const tags = ['verification'];
const PDF_REQUIRED = 'Please choose the PDF file of a certificate or letter.';

/** Refuses a call past the address's window (429 with Retry-After). */
async function countCheck(request: FastifyRequest): Promise<void> {
  const { hits, resetInMs } = await countHit(request.server.orm.em, `verify|${request.ip}`, VERIFICATION_LIMIT.windowMs);
  if (hits > VERIFICATION_LIMIT.max) throw new ApiError(429, VERIFICATION_TOO_MANY, { retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)) });
}

/**
 * The uploaded file's SHA-256 and its first KB (to tell a PDF by its header), at most `maxBytes` (413 past it). Hashed
 * as it streams in: a public endpoint holds no whole file in memory, and nothing is stored.
 */
async function fileDigest(request: FastifyRequest, maxBytes: number): Promise<{ head: Buffer; digest: Buffer }> {
  if (!request.isMultipart()) throw badRequest(PDF_REQUIRED, { file: PDF_REQUIRED });
  const file = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
  if (!file) throw badRequest(PDF_REQUIRED, { file: PDF_REQUIRED });
  const hash = createHash('sha256');
  let head = Buffer.alloc(0);
  for await (const chunk of file.file) {
    hash.update(chunk as Buffer);
    if (head.length < PDF_HEADER_BYTES) head = Buffer.concat([head, (chunk as Buffer).subarray(0, PDF_HEADER_BYTES - head.length)]);
  }
  if (file.file.truncated) throw new ApiError(413, 'The file is larger than any certificate we issue; nothing was checked.');
  return { head, digest: hash.digest() };
}

const verificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-robots-tag', 'noindex, nofollow');
    reply.header('cache-control', 'no-store');
  });
  app.addHook('preHandler', countCheck);

  app.get('/verify/:code', {
    schema: {
      tags, summary: 'Check a certificate or letter by its verification code (public)', security: [],
      description: 'An unknown or malformed code answers 200 `NotIssued` with every other field null: the same body either way.',
      params: VerificationCodeParams, response: { 200: VerificationAnswer, ...errorResponses(400, 429) },
    },
  }, async (request) => verifyCode(app.orm.em, request.params.code));

  app.post('/verify/pdf', {
    schema: {
      tags, summary: 'Check a PDF file: is it byte for byte one we issued, and what is its status (public)', security: [],
      description: 'multipart/form-data with `file` (a PDF). The file is hashed (SHA-256) and forgotten; one changed byte answers `NotIssued`.',
      response: { 200: VerificationAnswer, ...errorResponses(400, 413, 429) },
    },
  }, async (request) => {
    const { head, digest } = await fileDigest(request, app.config.uploadMaxBytes);
    if (!looksLikePdf(head)) throw badRequest(PDF_REQUIRED, { file: PDF_REQUIRED });
    return verifyPdf(app.orm.em, digest);
  });
};

export default verificationRoutes;
