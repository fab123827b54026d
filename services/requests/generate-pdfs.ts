/**
 * `POST /generate-pdfs` (spec 2 §7.7): an administrator regenerates a request's letter or certificate and, with
 * `sendWithEmail`, emails it. The request's workflow queues the effect (services/requests/request-workflow-client.ts); the
 * letter activity renders it with the usual key, retries and audit rows. The answer is the request's document
 * list once the new letter is stored, or the failure the workflow recorded.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { DocumentSchema, RequestEffectSchema, RequestSchema } from '../../db/entities';
import { letterEmailTemplateFor, LETTER_NOT_APPROVED, mayGenerateLetter, type RequestStatus } from '../../domain';
import { failed, forbidden, invalid, notFound, unavailable } from '../refusals';
import type { DocumentRecord } from '../../contract/document.schema';
import type { CommandContext } from '../context';
import { documentsOf } from '../documents/documents';
import { generateLetter, letterCommandIdOf, NO_ANSWER_MESSAGE } from './request-workflow-client';
import { actorOf } from '../accounts/actors';

const POLL_MS = 50;

/** Waits until the effect's letter is stored (its document id set) or the effect failed. */
async function letterOf(em: EntityManager, effectKey: string, deadline: number): Promise<number> {
  for (;;) {
    const effect = await em.fork().findOne(RequestEffectSchema, { idempotencyKey: effectKey });
    if (effect?.letterDocumentId) return effect.letterDocumentId;
    if (effect?.state === 'failed') throw failed(effect.failure ?? 'The letter could not be generated');
    if (Date.now() >= deadline) throw unavailable(NO_ANSWER_MESSAGE);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function generatePdfs(ctx: CommandContext, body: { requestId: number; sendWithEmail?: boolean }, answerTimeoutMs: number): Promise<DocumentRecord[]> {
  if (!ctx.user.isAdmin) throw forbidden('Administrators only');
  const started = Date.now();
  const row = await ctx.em.findOne(RequestSchema, body.requestId);
  if (!row) throw notFound(`No record found for id '${body.requestId}'`);
  const status = row.status as RequestStatus;
  if (!row.requestNumber || !mayGenerateLetter(status)) throw invalid(LETTER_NOT_APPROVED);
  const sendWithEmail = !!body.sendWithEmail;
  const [latest] = await ctx.em.find(DocumentSchema, { requestId: row.id }, { orderBy: { id: 'desc' }, limit: 1, fields: ['id'] });
  const commandId = letterCommandIdOf(row.requestNumber, sendWithEmail, row.version, latest?.id ?? 0);
  const { effectKey } = await generateLetter(ctx.workflows, {
    id: row.id, requestNumber: row.requestNumber, requestType: row.requestType, certificateType: row.certificateType,
    status: row.status, version: row.version, lastCommandId: row.lastCommandId,
  }, {
    commandId, sendWithEmail, templateTitle: letterEmailTemplateFor(row.requestType, status),
    actor: actorOf(ctx.user),
  });
  await letterOf(ctx.em, effectKey, started + answerTimeoutMs);
  return documentsOf(ctx.em.fork(), row.id);
}
