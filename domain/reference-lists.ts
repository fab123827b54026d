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
export const AUTO_LIABILITY_CERTIFICATE: CertificateType = 'Auto Liability';

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

export const US_STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA',
  'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR',
  'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
] as const;

/** Auto liability kinds (spec 2 §9.3): Rental, or Vehicle Fleet (New/Leased Fleet Vehicle). */
export const AUTO_TYPES = ['Rental', 'New/Leased Fleet Vehicle'] as const;
export const RENTAL_AUTO_TYPE = 'Rental';
export const FLEET_AUTO_TYPE = 'New/Leased Fleet Vehicle';
/** "Contracts: Contracts and Leases". */
export const CONTRACT_LEASE_TYPES = ['Contract', 'Lease'] as const;

/** The choice of each list below that reveals a required free-text field. */
export const OTHER_CHOICE = {
  vehicleLocation: 'Off-Campus Location/Other',
  vehicleOwningDept: 'Other',
  vehicleType: 'Other',
  providerReason: 'Other',
  propertyReason: 'Other',
} as const;

export const VEHICLE_LOCATIONS = ['Main Campus', 'West Campus', 'South Waterfront Campus', 'Off-Campus Location/Other'] as const;
export const VEHICLE_OWNING_DEPTS = ['ONPRC/West Campus', 'Facilities', 'Logistics', 'Other'] as const;
/** As listed in spec 2 §9.3 (the list's own spelling "SUV/Cossover" is kept: stored values must match). */
export const VEHICLE_TYPES = [
  'Golf Cart', 'Mobile Clinic Vehicle/Motorhome', 'Panel Van/Box Van', 'Passenger Van', 'Police Vehicle', 'RTV', 'Sedan',
  'Snow Plow', 'SUV/Cossover', 'Truck', 'Utility Vehicle', 'Other',
] as const;
export const EVENT_TYPES = [
  'Camp', 'Community Health Outreach/Screening', 'Community Service', `Conference (${PRODUCT_NAME} Hosted)`,
  'Immunization Clinic', 'Run/Walk (misc first aid)', 'Social Event', 'Sporting Event',
] as const;
export const PROPERTY_REASONS = ['Equipment', 'Real Estate', 'Other'] as const;
export const YES_NO = ['Yes', 'No'] as const;

/** Employee IS codes used for non-employees in the directory (spec 2 §9.3). */
export const NON_EMPLOYEE_IS_CODES = [
  { code: '111111', label: 'Other Attending' },
  { code: '111222', label: 'VAMC Attending' },
  { code: '12345', label: 'Student' },
  { code: '99999', label: 'Volunteers' },
  { code: '22222', label: 'Not yet at the university' },
] as const;
export const STUDENT_IS_CODE = '12345';
export type PersonRole = 'Clinician' | 'Employee' | 'Event Organizer' | 'Provider' | 'Supervisor';

/** A certificate's subtype as letters, lists and emails name it: "Auto Liability: Rental", "Event", … */
export const certificateSubtypeLabel = (certificateType: string | null | undefined, autoType: string | null | undefined): string =>
  certificateType === 'Auto Liability' && autoType ? `Auto Liability: ${autoType}` : certificateType ?? '';
