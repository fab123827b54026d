/**
 * Email templates as administrators edit them (spec 1 §5): the variables and helpers a template may use, their
 * values for a request (the worker's snapshot and the preview), the form's field errors.
 */
import { EMAIL_BODY_MAX, EMAIL_SUBJECT_MAX } from './limits';
import { MESSAGES } from './messages';
import { PRODUCT_NAME, REQUEST_TYPE_LABEL, type RequestType } from './reference-lists';

/**
 * The handlebars variables every email template may use. The worker's snapshot (activities/effects/
 * request-snapshot.ts) is typed by this list, so a template the API accepts can always be rendered.
 */
export const TEMPLATE_VARIABLES = [
  'productName', 'requesterName', 'requestNumber', 'requestTypeLabel', 'clinicianName', 'status', 'requestUrl', 'portalUrl',
  'certificateType', 'certificateHolder', 'additionalInformation',
] as const;
type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

/** The request fields the variables are made of. */
interface TemplateRequestFields {
  id: number; requestNumber?: number | null; requestType: string; status: string;
  requesterName?: string | null; requesterEmail?: string | null;
  firstName?: string | null; middleInitial?: string | null; lastName?: string | null;
  certificateType?: string | null; certificateHolder?: string | null;
}

/** The values of TEMPLATE_VARIABLES for a request (the snapshot's variables, and the template preview's). */
export function templateVariablesOf(request: TemplateRequestFields, publicUrl: string): Record<TemplateVariable, string | number> {
  return {
    productName: PRODUCT_NAME,
    requesterName: request.requesterName ?? request.requesterEmail ?? '',
    requestNumber: request.requestNumber ?? '',
    requestTypeLabel: REQUEST_TYPE_LABEL[request.requestType as RequestType] ?? request.requestType,
    clinicianName: [request.firstName, request.middleInitial, request.lastName].filter(Boolean).join(' '),
    status: request.status,
    requestUrl: `${publicUrl}/requests/${request.requestType}/${request.id}`,
    portalUrl: publicUrl,
    certificateType: request.certificateType ?? '',
    certificateHolder: request.certificateHolder ?? '',
    // What a particular email asks of the requester (an expired signed release); empty in every other email.
    additionalInformation: '',
  };
}

/** The sample request a template preview is rendered with when no request is named. */
export const SAMPLE_TEMPLATE_REQUEST: TemplateRequestFields = {
  id: 1, requestNumber: 50123, requestType: 'credentialing', status: 'Submitted', requesterName: 'Casey Requester',
  requesterEmail: 'requester@hospital.example', firstName: 'Avery', middleInitial: 'J', lastName: 'Nguyen',
};

/** Block helpers a template may use around the variables. */
export const TEMPLATE_HELPERS = ['if', 'unless', 'with'] as const;

export function emailTemplateErrors(input: { subject?: string; body?: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const subject = input.subject?.trim() ?? '';
  const body = input.body?.trim() ?? '';
  if (!subject) errors.subject = MESSAGES.required;
  else if (subject.length > EMAIL_SUBJECT_MAX) errors.subject = `Subject cannot be longer than ${EMAIL_SUBJECT_MAX} characters`;
  if (!body) errors.body = MESSAGES.required;
  else if (body.length > EMAIL_BODY_MAX) errors.body = `Body cannot be longer than ${EMAIL_BODY_MAX} characters`;
  return errors;
}

export const unknownVariableMessage = (names: string[]) =>
  `Unknown variable${names.length > 1 ? 's' : ''} ${names.map((n) => `{{${n}}}`).join(', ')}. Use only: ${TEMPLATE_VARIABLES.map((n) => `{{${n}}}`).join(', ')}.`;
