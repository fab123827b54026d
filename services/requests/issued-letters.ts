/**
 * A request's issued certificates and claim-history letters (`GET /requests/:id/certificates`) and an
 * administrator's revocation (`POST /requests/:id/certificates/:code/revoke`), which goes through the request's
 * workflow (services/requests/request-workflow-client.ts): the record, its audit row and the requester's email together.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { IssuedLetterSchema, type IssuedLetter } from '../../db/entities';
import {
  certificateStatus, formatVerificationCode, isWellFormedVerificationCode, ISSUED_LETTER_MESSAGES, normalizeVerificationCode, revokeErrors,
  revokeRefusal, instantHoldAfterRevocation,
} from '../../domain';
import type { IssuedLetterItem, RevokeCertificateBody } from '../../contract/issued-letter.schema';
import type { SessionUser } from '../../contract/session-user.schema';
import { conflict, forbidden, invalid, notFound } from '../refusals';
import type { CommandContext } from '../context';
import { findVisibleRequest } from './request-access';
import { revokeCertificate, revokeCommandIdOf } from './request-workflow-client';
import { instantIssueRevoked } from '../instant/checks';
import { setInstantHold } from '../instant/rules';
import { actorOf } from '../accounts/actors';

function issuedLetterItemOf(row: IssuedLetter): IssuedLetterItem {
  return {
    code: formatVerificationCode(row.verificationCode),
    kind: row.letterKind,
    status: certificateStatus(row),
    issuedAt: row.issuedAt!,
    supersededAt: row.supersededAt ?? null,
    revokedAt: row.revokedAt ?? null,
    revokeReason: row.revokeReason ?? null,
    documentId: row.documentId ?? null,
  };
}

/** The request's issued letters, newest first (codes still being printed are not issued and not listed). */
export async function listIssuedLetters(em: EntityManager, user: SessionUser, requestId: number): Promise<IssuedLetterItem[]> {
  await findVisibleRequest(em, user, requestId);
  const rows = await em.find(IssuedLetterSchema, { requestId, issuedAt: { $ne: null } }, { orderBy: { issuedAt: 'desc', id: 'desc' } });
  return rows.map(issuedLetterItemOf);
}

export async function revokeIssuedLetter(ctx: CommandContext, requestId: number, printedCode: string, body: RevokeCertificateBody): Promise<IssuedLetterItem> {
  if (!ctx.user.isAdmin) throw forbidden('Administrators only');
  const errors = revokeErrors(body);
  if (Object.keys(errors).length) throw invalid(errors.reason ?? errors.note!, errors);
  const request = await findVisibleRequest(ctx.em, ctx.user, requestId);
  const code = normalizeVerificationCode(printedCode);
  const row = isWellFormedVerificationCode(code)
    ? await ctx.em.findOne(IssuedLetterSchema, { requestId, verificationCode: code, issuedAt: { $ne: null } })
    : null;
  if (!row || !request.requestNumber) throw notFound(ISSUED_LETTER_MESSAGES.notFound);
  const refusal = revokeRefusal(row);
  if (refusal) throw conflict(refusal);
  await revokeCertificate(ctx.workflows, {
    id: request.id, requestNumber: request.requestNumber, requestType: request.requestType, certificateType: request.certificateType,
    status: request.status, version: request.version, lastCommandId: request.lastCommandId, requesterEmail: request.requesterEmail,
  }, {
    commandId: revokeCommandIdOf(request.requestNumber, code), code, reason: body.reason, note: body.note?.trim() || null,
    actor: actorOf(ctx.user),
    revokedBy: ctx.user.id,
  });
  // A certificate a rule issued turned out wrong: the requester's next requests wait for a person until the office
  // releases the hold, and the decision leaves the check-after-issue list.
  const instant = await instantIssueRevoked(ctx.em, request.id, actorOf(ctx.user).name);
  if (instant) {
    await setInstantHold(ctx.em, instant.requesterId, true, instantHoldAfterRevocation(request.requestNumber),
      { userId: ctx.user.id, name: actorOf(ctx.user).name, email: ctx.user.email });
  }
  return issuedLetterItemOf(await ctx.em.fork().findOneOrFail(IssuedLetterSchema, row.id));
}
