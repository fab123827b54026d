/**
 * Request commands: create a draft, save form fields, submit, change status, reopen, delete a draft, send an
 * email. Each decides access first, then validates, saves, and hands status changes to the request workflow
 * (services/requests/request-workflow-client.ts), which alone writes the status. Routes only parse, call and answer.
 */
import { writeWithinQuota } from '../limits/quotas';
import { reserveChosenAddressMail } from '../limits/chosen-address-mail';
import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/postgresql';
import {
  ClaimHistorySchema, DiscussionSchema, DocumentSchema, PolicyYearSchema, RequestActivitySchema, RequestEffectSchema, RequestSchema, type Request,
} from '../../db/entities';
import {
  COMPLETED_STATUSES, hasErrors, NO_POLICY_YEAR_REASON, isCertificateType, certificateCoverageError, issuesCertificate, isFinished, MESSAGES, officeToday, PRODUCT_NAME, requestKindOf,
  SIGNED_RELEASE_MESSAGES, signedReleaseDateError, STATUS, zonedDay, type RequestStatus, type RequestType,
  onDemandRecipients, emailRecipients, CERTIFICATE_REVOKED_TEMPLATE, REVOKED_EMAIL_ON_DEMAND, requesterConfirmationFor,
  CERTIFICATE_RENEWED_TEMPLATE, RENEWAL_QUESTION_TEMPLATE, RENEWAL_MESSAGES,
} from '../../domain';
import { validateRequestForm } from '../../domain/request-rules';
import { forbidden, invalid, notFound } from '../refusals';
import type { CreateRequestBody, PatchRequestBody, RequestFormPayload, RequestRecord } from '../../contract/request.schema';
import type { SendEmailAccepted, SendEmailBody } from '../../contract/send-email.schema';
import type { SessionUser } from '../../contract/session-user.schema';
import type { CommandContext } from '../context';
import { canEditForm, findVisibleRequest, requestForCaller } from './request-access';
import { isAdminEdit, saveAdminEdit } from './admin-edit';
import { applyFormFields, cloneFormFields, formOf } from './request-form';
import { copyDirectoryFacts } from './directory-facts';
import { assignRequestNumber } from './request-numbers';
import { actorOf } from '../accounts/actors';
import { endDraftWorkflow, saveAsAdmin, sendEmail, submitRequest, type AdminSave, type RequestRow } from './request-workflow-client';

/**
 * What the workflow needs of the request. `version` is the version as loaded at the start of this HTTP call:
 * saving this call's own form fields bumps the in-memory version, and a command must be judged (and its id
 * derived) against the version the caller saw, not against our own save.
 */
const workflowRowOf = (row: Request, requestNumber: number, loadedVersion: number): RequestRow => ({
  id: row.id,
  requestNumber,
  requestType: row.requestType,
  certificateType: row.certificateType,
  status: row.status,
  version: loadedVersion,
  lastCommandId: row.lastCommandId,
  requesterEmail: row.requesterEmail,
});

// ---- create ----------------------------------------------------------------------------------------------------

/**
 * `POST /requests`: a new draft with its request number (spec 2 §7.3: the server assigns the next number at
 * creation). External requesters get Clinician certificates only; the type is set for them when not given.
 * `cloneOf` copies the form values of an approved request the caller may see.
 */
export async function createDraft(ctx: CommandContext, body: CreateRequestBody): Promise<Request> {
  const { user } = ctx;
  const { requestType, cloneOf, certificateType: givenType, ...form } = body;
  let certificateType = givenType ?? null;
  if (requestType === 'certificate') {
    if (user.isExternal && !certificateType) certificateType = 'Clinician';
    if (!isCertificateType(certificateType)) {
      throw invalid('Invalid certificate type', { certificateType: 'The field above is required' });
    }
    if (user.isExternal && certificateType !== 'Clinician') throw forbidden('External requesters may only request Clinician certificates');
  }
  let values: RequestFormPayload = form;
  if (cloneOf) {
    const source = await findVisibleRequest(ctx.em, user, cloneOf);
    if (!COMPLETED_STATUSES.includes(source.status as RequestStatus)) throw invalid('Only an approved request can be cloned');
    if (source.requestType !== requestType || (source.certificateType ?? null) !== certificateType) {
      throw invalid('A clone has the type of the request it copies');
    }
    values = { ...cloneFormFields(source), ...form };
  }
  // The quota's count and the new draft are one step: a burst of creations at the limit cannot all pass.
  return writeWithinQuota(ctx.em, user, ctx.quotas, 'openDrafts', async (em) => {
    const created = em.create(RequestSchema, {
      requestType,
      certificateType: requestType === 'certificate' ? certificateType : null,
      status: STATUS.draft,
      source: user.isExternal ? 'external' : PRODUCT_NAME,
      employerType: user.isExternal ? 'external' : 'internal',
      requesterId: user.id,
      requesterName: `${user.firstName} ${user.lastName}`.trim(),
      requesterLastName: user.lastName,
      requesterEmail: user.email,
      requesterPhone: user.phone,
      requesterCompany: user.company,
      personRole: requestKindOf(requestType, certificateType).personRole,
      clonedFromId: cloneOf ?? null,
    });
    applyFormFields(created, values);
    await copyDirectoryFacts(em, created);
    await em.flush();
    created.requestNumber = await assignRequestNumber(em, created.id);
    await em.flush();
    return created;
  });
}

// ---- patch: form fields, submit, status change, reopen, admin fields -------------------------------------------

/** Administrators' fields, and status changes other than a requester's own submit, are refused before anything is saved. */
function assertMayPatch(user: SessionUser, current: RequestStatus, body: PatchRequestBody): void {
  if (user.isAdmin) return;
  if (body.verified !== undefined || body.internalNotes !== undefined || body.signedReleaseDate !== undefined) throw forbidden('Administrators only');
  if (body.status !== undefined && body.status !== current && body.status !== STATUS.submitted) {
    throw forbidden("Only administrators can change a request's status");
  }
}

async function saveFormFields(ctx: CommandContext, row: Request, form: RequestFormPayload): Promise<void> {
  if (Object.keys(form).length === 0) return;
  if (isAdminEdit(ctx.user, row)) return saveAdminEdit(ctx, row, form);
  if (!canEditForm(ctx.user, row)) throw forbidden('This request can no longer be edited');
  applyFormFields(row, form);
  if ('employeeId' in form) await copyDirectoryFacts(ctx.em, row);
  await ctx.em.flush();
}

/** Submit is a requester's (or an admin's) move from Draft or Pending Additional Information. */
const isSubmit = (current: RequestStatus, status: RequestStatus | undefined) =>
  status === STATUS.submitted && status !== current
  && (current === STATUS.draft || current === STATUS.pendingAdditionalInformation);

/** The domain's form rules on the stored form (spec 1 §5), with one message per field. */
async function assertSubmittable(ctx: CommandContext, row: Request): Promise<void> {
  if (row.requesterId !== ctx.user.id && !ctx.user.isAdmin) throw forbidden('Only the requester can submit this request');
  if (row.requestType === 'certificate' && row.employerType === 'external' && row.certificateType !== 'Clinician') {
    throw forbidden('External requesters may only request Clinician certificates');
  }
  const documentCount = await ctx.em.count(DocumentSchema, { requestId: row.id });
  const errors = validateRequestForm(requestKindOf(row.requestType, row.certificateType), formOf(row), {
    isExternal: row.employerType === 'external', today: officeToday(ctx.clockPolicy.calendar.timeZone), documentCount,
  });
  if (hasErrors(errors)) throw invalid('Field validation error.', errors as Record<string, string>);
}

/**
 * A submit that emails the Submission Confirmation (the first one, and a resubmission after Pending Additional
 * Information) sends it to the addresses the form names besides the requester's own (Recipient, Additional
 * Recipients): emails to chosen addresses, reserved before the command is sent. A refusal leaves the form as saved.
 */
async function reserveSubmissionEmails(ctx: CommandContext, row: Request): Promise<void> {
  const confirms = row.status === STATUS.draft || requesterConfirmationFor({ requestType: row.requestType as RequestType, previousStatus: row.status as RequestStatus, newStatus: STATUS.submitted }) !== null;
  if (!confirms) return;
  const own = new Set([row.requesterEmail, ctx.user.email].map((e) => (e ?? '').trim().toLowerCase()));
  const chosen = emailRecipients(row).filter((address) => !own.has(address));
  await reserveChosenAddressMail(ctx.em, 'requestRecipients', { userId: ctx.user.id, isAdmin: ctx.user.isAdmin, email: ctx.user.email }, chosen);
}

async function submit(ctx: CommandContext, row: Request, loadedVersion: number, seenVersion: number): Promise<void> {
  await assertSubmittable(ctx, row);
  await reserveSubmissionEmails(ctx, row);
  // Drafts are numbered at creation: only a draft of an older release still needs the locking transaction.
  const requestNumber = row.requestNumber ?? await assignRequestNumber(ctx.em, row.id);
  await submitRequest(ctx.workflows, workflowRowOf(row, requestNumber, loadedVersion), actorOf(ctx.user), seenVersion);
}

/**
 * An administrator's Save, whole: what it changes of the status (a change to Draft is a Reopen), the verification,
 * the internal notes and the signed release date, checked here as the caller sees it, then sent as ONE update to the
 * request's workflow (services/requests/request-workflow-client.ts `saveAsAdmin`), which writes all of them and is
 * their one writer. Nothing is sent when nothing changes.
 */
async function saveAsAdministrator(ctx: CommandContext, row: Request, body: PatchRequestBody, seenVersion: number, loadedVersion: number): Promise<void> {
  const { status, verified, internalNotes, signedReleaseDate } = body;
  const finished = isFinished(row.status as RequestStatus);
  const save: AdminSave = { actor: actorOf(ctx.user) };
  if (signedReleaseDate !== undefined && signedReleaseDate !== storedDay(row.signedReleaseDate)) {
    assertReleaseRecordable(ctx, row, signedReleaseDate);
    save.signedReleaseDate = signedReleaseDate;
  }
  if (status !== undefined && status !== row.status) {
    if (!row.requestNumber) throw invalid(`A request in status "${row.status}" cannot be changed to "${status}"`);
    // No certificate saying no policy covers it: refused before anything is written. The policy years are read only
    // for a change that issues a certificate.
    const uncovered = status !== STATUS.draft && issuesCertificate(row, status)
      ? certificateCoverageError(row, status, await ctx.em.find(PolicyYearSchema, {}), officeToday(ctx.clockPolicy.calendar.timeZone))
      : null;
    if (uncovered) throw invalid(uncovered, { status: uncovered }, { reason: NO_POLICY_YEAR_REASON, offer: STATUS.pendingNewPolicyYear });
    Object.assign(save, { status, verified: verified ?? row.verified }, internalNotes !== undefined ? { internalNotes } : {});
  } else {
    // `verified` and internal notes without a status change: a finished request keeps its verification.
    if (verified !== undefined && verified !== row.verified) {
      if (finished) throw invalid('This request is finished');
      save.verified = verified;
    }
    if (internalNotes !== undefined && (internalNotes ?? '') !== (row.internalNotes ?? '')) save.internalNotes = internalNotes;
  }
  if (Object.keys(save).length === 1) return;
  if (!row.requestNumber) throw invalid('This request has no number yet');
  await saveAsAdmin(ctx.workflows, workflowRowOf(row, row.requestNumber, loadedVersion), save, seenVersion);
}

/**
 * The signed release date an administrator records when verifying a credentialing request (spec: dated within the
 * last 180 days). Recorded by the workflow, which writes it with an audit row and arms the release's expiry.
 */
function assertReleaseRecordable(ctx: CommandContext, row: Request, day: string): void {
  if (row.requestType !== 'credentialing') throw invalid(SIGNED_RELEASE_MESSAGES.credentialingOnly);
  if (isFinished(row.status as RequestStatus)) throw invalid('This request is finished');
  if (!row.requestNumber || !row.submitDate) throw invalid('A signed release is recorded once the request is submitted');
  const error = signedReleaseDateError(day, zonedDay(Date.now(), ctx.clockPolicy.calendar.timeZone), ctx.clockPolicy.releaseValidityDays);
  if (error) throw invalid(MESSAGES.fieldValidation, { signedReleaseDate: error });
}

const storedDay = (value: unknown): string | null =>
  value == null ? null : value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);

/** `PATCH /requests/:id`: answers the request as stored after the command (status included). */
export async function patchRequest(ctx: CommandContext, id: number, body: PatchRequestBody): Promise<Request> {
  const row = await findVisibleRequest(ctx.em, ctx.user, id);
  const { status, version, ...rest } = body;
  const { verified: _verified, internalNotes: _notes, signedReleaseDate: _release, ...form } = rest;
  const current = row.status as RequestStatus;
  const loadedVersion = row.version; // before this call's own form changes bump it
  const seenVersion = version ?? loadedVersion;
  assertMayPatch(ctx.user, current, body);
  await saveFormFields(ctx, row, form);
  if (isSubmit(current, status)) await submit(ctx, row, loadedVersion, seenVersion);
  else if (ctx.user.isAdmin) await saveAsAdministrator(ctx, row, body, seenVersion, loadedVersion);
  // The workflow wrote the status through its own connection: read the row afresh.
  return ctx.em.fork().findOneOrFail(RequestSchema, row.id);
}

// ---- delete ----------------------------------------------------------------------------------------------------

/**
 * Deletes the caller's own never-submitted draft (spec 1 §6: "one's own", administrators included) with everything
 * attached to it (spec 2 §7.3: "It also removes the associated claim history, discussions and documents"): its
 * documents and their files, discussions, audit rows, claim-history links, pending effects, and its workflow if a
 * discussion started one. Answers the request as it was.
 */
export async function deleteDraft(ctx: CommandContext, id: number): Promise<RequestRecord> {
  const row = await findVisibleRequest(ctx.em, ctx.user, id);
  if (row.status !== STATUS.draft) throw invalid('Only draft requests can be deleted');
  // Every draft has its number from creation. A draft that was ever submitted (a reopened request) keeps its number
  // and its workflow: it goes back through review, it is not thrown away.
  if (row.submitDate) throw invalid('A reopened request cannot be deleted');
  if (row.requesterId !== ctx.user.id) throw forbidden('Only the requester can delete this draft');
  const documents = await ctx.em.find(DocumentSchema, { requestId: row.id });
  const result = requestForCaller(ctx.user, row);
  if (row.requestNumber) await endDraftWorkflow(ctx.workflows, row.requestNumber);
  await ctx.em.transactional(async (em) => {
    const requestId = row.id;
    // An activity of the workflow just ended may still be finishing its call: marking an email sent locks the
    // effect row, then writes an audit row (which key-shares the request). Locks in that order (the effects, then the
    // request) wait for such a write and then delete its row too, without a deadlock; a child row written after the
    // request lock waits for this transaction and is refused by its foreign key (Migration20261126040000_request_foreign_keys).
    await em.find(RequestEffectSchema, { requestId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    // Under the lock, the row is checked again: a second Delete that waited finds it gone (404), and a draft
    // submitted meanwhile is no longer one to throw away.
    const locked = await em.findOne(RequestSchema, requestId, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!locked) throw notFound('Request not found');
    if (locked.status !== STATUS.draft || locked.submitDate) throw invalid('Only draft requests can be deleted');
    for (const schema of [DiscussionSchema, RequestActivitySchema, ClaimHistorySchema, RequestEffectSchema, DocumentSchema]) {
      await em.nativeDelete(schema as typeof DocumentSchema, { requestId });
    }
    await em.nativeDelete(RequestSchema, { id: requestId });
  });
  await Promise.all(documents.map((d) => ctx.files.remove(d.storedName)));
  return result;
}

// ---- send an email ---------------------------------------------------------------------------------------------

/** `retryOf` must be an "email failed" entry (one with an effect) of this very request. */
async function assertRetryable(ctx: CommandContext, requestId: number, activityId: number): Promise<void> {
  const entry = await ctx.em.findOne(RequestActivitySchema, { id: activityId, requestId });
  if (!entry?.effectId) throw invalid('Only a failed email of this request can be sent again', { retryOf: 'Not a failed email of this request' });
}

/**
 * `POST /send-email`: an administrator sends a template email for a submitted request through its workflow
 * (audited, idempotent). A new send gets a fresh nonce; a retry of a failed email is keyed by that entry, so
 * pressing "Send again" twice sends one email.
 */
export async function sendTemplateEmail(ctx: CommandContext, body: SendEmailBody): Promise<SendEmailAccepted> {
  if (!ctx.user.isAdmin) throw forbidden('Administrators only');
  const row = await ctx.em.findOne(RequestSchema, body.requestId);
  if (!row) throw notFound(`No record found for id '${body.requestId}'`);
  if (!row.requestNumber || (row.status === STATUS.draft && !row.submitDate)) throw invalid('This request has not been submitted yet: there is no email to send');
  if (body.retryOf) await assertRetryable(ctx, row.id, body.retryOf);
  // What a revocation email says comes from the revocation: it is sent again after a failure, never on demand.
  else if (body.templateTitle === CERTIFICATE_REVOKED_TEMPLATE) throw invalid(REVOKED_EMAIL_ON_DEMAND, { templateTitle: REVOKED_EMAIL_ON_DEMAND });
  else if (body.templateTitle === CERTIFICATE_RENEWED_TEMPLATE || body.templateTitle === RENEWAL_QUESTION_TEMPLATE) {
    throw invalid(RENEWAL_MESSAGES.emailOnDemand, { templateTitle: RENEWAL_MESSAGES.emailOnDemand });
  }
  let recipients: string[] | null = null;
  if (body.recipients !== undefined && !body.retryOf) {
    const parsed = onDemandRecipients(row.requesterEmail, body.recipients);
    if (parsed.invalid.length) {
      const message = `${parsed.invalid.map((a) => `"${a}"`).join(', ')} ${parsed.invalid.length > 1 ? 'are not valid email addresses' : 'is not a valid email address'}`;
      throw invalid(message, { recipients: message });
    }
    if (!parsed.recipients.length) throw invalid('Name at least one recipient', { recipients: 'Name at least one recipient' });
    recipients = parsed.recipients;
  }
  const nonce = body.retryOf ? '' : randomUUID();
  return sendEmail(
    ctx.workflows, workflowRowOf(row, row.requestNumber, row.version),
    { templateTitle: body.templateTitle, retryOf: body.retryOf, actor: actorOf(ctx.user), recipients }, nonce,
  );
}
