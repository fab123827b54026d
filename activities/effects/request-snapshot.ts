/**
 * What an email or letter says is taken from the request at the change that causes it, inside the same
 * transaction, and kept on the effect row. Rendering later from this snapshot means a retry, a slow queue or an
 * edit made meanwhile never changes what that change sent.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { ClaimHistorySchema, PolicyYearSchema, type Request } from '../../db/entities';
import { emailRecipients, officeDay, policyYearsCovering, templateVariablesOf } from '../../domain';
import type { CredentialingLetterData } from '../pdf/credentialing-letter.html';
import type { LetterDocument } from '../pdf/letter-documents';
import { certificateData, certificateDocumentKind } from './certificate-data';

export interface RequestSnapshot {
  /** the handlebars variables every template may use (plain values: handlebars renders plain objects only) */
  variables: Record<string, string | number>;
  /** the requester first, then the recipient and the additional recipients */
  recipients: string[];
  /** the document's data, for effects that send one: a credentialing letter, a certificate or a letter of intent */
  letter: LetterDocument | null;
}

/** The handlebars variables of TEMPLATE_VARIABLES (domain/email-templates.ts): the list the template editor checks against. */
export function templateVariables(request: Request, publicUrl: string): Record<string, string | number> {
  return templateVariablesOf(request, publicUrl);
}

async function letterData(em: EntityManager, request: Request, issuedOn: string, timeZone: string): Promise<CredentialingLetterData> {
  const from = request.dateFrom?.toISOString() ?? request.submitDate?.toISOString() ?? issuedOn;
  const to = request.dateTo?.toISOString() ?? from;
  const years = await em.find(PolicyYearSchema, {}, { orderBy: { startDate: 'asc' } });
  // The claims linked to the request; the placeholder entry of "none selected" has no claim number.
  const linked = await em.find(ClaimHistorySchema, { requestId: request.id, claimNumber: { $ne: null } }, { orderBy: { reportDate: 'asc', id: 'asc' } });
  return {
    requestNumber: request.requestNumber!,
    issuedOn,
    timeZone,
    clinicianName: [request.firstName, request.middleInitial, request.lastName].filter(Boolean).join(' '),
    birthDate: request.birthDate?.toISOString() ?? null,
    dateFrom: from,
    dateTo: to,
    recipientName: request.requesterName ?? request.requesterEmail ?? '',
    recipientCompany: request.requesterCompany ?? null,
    policyYears: policyYearsCovering(
      years.map((y) => ({
        startDate: y.startDate.toISOString(), endDate: y.endDate.toISOString(), policyNumber: y.policyNumber,
        limitClaim: y.limitClaim, annualAggregate: y.annualAggregate,
      })),
      from.slice(0, 10), to.slice(0, 10),
    ),
    claims: linked.map((c) => ({
      claimNumber: c.claimNumber!, reportDate: c.reportDate?.toISOString() ?? '', involvement: c.involvement ?? '', indemnityPaid: c.indemnityPaid ?? '0',
    })),
  };
}

/** The document an approval issues, by request type and (for certificates) the new status. */
async function letterDocumentOf(em: EntityManager, request: Request, issuedOn: string, timeZone: string, coverage?: { from: string; to: string }): Promise<LetterDocument> {
  if (request.requestType === 'certificate') {
    return { kind: certificateDocumentKind(request.status), ...await certificateData(em, request, issuedOn, timeZone, coverage) };
  }
  return { kind: 'credentialing-letter', ...await letterData(em, request, issuedOn, timeZone) };
}

export async function takeSnapshot(
  em: EntityManager, request: Request,
  options: { at: string; publicUrl: string; timeZone: string; withLetter: boolean; coverage?: { from: string; to: string } },
): Promise<RequestSnapshot> {
  // A letter is dated the office's day of the change (an approval at 17:30 in Portland in winter is dated that
  // day, not the UTC day after), and the policy year "in force on the issue date" is chosen by that day too.
  const issuedOn = officeDay(options.at, options.timeZone) ?? options.at.slice(0, 10);
  return {
    variables: templateVariables(request, options.publicUrl),
    recipients: emailRecipients(request),
    letter: options.withLetter ? await letterDocumentOf(em, request, issuedOn, options.timeZone, options.coverage) : null,
  };
}
