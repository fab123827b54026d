/** JSON Schemas (ajv) of request payloads. Limits come from domain/. */
import { ADDL_RECIPIENTS_MAX, ALL_STATUSES, INTERNAL_NOTES_MAX, REQUEST_TYPE, TEXT_MAX } from '../../domain';

const text = { type: ['string', 'null'], maxLength: TEXT_MAX } as const;
const date = { type: ['string', 'null'], format: 'date-time' } as const;

/** Fields a requester types on the credentialing form (spec 1 §3 "Clinician or person", "Claim-history request"). */
export const FORM_FIELDS = {
  employeeId: text, title: text, lastName: text, firstName: text,
  middleInitial: { type: ['string', 'null'], maxLength: 2 },
  altName: text, email: text, birthDate: date, dateFrom: date, dateTo: date,
  providerType: text, reason: text, reasonOther: text, licensingState: text, facilityName: text,
  recipientEmail: text, addlRecipients: { type: ['string', 'null'], maxLength: ADDL_RECIPIENTS_MAX },
  credentialingCompany: text,
} as const;
export const FORM_FIELD_NAMES = Object.keys(FORM_FIELDS) as (keyof typeof FORM_FIELDS)[];
export const DATE_FIELDS = ['birthDate', 'dateFrom', 'dateTo'] as const;

export const createRequestBody = {
  type: 'object',
  required: ['requestType'],
  additionalProperties: false,
  properties: {
    requestType: { type: 'string', enum: Object.values(REQUEST_TYPE) },
    certificateType: text,
    ...FORM_FIELDS,
  },
} as const;

export const patchRequestBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...FORM_FIELDS,
    status: { type: 'string', enum: ALL_STATUSES },
    verified: { type: 'boolean' },
    internalNotes: { type: ['string', 'null'], maxLength: INTERNAL_NOTES_MAX },
    /** the request version the caller saw: a command pressed again on the same version is answered like the first */
    version: { type: 'integer', minimum: 1 },
  },
} as const;

export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1 } },
} as const;
