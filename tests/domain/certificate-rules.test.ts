/** Each certificate subtype's rules (domain/request-kinds.ts compiled by domain/request-rules.ts), with the spec's messages. */
import { describe, expect, it } from 'vitest';
import {
  CERTIFICATE_KINDS, CERTIFICATE_TYPES, DATE_RANGE_MESSAGES, MESSAGES, TIME_OF_DAY_MESSAGE, TIME_OF_DAY_OPTIONS, fieldsOf,
  formatTimeOfDay, isRequiredNow, requestKindOf, type RequestFormValues,
} from '../../domain';
import { formSchemaOf, validateRequestForm } from '../../domain/request-rules';

const ctx = { isExternal: false, today: '2026-11-22', documentCount: 1 };
const REQ = MESSAGES.required;
const validate = (type: string, form: RequestFormValues, over: Partial<typeof ctx> = {}) =>
  validateRequestForm(requestKindOf('certificate', type), form, { ...ctx, ...over });

const holder = { certificateHolder: 'Mercy Hospital', certificateHolderAddress: '1 Main St\nPortland, OR 97201' };
const person = { lastName: 'Nguyen', firstName: 'Ava' };
const VALID: Record<string, RequestFormValues> = {
  Clinician: { ...person, ...holder, dateFrom: '01/01/2027', dateTo: '06/30/2027' },
  Provider: { ...person, ...holder, providerType: 'Current Student', reason: 'CAQH requirements', dateFrom: '01/01/2027', dateTo: '02/01/2027' },
  'Auto Liability': {
    ...person, ...holder, personRole: 'Employee', autoType: 'Rental', driverName: 'Ava Nguyen', rentalCompany: 'Hertz', pickUpAddress: 'PDX Airport',
    rentalStartDate: '12/01/2026', rentalEndDate: '12/05/2026', acknowledgedApproval: true,
  },
  'Contracts/Lease': { ...holder, contractLeaseType: 'Contract', contractNumber: 'C-778', isForLeasedProperty: 'No', internalContact: 'Sam 503-494-1111' },
  Event: {
    ...person, ...holder, eventName: 'Health Fair', eventType: 'Community Service', eventLocation: 'Pioneer Square',
    eventDescription: 'Screenings', eventStartDate: '05/01/2027', eventEndDate: '05/01/2027', eventPatientCare: 'No', isProviderEmployRelated: 'Yes',
  },
  Property: { ...holder, reason: 'Real Estate', newLeaseOrEquip: 'Yes', lessorName: 'Acme Realty', leasedPropertyAddress: '2 Oak St', internalContact: 'Sam' },
};
const FLEET: RequestFormValues = {
  ...person, ...holder, personRole: 'Supervisor', autoType: 'New/Leased Fleet Vehicle', vehicleYear: '2024', vehicleMake: 'Ford', vehicleModel: 'Transit',
  vehicleIdNumber: '1FTBR1C80MKA12345', vehicleLocation: 'Main Campus', vehicleOwningDept: 'Facilities', vehicleType: 'Passenger Van',
  internalContact: 'Lee 503-494-2222',
};

describe('every certificate subtype (spec 1 §3, §5; docs/REQUEST-FIELDS.md)', () => {
  it.each(CERTIFICATE_TYPES)('%s: a complete form passes', (type) => {
    expect(validate(type, VALID[type])).toEqual({});
  });

  it.each(CERTIFICATE_TYPES)('%s: each required field of an empty form says "The field above is required"', (type) => {
    const kind = CERTIFICATE_KINDS[type];
    const errors = validate(type, {}, { documentCount: 0 });
    const required = fieldsOf(kind).filter((f) => isRequiredNow(f, {}, ctx)).map((f) => f.name);
    expect(required.length).toBeGreaterThan(0);
    for (const name of required) expect(errors[name], name).toBe(REQ);
    if (kind.documents.required) expect(errors.documents).toBe(MESSAGES.requiredDocuments);
    else expect(errors.documents).toBeUndefined();
  });

  it('leaves out fields of choices not taken, and requires them once chosen', () => {
    expect(validate('Auto Liability', { ...VALID['Auto Liability'], driverName: '' })).toEqual({ driverName: REQ });
    expect(validate('Auto Liability', FLEET)).toEqual({});
    const fleetErrors = validate('Auto Liability', { ...FLEET, vehicleMake: '', driverName: '' });
    expect(fleetErrors).toEqual({ vehicleMake: REQ });
  });
});

describe('Other choices and Yes answers reveal required detail fields', () => {
  it.each([
    ['vehicleLocation', 'Off-Campus Location/Other', 'vehicleLocationOther'],
    ['vehicleOwningDept', 'Other', 'vehicleOwningDeptOther'],
    ['vehicleType', 'Other', 'vehicleTypeOther'],
  ])('fleet %s = %s requires %s', (field, other, detail) => {
    expect(validate('Auto Liability', { ...FLEET, [field]: other })).toEqual({ [detail]: REQ });
    expect(validate('Auto Liability', { ...FLEET, [field]: other, [detail]: 'Hillsboro lot' })).toEqual({});
  });

  it('provider reason Other requires a description; Licensing in another state requires a state', () => {
    expect(validate('Provider', { ...VALID.Provider, reason: 'Other' })).toEqual({ reasonOther: REQ });
    expect(validate('Provider', { ...VALID.Provider, reason: 'Licensing in another state' })).toEqual({ licensingState: REQ });
    expect(validate('Provider', { ...VALID.Provider, reason: 'Licensing in another state', licensingState: 'XX' }))
      .toEqual({ licensingState: MESSAGES.fieldValidation });
  });

  it('property reason Equipment reveals the equipment description, Other a text field', () => {
    expect(validate('Property', { ...VALID.Property, reason: 'Equipment', leasedPropertyAddress: '' })).toEqual({ reasonEquipment: REQ });
    expect(validate('Property', { ...VALID.Property, reason: 'Other', leasedPropertyAddress: '' })).toEqual({ reasonOther: REQ });
    expect(validate('Property', { ...VALID.Property, leasedPropertyAddress: '' })).toEqual({ leasedPropertyAddress: REQ });
  });

  it('event patient care Yes requires its detail', () => {
    expect(validate('Event', { ...VALID.Event, eventPatientCare: 'Yes' })).toEqual({ eventPatientCareDetail: REQ });
    expect(validate('Event', { ...VALID.Event, eventPatientCare: 'Maybe' })).toEqual({ eventPatientCare: MESSAGES.fieldValidation });
  });

  it('contracts/lease: a lease needs its number and expiration; leased property Yes needs the property', () => {
    expect(validate('Contracts/Lease', { ...VALID['Contracts/Lease'], contractLeaseType: 'Lease' }))
      .toEqual({ leaseNumber: REQ, leaseExpirationDate: REQ });
    expect(validate('Contracts/Lease', { ...VALID['Contracts/Lease'], isForLeasedProperty: 'Yes' }))
      .toEqual({ leasedPropertyName: REQ, leasedPropertyAddress: REQ });
  });
});

describe('field rules and messages', () => {
  it('the rental approval checkbox shows an error while unchecked', () => {
    const message = 'Please confirm the rental is approved';
    expect(validate('Auto Liability', { ...VALID['Auto Liability'], acknowledgedApproval: false })).toEqual({ acknowledgedApproval: message });
    expect(validate('Auto Liability', { ...VALID['Auto Liability'], acknowledgedApproval: undefined })).toEqual({ acknowledgedApproval: REQ });
  });

  it('contracts/lease and event need a supporting document', () => {
    expect(validate('Contracts/Lease', VALID['Contracts/Lease'], { documentCount: 0 })).toEqual({ documents: MESSAGES.requiredDocuments });
    expect(validate('Event', VALID.Event, { documentCount: 0 })).toEqual({ documents: MESSAGES.requiredDocuments });
    expect(validate('Clinician', VALID.Clinician, { documentCount: 0 })).toEqual({});
  });

  it('VIN, year, phone, email and dates follow their rules', () => {
    expect(validate('Auto Liability', { ...FLEET, vehicleIdNumber: '1FTBR1C80MKA1234O' })).toEqual({ vehicleIdNumber: 'A VIN has 17 letters and digits (no I, O or Q)' });
    expect(validate('Auto Liability', { ...FLEET, vehicleYear: '24' })).toEqual({ vehicleYear: 'Please enter a four-digit year' });
    expect(validate('Clinician', { ...VALID.Clinician, workPhone: '5031231234' })).toEqual({ workPhone: MESSAGES.phoneFormat });
    expect(validate('Clinician', { ...VALID.Clinician, email: 'not-an-address' })).toEqual({ email: MESSAGES.invalidEmail });
    expect(validate('Clinician', { ...VALID.Clinician, certificateHolderEmail: 'x@' })).toEqual({ certificateHolderEmail: MESSAGES.invalidEmail });
    expect(validate('Clinician', { ...VALID.Clinician, dateFrom: '13/45/2027' })).toEqual({ dateFrom: MESSAGES.requestDateFormat });
    expect(validate('Clinician', { ...VALID.Clinician, dateFrom: '07/01/2027', dateTo: '06/30/2027' }))
      .toEqual({ dateFrom: DATE_RANGE_MESSAGES.startAfterEnd, dateTo: DATE_RANGE_MESSAGES.endBeforeStart });
    expect(validate('Event', { ...VALID.Event, eventStartDate: '05/02/2027' }))
      .toEqual({ eventStartDate: DATE_RANGE_MESSAGES.startAfterEnd, eventEndDate: DATE_RANGE_MESSAGES.endBeforeStart });
    expect(validate('Clinician', { ...VALID.Clinician, addlRecipients: 'a@x.org; b@y.org, c@z.org' })).toEqual({});
    expect(validate('Clinician', { ...VALID.Clinician, addlRecipients: 'a@x.org nope' })).toEqual({ addlRecipients: MESSAGES.invalidEmail });
    expect(validate('Clinician', { ...VALID.Clinician, lastName: 'x'.repeat(201) })).toEqual({ lastName: 'Maximum 200 characters' });
  });

  it('event and rental periods take times on the half hour (spec 2 §9.1); none is needed, as before times existed', () => {
    expect(validate('Event', { ...VALID.Event, eventStartTime: '09:00', eventEndTime: '17:30' })).toEqual({});
    expect(validate('Event', { ...VALID.Event, eventStartTime: '09:15' })).toEqual({ eventStartTime: TIME_OF_DAY_MESSAGE });
    expect(validate('Event', { ...VALID.Event, eventStartTime: '17:00', eventEndTime: '09:00' }))
      .toEqual({ eventStartTime: DATE_RANGE_MESSAGES.startTimeAfterEnd, eventEndTime: DATE_RANGE_MESSAGES.endTimeBeforeStart });
    // over several days a later start time is fine
    expect(validate('Event', { ...VALID.Event, eventEndDate: '05/02/2027', eventStartTime: '17:00', eventEndTime: '09:00' })).toEqual({});
    expect(validate('Auto Liability', { ...VALID['Auto Liability'], rentalStartTime: '08:00', rentalEndTime: '18:00' })).toEqual({});
    expect(validate('Auto Liability', { ...VALID['Auto Liability'], rentalEndTime: '25:00' })).toEqual({ rentalEndTime: TIME_OF_DAY_MESSAGE });
    expect(TIME_OF_DAY_OPTIONS).toHaveLength(48);
    expect(TIME_OF_DAY_OPTIONS[19]).toEqual({ value: '09:30', label: '9:30 AM' });
    expect(formatTimeOfDay('00:00')).toBe('12:00 AM');
    expect(formatTimeOfDay('12:30')).toBe('12:30 PM');
  });

  it('auto liability offers the Supervisor role for its person; other kinds keep their one role', () => {
    expect(validate('Auto Liability', { ...VALID['Auto Liability'], personRole: 'Supervisor' })).toEqual({});
    expect(validate('Auto Liability', { ...VALID['Auto Liability'], personRole: 'Provider' })).toEqual({ personRole: MESSAGES.fieldValidation });
    expect(fieldsOf(CERTIFICATE_KINDS['Auto Liability']).find((f) => f.name === 'personRole')?.options).toEqual(['Employee', 'Supervisor']);
    expect(fieldsOf(CERTIFICATE_KINDS.Event).some((f) => f.name === 'personRole')).toBe(false);
  });

  it('the rental hides the request recipient; every kind names the holder with the additional-insured note', () => {
    const rental = CERTIFICATE_KINDS['Auto Liability'];
    const recipient = fieldsOf(rental).find((f) => f.name === 'recipientEmail')!;
    expect(isRequiredNow({ ...recipient, required: true }, { autoType: 'Rental' }, ctx)).toBe(false);
    for (const type of CERTIFICATE_TYPES) {
      const section = CERTIFICATE_KINDS[type].sections.find((s) => s.title === 'Certificate Holder');
      expect(section?.note, type).toMatch(/additional insureds cannot be named/i);
    }
  });

  it('cleans text before checking (trimmed, blank is missing)', () => {
    expect(validate('Clinician', { ...VALID.Clinician, lastName: '   ' })).toEqual({ lastName: REQ });
  });

  it('compiles to a plain JSON Schema (one definition, readable by other tools)', () => {
    const schema = formSchemaOf(CERTIFICATE_KINDS.Event, { isExternal: false });
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
    expect(schema.allOf.length).toBeGreaterThan(10);
  });
});

describe('docs/REQUEST-FIELDS.md', () => {
  it('is generated from the definitions and current (npm run docs:fields)', async () => {
    const { readFileSync } = await import('node:fs');
    const { requestFieldsMarkdown } = await import('../../scripts/request-fields-doc');
    expect(readFileSync(new URL('../../docs/REQUEST-FIELDS.md', import.meta.url), 'utf8')).toBe(requestFieldsMarkdown());
  });
});

describe('middle initial (spec 1 §5: "Middle initial max 1 character")', () => {
  it('accepts one letter, with or without its period, and refuses two on every kind', () => {
    expect(validate('Clinician', { ...VALID.Clinician, middleInitial: 'J' })).toEqual({});
    expect(validate('Clinician', { ...VALID.Clinician, middleInitial: 'J.' })).toEqual({}); // periods are stripped first
    expect(validate('Clinician', { ...VALID.Clinician, middleInitial: 'JK' })).toEqual({ middleInitial: 'Maximum 1 character' });
    const credentialing = requestKindOf('credentialing', null);
    expect(validateRequestForm(credentialing, { middleInitial: 'JK' }, ctx).middleInitial).toBe('Maximum 1 character');
  });
});
