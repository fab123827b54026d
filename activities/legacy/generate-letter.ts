import type { Orm } from '../../db/orm';
import { DocumentSchema, PolicyYearSchema, RequestActivitySchema, RequestSchema } from '../../db/entities';
import { policyYearsCovering } from '../../domain';
import { DocumentFiles } from '../../storage/document-files';
import type { ChromiumPdfRenderer } from '../pdf/chromium-pdf-renderer';
import { credentialingLetterHtml } from '../pdf/credentialing-letter.html';
import type { GenerateLetterInput, GenerateLetterResult } from '../../workflows/request-activities.types';

export const LETTER_AUTHOR = 'COI Automated Document System';

/** LEGACY activity of runs recorded before the `commands-and-effects` patch (see workflows/legacy/). */
/** Generates the approval letter PDF and stores it as a document of the request (once per idempotency key). */
export function generateLetterActivity(deps: { orm: Orm; pdf: ChromiumPdfRenderer; files: DocumentFiles }) {
  return async function generateLetter(input: GenerateLetterInput): Promise<GenerateLetterResult> {
    const em = deps.orm.em.fork();
    const existing = await em.findOne(DocumentSchema, { idempotencyKey: input.key });
    if (existing) return { documentId: existing.id, name: existing.name };

    const request = await em.findOneOrFail(RequestSchema, input.requestId);
    const from = request.dateFrom?.toISOString() ?? request.submitDate!.toISOString();
    const to = request.dateTo?.toISOString() ?? from;
    const years = policyYearsCovering(
      (await em.find(PolicyYearSchema, {})).map((y) => ({
        startDate: y.startDate.toISOString(), endDate: y.endDate.toISOString(), policyNumber: y.policyNumber,
        limitClaim: y.limitClaim, annualAggregate: y.annualAggregate,
      })),
      from.slice(0, 10), to.slice(0, 10),
    );
    const issuedOn = new Date().toISOString();
    const html = credentialingLetterHtml({
      requestNumber: request.requestNumber!,
      issuedOn,
      clinicianName: [request.firstName, request.middleInitial, request.lastName].filter(Boolean).join(' '),
      birthDate: request.birthDate?.toISOString() ?? null,
      dateFrom: from,
      dateTo: to,
      recipientName: request.requesterName ?? request.requesterEmail ?? '',
      recipientCompany: request.requesterCompany,
      policyYears: years,
      claims: [], // claim-history linking arrives with the claims tools
    });
    const bytes = await deps.pdf.render(html);

    const baseName = `Claim History and Insurance Verification ${request.requestNumber}`;
    const sameName = await em.count(DocumentSchema, { requestId: request.id, name: { $like: `${baseName}%` } });
    const name = sameName ? `${baseName} (${sameName + 1}).pdf` : `${baseName}.pdf`;
    const storedName = DocumentFiles.newStoredName(name);
    await deps.files.write(storedName, bytes);
    const document = em.create(DocumentSchema, {
      requestId: request.id, name, description: 'Approval letter', storedName, mimeType: 'application/pdf',
      size: bytes.length, isAttachment: true, uploadedBy: LETTER_AUTHOR, idempotencyKey: input.key,
    });
    em.create(RequestActivitySchema, {
      requestId: request.id, date: new Date(issuedOn), activityType: 'Document', activityText: `Generated "${name}"`,
      performedBy: LETTER_AUTHOR, idempotencyKey: `${input.key}:letter`,
    });
    await em.flush();
    return { documentId: document.id, name };
  };
}
