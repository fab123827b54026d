import { describe, expect, it } from 'vitest';
import {
  CREDENTIALING_KIND, dayToServerIso, DEFAULT_OFFICE_TIME_ZONE, formatOfficeDate, parseUsDate, validateRequestPeriod, type RequestFormValues,
} from '../../domain';
import { validateRequestForm, type ValidationContext } from '../../domain/request-rules';

const validateCredentialingForm = (form: RequestFormValues, ctx: ValidationContext) => validateRequestForm(CREDENTIALING_KIND, form, ctx);

const today = '2026-11-21';

describe('request dates', () => {
  it('parses mm/dd/yyyy and refuses impossible days', () => {
    expect(parseUsDate('07/01/2002')).toBe('2002-07-01');
    expect(parseUsDate('2/29/2024')).toBe('2024-02-29');
    expect(parseUsDate('02/29/2023')).toBeNull();
    expect(parseUsDate('13/01/2020')).toBeNull();
    expect(parseUsDate('2020-01-01')).toBeNull();
  });

  it('sends dates at 11:00 UTC of the day and shows them as MM/dd/yyyy', () => {
    expect(dayToServerIso('2024-01-31')).toBe('2024-01-31T11:00:00.000Z');
    expect(formatOfficeDate('2024-01-31T11:00:00.000Z', DEFAULT_OFFICE_TIME_ZONE)).toBe('01/31/2024');
  });

  it('accepts a period from 7/1/2002 up to today', () => {
    expect(validateRequestPeriod('07/01/2002', '11/21/2026', today)).toEqual({});
  });

  it('refuses a start before 7/1/2002 and an end after today', () => {
    expect(validateRequestPeriod('06/30/2002', '11/22/2026', today)).toEqual({
      dateFrom: 'Date cannot be before 07/01/2002', dateTo: 'Date cannot be after today',
    });
  });

  it('refuses a start after the end, on both fields', () => {
    expect(validateRequestPeriod('05/01/2020', '04/30/2020', today)).toEqual({
      dateFrom: 'Start date cannot be after end date', dateTo: 'End date cannot be before start date',
    });
  });

  it('uses the spec messages for missing and malformed dates', () => {
    expect(validateRequestPeriod('', '1/2/20', today)).toEqual({
      dateFrom: 'The field above is required', dateTo: 'Please format like mm/dd/yyyy',
    });
  });
});

describe('credentialing form', () => {
  const complete = {
    lastName: 'Nguyen', firstName: 'Avery', birthDate: '04/12/1980', dateFrom: '01/01/2020', dateTo: '12/31/2024',
    providerType: 'Current Student', reason: 'Future employment', releaseAuthorized: true,
  };

  it('is complete with names, dates, type, reason, the authorization and one document', () => {
    expect(validateCredentialingForm(complete, { isExternal: true, today, documentCount: 1 })).toEqual({});
  });

  it('requires the Authorization section\'s confirmation', () => {
    const ctx = { isExternal: false, today, documentCount: 1 };
    expect(validateCredentialingForm({ ...complete, releaseAuthorized: undefined }, ctx)).toEqual({ releaseAuthorized: 'The field above is required' });
    expect(validateCredentialingForm({ ...complete, releaseAuthorized: false }, ctx)).toEqual({ releaseAuthorized: 'Please confirm the clinician’s authorization' });
  });

  it('accepts additional recipients split on spaces, semicolons and commas, and names a bad one', () => {
    const ctx = { isExternal: true, today, documentCount: 1 };
    expect(validateCredentialingForm({ ...complete, addlRecipients: 'a@x.org; b@y.org,c@z.org d@w.org' }, ctx)).toEqual({});
    expect(validateCredentialingForm({ ...complete, addlRecipients: 'a@x.org; not-an-address' }, ctx))
      .toEqual({ addlRecipients: 'Please enter a valid email address' });
  });

  it('requires the birth date from external requesters only', () => {
    const noBirth = { ...complete, birthDate: undefined };
    expect(validateCredentialingForm(noBirth, { isExternal: true, today, documentCount: 1 })).toEqual({ birthDate: 'The field above is required' });
    expect(validateCredentialingForm(noBirth, { isExternal: false, today, documentCount: 1 })).toEqual({});
  });

  it('requires at least one supporting document', () => {
    expect(validateCredentialingForm(complete, { isExternal: true, today, documentCount: 0 }))
      .toEqual({ documents: 'Please add required document(s) as described above' });
  });

  it('treats whitespace as empty and requires a state for licensing in another state', () => {
    expect(validateCredentialingForm({ ...complete, lastName: '   ', reason: 'Licensing in another state' }, { isExternal: true, today, documentCount: 1 }))
      .toEqual({ lastName: 'The field above is required', licensingState: 'The field above is required' });
  });
});
