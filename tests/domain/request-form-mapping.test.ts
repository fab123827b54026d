/**
 * One record ↔ form mapping, driven by a kind's field definitions (domain/request-form-mapping.ts), used by
 * the UI's forms and the API's submit validation alike.
 */
import { describe, expect, it } from 'vitest';
import { ALL_FORM_FIELDS, CERTIFICATE_KINDS, CREDENTIALING_KIND, fieldsOf, type RequestKindDefinition } from '../../domain';
import { HTTP_ERROR_NAMES, httpErrorName } from '../../domain/http-errors';
import { formToPayload, recordToForm, recordToKindForm } from '../../domain/request-form-mapping';

const NEW_YORK = 'America/New_York';
const stored = {
  lastName: 'Smith', firstName: 'Ann', middleInitial: null, birthDate: '1980-02-03T11:00:00.000Z', dateFrom: new Date('2020-01-15T11:00:00.000Z'),
  releaseAuthorized: true, reason: 'Other', licensingState: 'NY', requestNumber: 50001,
};

describe('record → form', () => {
  it('types dates as mm/dd/yyyy in the office zone (ISO text or Date alike), checkboxes as booleans, the rest as text; empty fields are left out', () => {
    const form = recordToKindForm(stored, CREDENTIALING_KIND, { timeZone: NEW_YORK });
    expect(form).toMatchObject({ lastName: 'Smith', firstName: 'Ann', birthDate: '02/03/1980', dateFrom: '01/15/2020', releaseAuthorized: true });
    expect(form).not.toHaveProperty('middleInitial');
    expect(form).not.toHaveProperty('requestNumber'); // not a field of the kind
  });

  it('a new draft does not inherit the confirmations that vouched for the source request (perRequest fields)', () => {
    const form = recordToKindForm(stored, CREDENTIALING_KIND, { timeZone: NEW_YORK, startingNewDraft: true });
    expect(form).not.toHaveProperty('releaseAuthorized');
    expect(form.lastName).toBe('Smith');
  });

  it('a kind that offers the person\'s role starts from its own role', () => {
    const offering = Object.values(CERTIFICATE_KINDS).find((kind) => fieldsOf(kind).some((f) => f.name === 'personRole') && kind.personRole);
    expect(offering, 'a certificate kind lets the requester choose the role').toBeDefined();
    const kind = offering as RequestKindDefinition;
    expect(recordToKindForm(null, kind, { timeZone: NEW_YORK }).personRole).toBe(kind.personRole);
    expect(recordToKindForm({ personRole: 'Chosen' }, kind, { timeZone: NEW_YORK }).personRole).toBe('Chosen');
  });

  it('reads every kind\'s fields at once for the API (each field once)', () => {
    const form = recordToForm(stored, ALL_FORM_FIELDS, { timeZone: NEW_YORK });
    expect(form.dateFrom).toBe('01/15/2020');
    expect(new Set(ALL_FORM_FIELDS.map((f) => f.name)).size).toBe(ALL_FORM_FIELDS.length);
  });
});

describe('form → payload', () => {
  const ctx = { isExternal: false, isAdmin: false };

  it('sends dates at 11:00 UTC of the day, cleans text, and drops a field its condition hides', () => {
    const payload = formToPayload({ lastName: ' Smith ', birthDate: '02/03/1980', reason: 'Other', licensingState: 'NY' }, CREDENTIALING_KIND, 'create', ctx);
    expect(payload).toMatchObject({ lastName: 'Smith', birthDate: '1980-02-03T11:00:00.000Z', reason: 'Other' });
    expect(payload).not.toHaveProperty('licensingState');
    expect(payload).not.toHaveProperty('firstName'); // empty on create: left out
  });

  it('sends empty and hidden fields as null on update; a half-typed date is left out', () => {
    const payload = formToPayload({ lastName: 'Smith', birthDate: '02/0', reason: 'Other', licensingState: 'NY' }, CREDENTIALING_KIND, 'update', ctx);
    expect(payload.firstName).toBeNull();
    expect(payload.licensingState).toBeNull();
    expect(payload).not.toHaveProperty('birthDate');
  });

  it('round-trips a stored request through the form unchanged', () => {
    const record = { lastName: 'Smith', firstName: 'Ann', birthDate: '1980-02-03T11:00:00.000Z', releaseAuthorized: true, reason: 'Other' };
    const payload = formToPayload(recordToKindForm(record, CREDENTIALING_KIND, { timeZone: NEW_YORK }), CREDENTIALING_KIND, 'create', ctx);
    expect(payload).toMatchObject(record);
  });
});

describe('HTTP error names (one table for the API and the UI)', () => {
  it('names errors by status per spec 2 §8.1; anything else is a GeneralError', () => {
    expect(httpErrorName(404)).toBe('NotFound');
    expect(httpErrorName(409)).toBe('Conflict');
    expect(httpErrorName(503)).toBe('Unavailable');
    expect(httpErrorName(418)).toBe('GeneralError');
    expect(Object.keys(HTTP_ERROR_NAMES)).toHaveLength(18);
  });
});
