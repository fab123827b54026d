/**
 * Every request kind's form, declared once (spec 1 §3 and §5, spec 2 §9.3): sections, fields, labels, reference
 * lists, when a field shows, when it is required, its rule and its message. `domain/request-rules.ts` compiles a
 * kind into a JSON Schema (ajv + ajv-errors) that the API validates a submit with and the UI marks fields with;
 * the UI renders the certificate forms and view pages from the same definitions. docs/REQUEST-FIELDS.md is the
 * readable table of these definitions.
 *
 * Pure data and small pure helpers: no ajv here (this file bundles into the workflow sandbox through the index).
 */
import { QUOTAS, QUOTA_MESSAGES } from './abuse-limits';
import { MESSAGES } from './messages';
import { TIME_OF_DAY_MESSAGE, TIME_OF_DAY_OPTIONS } from './time-of-day';
import {
  AUTO_TYPES, CERTIFICATE_TYPES, CLAIM_HISTORY_PROVIDER_TYPES, CLAIM_HISTORY_REASONS, CONTRACT_LEASE_TYPES, EVENT_TYPES,
  FLEET_AUTO_TYPE, OTHER_CHOICE, PROPERTY_REASONS, PROVIDER_REASONS, PROVIDER_TYPES, RENTAL_AUTO_TYPE, US_STATES,
  VEHICLE_LOCATIONS, VEHICLE_OWNING_DEPTS, VEHICLE_TYPES, YES_NO, type CertificateType, type PersonRole,
} from './reference-lists';

export const TEXT_MAX = 200;
const MIDDLE_INITIAL_MAX = 1;
export const LONG_TEXT_MAX = 1000;
const LICENSING_REASON = 'Licensing in another state';

/** The form as typed: text, mm/dd/yyyy dates, Yes/No as text, checkboxes as booleans. */
type FormValue = string | boolean | undefined;
export type RequestFormValues = Record<string, FormValue>;

type FieldKind =
  | 'text' | 'textarea' | 'email' | 'emailList' | 'phone' | 'date' | 'time' | 'select' | 'yesNo' | 'checkbox' | 'year' | 'vin';

/** A field's value equals one of `equals`, or the caller is (not) external. */
export type Condition =
  | { field: string; equals: readonly (string | boolean)[] }
  | { context: 'isExternal' }
  | { all: readonly Condition[] };

export interface FieldDefinition {
  name: string;
  label: string;
  kind: FieldKind;
  options?: readonly string[];
  /** true: required whenever shown; a condition: required (when shown) only then */
  required?: boolean | Condition;
  /** shown (and validated, and kept) only while this holds */
  visibleWhen?: Condition;
  hint?: string;
  maxLength?: number;
  /** only administrators see and set it (admin edit) */
  adminOnly?: boolean;
  /** message when the value does not follow the field's rule (format, list, checkbox) */
  ruleMessage?: string;
  /** an email list: at most this many addresses, with `maxItemsMessage` */
  maxItems?: number;
  maxItemsMessage?: string;
  /** a confirmation given for this request alone (it vouches for the documents attached to it): a clone starts without it */
  perRequest?: boolean;
}

export interface SectionDefinition { title: string; fields: FieldDefinition[]; note?: string }

/**
 * A period of two date fields: start not after end; optionally not before 7/1/2002 and not after today. With
 * `fromTime`/`toTime` (time fields, `HH:mm`), a period of one day also ends no earlier than it starts. The UI picks
 * the two dates together on one calendar (spec 1 §4 "Date range picking").
 */
export interface PeriodRule { from: string; to: string; pastOnly?: boolean; fromTime?: string; toTime?: string }

export interface RequestKindDefinition {
  key: string;
  title: string;
  sections: SectionDefinition[];
  periods: PeriodRule[];
  /** at least one supporting document before submit, with the hint shown above the document list */
  documents: { required: boolean; hint: string };
  /** the role of the person the request names (people search), when it names one */
  personRole: PersonRole | null;
  /** the request recipient section shows (hidden for rentals) */
  showRecipient: boolean;
}

// ---- building blocks -------------------------------------------------------------------------------------------

/**
 * A field whose name and kind stay literal types: the contract types request bodies and records by them
 * (contract/request.schema.ts), so a field declared here is a typed property there.
 */
type Field<N extends string, K extends FieldKind> = FieldDefinition & { name: N; kind: K };
type Extra = Omit<Partial<FieldDefinition>, 'name' | 'kind'>;

/** A field written out in full, its name and kind kept literal. */
const field = <const F extends FieldDefinition>(f: F): F & FieldDefinition => f;
const when = (field: string, ...equals: (string | boolean)[]): Condition => ({ field, equals });
const text = <N extends string>(name: N, label: string, extra: Extra = {}): Field<N, 'text'> =>
  ({ name, label, kind: 'text', maxLength: TEXT_MAX, ...extra });
const required = <F extends FieldDefinition>(f: F): F & { required: true } => ({ ...f, required: true });
const select = <N extends string>(name: N, label: string, options: readonly string[], extra: Extra = {}): Field<N, 'select'> =>
  ({ name, label, kind: 'select', options, required: true, ruleMessage: MESSAGES.fieldValidation, ...extra });
const date = <N extends string>(name: N, label: string, extra: Extra = {}): Field<N, 'date'> =>
  ({ name, label, kind: 'date', required: true, hint: 'mm/dd/yyyy', ruleMessage: MESSAGES.requestDateFormat, ...extra });
/**
 * A time of day in 30-minute steps (spec 2 §9.1), `HH:mm`. Optional: requests stored before times existed have none,
 * and a period of whole days needs none.
 */
const time = <N extends string>(name: N, label: string, extra: Extra = {}): Field<N, 'time'> =>
  ({ name, label, kind: 'time', options: TIME_OF_DAY_OPTIONS.map((o) => o.value), ruleMessage: TIME_OF_DAY_MESSAGE, ...extra });
const yesNo = <N extends string>(name: N, label: string, extra: Extra = {}): Field<N, 'yesNo'> =>
  ({ name, label, kind: 'yesNo', options: YES_NO, required: true, ruleMessage: MESSAGES.fieldValidation, ...extra });
const email = <N extends string>(name: N, label: string, extra: Extra = {}): Field<N, 'email'> =>
  ({ name, label, kind: 'email', maxLength: TEXT_MAX, ruleMessage: MESSAGES.invalidEmail, ...extra });
/** A select whose Other choice reveals a required free-text field `otherName`. */
const withOther = <F extends FieldDefinition, O extends string>(f: F, other: string, otherName: O, otherLabel = `${f.label}: Other`) =>
  [f, required(text(otherName, otherLabel, { visibleWhen: when(f.name, other) }))] as const;

/** Recorded when an internal requester picks the person from the directory (wake-ups match by it first). */
const employeeIdField = () => text('employeeId', 'Employee ID', { hint: 'Filled in when the person is picked from the directory' });

/**
 * The person a certificate names (picked from the directory by internal requesters, typed by external ones). With
 * more than one role the requester chooses the person's role (`personRole`, stored on the request; the first is the
 * kind's own `personRole`).
 */
const personFields = (roles: readonly PersonRole[] = []) => [
  ...(roles.length > 1 ? [select('personRole', 'Person Role', roles)] : []),
  employeeIdField(),
  required(text('lastName', 'Last Name')),
  required(text('firstName', 'First Name')),
  text('middleInitial', 'Middle Initial', { maxLength: MIDDLE_INITIAL_MAX, ruleMessage: `Maximum ${MIDDLE_INITIAL_MAX} character` }),
  text('title', 'Title'),
  email('email', 'Email Address'),
  field({ name: 'workPhone', label: 'Work Phone', kind: 'phone', maxLength: 12, hint: 'Like 503-123-1234', ruleMessage: MESSAGES.phoneFormat }),
];

const holderSection = () => ({
  title: 'Certificate Holder',
  note: 'Additional insureds cannot be named on a certificate: name the certificate holder only.',
  fields: [
    required(text('certificateHolder', 'Certificate Holder (organization name)')),
    required(field({ name: 'certificateHolderAddress', label: 'Certificate Holder Address', kind: 'textarea', maxLength: TEXT_MAX })),
    email('certificateHolderEmail', 'Certificate Holder Email'),
  ],
});

const recipientSection = () => ({
  title: 'Request Recipient',
  fields: [
    email('recipientEmail', 'Email Address of Recipient if NOT the Requester'),
    field({
      name: 'addlRecipients', label: 'Additional Recipients', kind: 'emailList', hint: 'Separate addresses with spaces, commas or semicolons',
      ruleMessage: MESSAGES.invalidEmail, maxItems: QUOTAS.additionalRecipients, maxItemsMessage: QUOTA_MESSAGES.additionalRecipients,
    }),
  ],
});

const coveragePeriod = () => [date('dateFrom', 'Coverage Start Date'), date('dateTo', 'Coverage End Date')];

const internalContact = () => required(text('internalContact', 'Internal Contact (name and phone)'));

// ---- the kinds -------------------------------------------------------------------------------------------------

export const CREDENTIALING_KIND = {
  key: 'credentialing',
  title: 'Claim History and Insurance Verification',
  personRole: 'Clinician',
  showRecipient: true,
  documents: { required: true, hint: 'A signed release dated within the last 180 days, or a dated letter, is required.' },
  periods: [{ from: 'dateFrom', to: 'dateTo', pastOnly: true }],
  sections: [
    {
      title: 'Clinician Information',
      fields: [
        employeeIdField(),
        required(text('lastName', 'Last Name')),
        required(text('firstName', 'First Name')),
        text('middleInitial', 'Middle Initial', { maxLength: MIDDLE_INITIAL_MAX, ruleMessage: `Maximum ${MIDDLE_INITIAL_MAX} character` }),
        text('altName', 'Alternate or Previous Name'),
        email('email', 'Clinician Email'),
        date('birthDate', 'Date of Birth', { required: { context: 'isExternal' } }),
      ],
    },
    {
      title: 'Request Information',
      fields: [
        date('dateFrom', 'Start Date', { hint: 'After July 1, 2002 (mm/dd/yyyy)' }),
        date('dateTo', 'End Date'),
        select('providerType', 'Provider Type', CLAIM_HISTORY_PROVIDER_TYPES),
        select('reason', 'Reason for Request', CLAIM_HISTORY_REASONS),
        select('licensingState', 'Licensing State', US_STATES, { visibleWhen: when('reason', LICENSING_REASON) }),
        text('facilityName', 'Requesting Facility'),
      ],
    },
    {
      // Spec 1 §2 names the section, not its content: the clinician's authorization to release their claim history,
      // which the signed release (or dated letter) attached to the request documents.
      title: 'Authorization',
      fields: [field({
        name: 'releaseAuthorized', kind: 'checkbox', required: true, perRequest: true,
        label: 'I confirm that the clinician has authorized the release of their claim history and insurance information, '
          + 'by the signed release (dated within the last 180 days) or dated letter attached to this request.',
        ruleMessage: 'Please confirm the clinician’s authorization',
      })],
    },
    recipientSection(),
  ],
} satisfies RequestKindDefinition;

const CLINICIAN_KIND = {
  key: 'Clinician',
  title: 'Clinician',
  personRole: 'Clinician',
  showRecipient: true,
  documents: { required: false, hint: 'Attach the facility’s request letter or form if you have one.' },
  periods: [{ from: 'dateFrom', to: 'dateTo' }],
  sections: [
    { title: 'Clinician Information', fields: personFields() },
    { title: 'Coverage', fields: [...coveragePeriod(), text('facilityName', 'Facility Where the Clinician Will Work')] },
    holderSection(),
    recipientSection(),
  ],
} satisfies RequestKindDefinition;

const PROVIDER_KIND = {
  key: 'Provider',
  title: 'Provider',
  personRole: 'Provider',
  showRecipient: true,
  documents: { required: false, hint: 'Attach the credentialing or payor request if you have one.' },
  periods: [{ from: 'dateFrom', to: 'dateTo' }],
  sections: [
    { title: 'Provider Information', fields: personFields() },
    {
      title: 'Request Information',
      fields: [
        select('providerType', 'Provider Type', PROVIDER_TYPES),
        ...withOther(select('reason', 'Reason for Request', PROVIDER_REASONS), OTHER_CHOICE.providerReason, 'reasonOther', 'Describe the Reason'),
        select('licensingState', 'Licensing State', US_STATES, { visibleWhen: when('reason', LICENSING_REASON) }),
        ...coveragePeriod(),
        text('facilityName', 'Facility Name'),
      ],
    },
    holderSection(),
    recipientSection(),
  ],
} satisfies RequestKindDefinition;

const isRental = when('autoType', RENTAL_AUTO_TYPE);
const isFleet = when('autoType', FLEET_AUTO_TYPE);
const vehicleBlock = () => [
  field({ name: 'vehicleYear', label: 'Vehicle Year', kind: 'year', maxLength: 4, required: true, hint: 'yyyy', ruleMessage: 'Please enter a four-digit year' }),
  required(text('vehicleMake', 'Vehicle Make')),
  required(text('vehicleModel', 'Vehicle Model')),
  text('vehicleColor', 'Vehicle Color'),
  field({ name: 'vehicleIdNumber', label: 'Vehicle Identification Number (VIN)', kind: 'vin', maxLength: 17, required: true, hint: '17 characters', ruleMessage: 'A VIN has 17 letters and digits (no I, O or Q)' }),
  text('plateNumber', 'License Plate Number'),
  ...withOther(select('vehicleLocation', 'Vehicle Location', VEHICLE_LOCATIONS), OTHER_CHOICE.vehicleLocation, 'vehicleLocationOther', 'Other Vehicle Location'),
  ...withOther(select('vehicleOwningDept', 'Owning Department', VEHICLE_OWNING_DEPTS), OTHER_CHOICE.vehicleOwningDept, 'vehicleOwningDeptOther', 'Other Owning Department'),
  ...withOther(select('vehicleType', 'Vehicle Type', VEHICLE_TYPES), OTHER_CHOICE.vehicleType, 'vehicleTypeOther', 'Other Vehicle Type'),
  field({ name: 'vehicleDecommissioned', label: 'Vehicle decommissioned', kind: 'checkbox', adminOnly: true }),
  field({ name: 'vehicleTransferred', label: 'Vehicle transferred', kind: 'checkbox', adminOnly: true }),
];

const AUTO_LIABILITY_PERSON_ROLES: readonly PersonRole[] = ['Employee', 'Supervisor'];

const AUTO_LIABILITY_KIND = {
  key: 'Auto Liability',
  title: 'Auto Liability',
  personRole: 'Employee',
  showRecipient: true,
  documents: { required: false, hint: 'Attach the rental agreement or the vehicle’s purchase or lease papers if you have them.' },
  periods: [{ from: 'rentalStartDate', to: 'rentalEndDate', fromTime: 'rentalStartTime', toTime: 'rentalEndTime' }],
  sections: [
    { title: 'Auto Liability', fields: [select('autoType', 'Auto Liability Type', AUTO_TYPES)] },
    {
      title: 'Rental',
      fields: [
        { ...required(text('driverName', 'Driver Name')), visibleWhen: isRental },
        { ...required(text('rentalCompany', 'Rental Company')), visibleWhen: isRental },
        { ...required(text('pickUpAddress', 'Pick-up Address')), visibleWhen: isRental },
        date('rentalStartDate', 'Rental Start Date', { visibleWhen: isRental }),
        time('rentalStartTime', 'Rental Start Time', { visibleWhen: isRental }),
        date('rentalEndDate', 'Rental End Date', { visibleWhen: isRental }),
        time('rentalEndTime', 'Rental End Time', { visibleWhen: isRental }),
        text('vehicleIdNumber', 'Vehicle Identification Number (VIN), if known', { visibleWhen: isRental, maxLength: 17 }),
        field({
          name: 'acknowledgedApproval', kind: 'checkbox', visibleWhen: isRental, required: true,
          label: 'I confirm my department approved this rental and that it is for university business only.',
          ruleMessage: 'Please confirm the rental is approved',
        }),
      ],
    },
    {
      title: 'Vehicle',
      fields: [
        ...vehicleBlock().map((f) => ({ ...f, visibleWhen: f.visibleWhen ? { all: [isFleet, f.visibleWhen] } : isFleet })),
        { ...internalContact(), visibleWhen: isFleet },
      ],
    },
    // The one kind that offers the Supervisor role (spec 1 §3 lists it; which kind names one is not shown): the
    // person answering for a rental or a fleet vehicle may be the employee or the employee's supervisor.
    { title: 'Employee Responsible', fields: personFields(AUTO_LIABILITY_PERSON_ROLES) },
    holderSection(),
    { ...recipientSection(), fields: recipientSection().fields.map((f) => (f.name === 'recipientEmail' ? { ...f, visibleWhen: isFleet } : f)) },
  ],
} satisfies RequestKindDefinition;

const isContract = when('contractLeaseType', 'Contract');
const isLease = when('contractLeaseType', 'Lease');
const CONTRACTS_LEASE_KIND = {
  key: 'Contracts/Lease',
  title: 'Contracts/Lease',
  personRole: null,
  showRecipient: true,
  documents: { required: true, hint: 'Attach the contract or lease (at least one document is required).' },
  periods: [],
  sections: [
    {
      title: 'Contract or Lease',
      fields: [
        select('contractLeaseType', 'Contract or Lease', CONTRACT_LEASE_TYPES),
        required(text('contractNumber', 'Contract Number', { visibleWhen: isContract })),
        required(text('leaseNumber', 'Lease Number', { visibleWhen: isLease })),
        date('leaseExpirationDate', 'Lease Expiration Date', { visibleWhen: isLease }),
        text('ocaNumber', 'Off-Campus Authorization (OCA) Number'),
        yesNo('isForLeasedProperty', 'Is this for leased property?'),
        required(text('leasedPropertyName', 'Leased Property Name', { visibleWhen: when('isForLeasedProperty', 'Yes') })),
        required(text('leasedPropertyAddress', 'Leased Property Address', { visibleWhen: when('isForLeasedProperty', 'Yes') })),
        text('buildingNumber', 'Building Number', { visibleWhen: when('isForLeasedProperty', 'Yes') }),
        internalContact(),
      ],
    },
    holderSection(),
    recipientSection(),
  ],
} satisfies RequestKindDefinition;

const EVENT_KIND = {
  key: 'Event',
  title: 'Event',
  personRole: 'Event Organizer',
  showRecipient: true,
  documents: { required: true, hint: 'A copy of the event contract, permit or lease is required.' },
  periods: [{ from: 'eventStartDate', to: 'eventEndDate', fromTime: 'eventStartTime', toTime: 'eventEndTime' }],
  sections: [
    {
      title: 'Event',
      fields: [
        required(text('eventName', 'Event Name')),
        select('eventType', 'Event Type', EVENT_TYPES),
        required(text('eventLocation', 'Event Location (name and address)')),
        required(field({ name: 'eventDescription', label: 'Event Description', kind: 'textarea', maxLength: LONG_TEXT_MAX })),
        date('eventStartDate', 'Event Start Date'),
        time('eventStartTime', 'Event Start Time'),
        date('eventEndDate', 'Event End Date'),
        time('eventEndTime', 'Event End Time'),
        yesNo('eventPatientCare', 'Will patient care be provided at the event?'),
        required(field({ name: 'eventPatientCareDetail', label: 'Describe the patient care and who provides it', kind: 'textarea', maxLength: LONG_TEXT_MAX, visibleWhen: when('eventPatientCare', 'Yes') })),
        yesNo('isProviderEmployRelated', 'Do providers take part as part of their university employment?'),
        text('ocaNumber', 'Off-Campus Authorization (OCA) Number'),
      ],
    },
    { title: 'Event Organizer', fields: personFields() },
    holderSection(),
    recipientSection(),
  ],
} satisfies RequestKindDefinition;

const isRealEstate = when('reason', 'Real Estate');
const PROPERTY_KIND = {
  key: 'Property',
  title: 'Property',
  personRole: null,
  showRecipient: true,
  documents: { required: false, hint: 'Attach the lease, loan or purchase agreement if you have it.' },
  periods: [],
  sections: [
    {
      title: 'Property',
      fields: [
        select('reason', 'Reason for Request', PROPERTY_REASONS),
        required(field({ name: 'reasonEquipment', label: 'Equipment Description', kind: 'textarea', maxLength: LONG_TEXT_MAX, visibleWhen: when('reason', 'Equipment') })),
        required(text('reasonOther', 'Describe the Reason', { visibleWhen: when('reason', OTHER_CHOICE.propertyReason) })),
        yesNo('newLeaseOrEquip', 'Is this a new lease or new equipment?'),
        required(text('lessorName', 'Lessor Name')),
        email('lessorEmail', 'Lessor Email'),
        text('lessorAddress', 'Lessor Address'),
        text('leasedPropertyName', 'Leased Building Name', { visibleWhen: isRealEstate }),
        text('buildingNumber', 'Building Number', { visibleWhen: isRealEstate }),
        required(text('leasedPropertyAddress', 'Building Address', { visibleWhen: isRealEstate })),
        text('contractNumber', 'Contract Number'),
        text('loanNumber', 'Lease/Loan Number'),
        internalContact(),
      ],
    },
    holderSection(),
    recipientSection(),
  ],
} satisfies RequestKindDefinition;

/** The certificate kinds as declared (their fields' names and kinds literal: FormField below). */
const DECLARED_CERTIFICATE_KINDS = {
  Clinician: CLINICIAN_KIND,
  Provider: PROVIDER_KIND,
  'Auto Liability': AUTO_LIABILITY_KIND,
  'Contracts/Lease': CONTRACTS_LEASE_KIND,
  Event: EVENT_KIND,
  Property: PROPERTY_KIND,
} satisfies Record<CertificateType, RequestKindDefinition>;

export const CERTIFICATE_KINDS: Record<CertificateType, RequestKindDefinition> = DECLARED_CERTIFICATE_KINDS;

/** The definition of a request's kind. */
export function requestKindOf(requestType: string, certificateType?: string | null): RequestKindDefinition {
  if (requestType === 'credentialing') return CREDENTIALING_KIND;
  const kind = (CERTIFICATE_KINDS as Record<string, RequestKindDefinition>)[certificateType ?? ''];
  if (!kind) throw new Error(`Unknown certificate type "${certificateType}"`);
  return kind;
}

export const isCertificateType = (value: unknown): value is CertificateType =>
  typeof value === 'string' && (CERTIFICATE_TYPES as readonly string[]).includes(value);

/** Every field of a kind, section order. */
export const fieldsOf = (kind: RequestKindDefinition): FieldDefinition[] => kind.sections.flatMap((s) => s.fields);

export interface ConditionContext { isExternal: boolean }

function conditionHolds(condition: Condition, values: RequestFormValues, ctx: ConditionContext): boolean {
  if ('context' in condition) return ctx[condition.context];
  if ('all' in condition) return condition.all.every((c) => conditionHolds(c, values, ctx));
  return condition.equals.includes(values[condition.field] as string | boolean);
}

/** Is the field shown for these values? (A field of a hidden choice is neither shown nor validated.) */
export const isShown = (field: FieldDefinition, values: RequestFormValues, ctx: ConditionContext & { isAdmin?: boolean }): boolean =>
  (!field.adminOnly || !!ctx.isAdmin) && (!field.visibleWhen || conditionHolds(field.visibleWhen, values, ctx));

export const isRequiredNow = (field: FieldDefinition, values: RequestFormValues, ctx: ConditionContext): boolean =>
  isShown(field, values, ctx) && (field.required === true || (typeof field.required === 'object' && conditionHolds(field.required, values, ctx)));

/** A field of any kind, as declared: its name and kind are literal types. */
export type FormField =
  (typeof CREDENTIALING_KIND | (typeof DECLARED_CERTIFICATE_KINDS)[CertificateType])['sections'][number]['fields'][number];

/**
 * A save's form values (domain/request-form-mapping.ts `formToPayload`), by declared name: a checkbox sends a boolean,
 * every other kind text (a date its ISO instant); null clears the field. The contract's request bodies take it as is.
 */
export type FormPayload = { [F in FormField as F['name']]?: F['kind'] extends 'checkbox' ? boolean | null : string | null };

/**
 * Every field name any kind uses, first declaration first (the API's payload and the request entity hold exactly
 * these).
 */
export const ALL_FORM_FIELDS: readonly FormField[] = (() => {
  const seen = new Map<string, FormField>();
  for (const kind of [CREDENTIALING_KIND, ...Object.values(DECLARED_CERTIFICATE_KINDS)]) {
    for (const section of kind.sections) for (const field of section.fields) if (!seen.has(field.name)) seen.set(field.name, field);
  }
  return [...seen.values()];
})();
