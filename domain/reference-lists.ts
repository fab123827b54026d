/** Reference lists of spec 2 §9.3. `{product}` is the university's product name. */
export const PRODUCT_NAME = 'OHSU';

export const REQUEST_TYPE = { credentialing: 'credentialing', certificate: 'certificate' } as const;
export type RequestType = (typeof REQUEST_TYPE)[keyof typeof REQUEST_TYPE];

export const REQUEST_TYPE_LABEL: Record<RequestType, string> = {
  credentialing: 'Claim History and Insurance Verification',
  certificate: 'Certificate of Insurance',
};

export const CERTIFICATE_TYPES = ['Clinician', 'Auto Liability', 'Contracts/Lease', 'Event', 'Provider', 'Property'] as const;
export type CertificateType = (typeof CERTIFICATE_TYPES)[number];
export const CONTRACTS_CERTIFICATE: CertificateType = 'Contracts/Lease';

/** Dashboard "Filter By Request Type" options (spec 1 §2). */
export const REQUEST_TYPE_FILTERS = [
  'Claim History and Insurance Verification',
  'COI Request: Auto Liability',
  'COI Request: Rental',
  'COI Request: Contracts/Lease',
  'COI Request: Event',
  'COI Request: Clinician',
  'COI Request: Provider',
  'COI Request: Property',
] as const;

/** Claim-history (credentialing) provider types and reasons. */
export const CLAIM_HISTORY_PROVIDER_TYPES = [
  'Current Employee/Fellow/Resident',
  'Current Student',
  'Former Employee/Fellow/Resident',
  'Former Student',
] as const;

export const CLAIM_HISTORY_REASONS = [
  `${PRODUCT_NAME}-related activities`,
  'Licensing in another state',
  'Future employment',
  'Payor/Insurance credentialing',
  'Telemedicine/Telehealth',
] as const;

export const PROVIDER_TYPES = ['Current Employee/Fellow/Resident', 'Current Student'] as const;
export const PROVIDER_REASONS = [
  'CAQH requirements',
  'NCQA requirements',
  'NPDB requirements',
  `Future employment at non-${PRODUCT_NAME} location`,
  'Licensing in another state',
  'New policy year renewal',
  `${PRODUCT_NAME} provider working at non-${PRODUCT_NAME} facility`,
  'Payor/Insurance credentialing',
  'Resident rotation',
  'Telemedicine/Telehealth',
  'Other',
] as const;

export const PERSON_ROLES = ['Clinician', 'Employee', 'Event Organizer', 'Provider', 'Supervisor'] as const;
export const EMPLOYER_TYPES = ['external', 'internal'] as const;
export type EmployerType = (typeof EMPLOYER_TYPES)[number];

export const US_STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA',
  'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR',
  'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
] as const;
