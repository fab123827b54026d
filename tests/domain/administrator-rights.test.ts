/**
 * Who is an administrator, and which addresses a registered account may not take: the rules of
 * domain/administrator-rights.ts and domain/university-addresses.ts.
 */
import { describe, expect, it } from 'vitest';
import { cleanEmailDomains, holdsAdministratorRights, isUniversityAddress, type AdministratorCandidate } from '../../domain';

const sso: AdministratorCandidate = { onAdminList: true, emailConfirmed: true, isExternal: false, hasPassword: false };

describe('administrator rights', () => {
  it('go to an internal single-sign-on account on the admin list, in production and elsewhere', () => {
    expect(holdsAdministratorRights(sso, { production: true })).toBe(true);
    expect(holdsAdministratorRights(sso, { production: false })).toBe(true);
  });

  it('never go to a registered (external) account, whatever its confirmed email', () => {
    const external = { ...sso, isExternal: true, hasPassword: true };
    expect(holdsAdministratorRights(external, { production: true })).toBe(false);
    expect(holdsAdministratorRights(external, { production: false })).toBe(false);
  });

  it('go to an internal password account (the seeded administrator) outside production only', () => {
    const seeded = { ...sso, hasPassword: true };
    expect(holdsAdministratorRights(seeded, { production: false })).toBe(true);
    expect(holdsAdministratorRights(seeded, { production: true })).toBe(false);
  });

  it('need the admin list and a proven address', () => {
    expect(holdsAdministratorRights({ ...sso, onAdminList: false }, { production: false })).toBe(false);
    expect(holdsAdministratorRights({ ...sso, emailConfirmed: false }, { production: false })).toBe(false);
  });
});

describe('university addresses', () => {
  const domains = cleanEmailDomains([' OHSU.example ', '@va.example', '']);

  it('are the configured domains and their subdomains, in any case', () => {
    expect(domains).toEqual(['ohsu.example', 'va.example']);
    expect(isUniversityAddress('pat.boss@ohsu.example', domains)).toBe(true);
    expect(isUniversityAddress('Student@Students.OHSU.example', domains)).toBe(true);
    expect(isUniversityAddress('doc@va.example', domains)).toBe(true);
  });

  it('are not a look-alike domain', () => {
    expect(isUniversityAddress('pat@notohsu.example', domains)).toBe(false);
    expect(isUniversityAddress('pat@ohsu.example.evil.example', domains)).toBe(false);
    expect(isUniversityAddress('pat@hospital.example', domains)).toBe(false);
    expect(isUniversityAddress('pat@ohsu.example', [])).toBe(false);
  });
});
