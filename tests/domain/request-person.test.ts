/**
 * The person a request names (domain/request-person.ts): a new person leaves nothing of the previous one, in every
 * kind that names one, and the person modal's dates answer as person forms do.
 */
import { describe, expect, it } from 'vitest';
import {
  CERTIFICATE_KINDS, CREDENTIALING_KIND, MESSAGES, PERSON_MESSAGES, personDetailFields, personFormKind, personSectionOf,
  replacedPersonValues, type RequestKindDefinition,
} from '../../domain';
import { validateRequestForm } from '../../domain/request-rules';

const KINDS_WITH_A_PERSON: RequestKindDefinition[] = [CREDENTIALING_KIND, ...Object.values(CERTIFICATE_KINDS)].filter((k) => k.personRole);

describe('a new person on a request', () => {
  it('empties every detail of the person section but the role, in every kind that names a person', () => {
    for (const kind of KINDS_WITH_A_PERSON) {
      const section = personSectionOf(kind)!;
      const details = section.fields.map((f) => f.name).filter((name) => name !== 'personRole');
      expect(Object.keys(replacedPersonValues(kind)).sort()).toEqual([...details].sort());
      expect(Object.values(replacedPersonValues(kind)).every((value) => value === '')).toBe(true);
    }
    expect(personDetailFields(CREDENTIALING_KIND).map((f) => f.name)).toEqual(expect.arrayContaining(['birthDate', 'altName', 'employeeId']));
  });

  it('keeps what the directory tells of the new person and empties the rest', () => {
    expect(replacedPersonValues(CREDENTIALING_KIND, { employeeId: '400222', lastName: 'Okafor', firstName: 'Jordan' })).toEqual({
      employeeId: '400222', lastName: 'Okafor', firstName: 'Jordan', middleInitial: '', altName: '', email: '', birthDate: '',
    });
  });
});

describe('the person modal\'s dates', () => {
  const ctx = { isExternal: false, today: '2026-11-27', documentCount: 1 };
  it('answer "Invalid date" in the modal and "Please format like mm/dd/yyyy" on the request form', () => {
    const values = { lastName: 'Okafor', firstName: 'Jordan', birthDate: '13/45/1980' };
    expect(validateRequestForm(personFormKind(CREDENTIALING_KIND), values, ctx).birthDate).toBe(PERSON_MESSAGES.invalidDate);
    expect(validateRequestForm(CREDENTIALING_KIND, values, ctx).birthDate).toBe(MESSAGES.requestDateFormat);
  });

  it('leave the request\'s own dates to the request form\'s message', () => {
    const values = { dateFrom: '02/30/2021' };
    expect(validateRequestForm(personFormKind(CREDENTIALING_KIND), values, ctx).dateFrom).toBe(MESSAGES.requestDateFormat);
  });
});
