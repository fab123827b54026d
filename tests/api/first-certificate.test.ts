/**
 * A portal with no policy year on record, as a production database starts (nothing made up): every certificate
 * approval is refused with the no-coverage reason, through the submit workflow and the API, and nothing is issued;
 * the Admin Dashboard's "Before the first certificate" list says what is missing until the policy year in force is
 * entered, then reports itself complete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentSchema, PolicyYearSchema, RequestActivitySchema } from '../../db/entities';
import { formatOfficeDate, NO_POLICY_YEAR_REASON, officeToday, STATUS, uncoveredCertificateMessage } from '../../domain';
import { call, certificateDraft, loginAdmin, loginEmployee, loginRequester, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

const PHONE = '503-494-7700';
let h: Harness;
let admin: Session;
let employee: Session;

beforeAll(async () => {
  // The office's phone set, the mailbox and portal address left at their development samples.
  h = await startHarness({ env: { RISK_MANAGEMENT_PHONE: PHONE } });
  await h.orm.em.fork().nativeDelete(PolicyYearSchema, {}); // as in production: no sample years
  admin = await loginAdmin(h);
  employee = await loginEmployee(h);
});
afterAll(async () => { await h?.stop(); });

const today = () => officeToday(h.config.clockPolicy.calendar.timeZone);
const dashboard = async () => {
  const res = await call(h, admin, 'GET', '/api/v1/admin-dashboard');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.beforeFirstCertificate as { complete: boolean; items: Array<{ id: string; label: string; done: boolean; detail: string }> };
};
const item = (list: Awaited<ReturnType<typeof dashboard>>, id: string) => list.items.find((i) => i.id === id)!;

describe('no policy year on record', () => {
  it('refuses every certificate approval with the no-coverage reason, for a certificate dated today or dated by its event', async () => {
    const property = await certificateDraft(h, employee, 'Property'); // no dates of its own: covers the day of issue
    const event = await certificateDraft(h, employee, 'Event');
    for (const id of [property, event]) {
      const submitted = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    }
    const expected = { [property]: uncoveredCertificateMessage(today(), today()), [event]: uncoveredCertificateMessage('2025-05-01', '2025-05-01') };
    for (const id of [property, event]) {
      for (const status of [STATUS.approved, STATUS.approvedWithLetterOfIntent]) {
        const refused = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status, verified: true });
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({ name: 'BadRequest', message: expected[id], data: { reason: NO_POLICY_YEAR_REASON, offer: STATUS.pendingNewPolicyYear } });
      }
      expect((await call(h, admin, 'GET', `/api/v1/requests/${id}`)).body.status).toBe(STATUS.submitted);
      expect(await h.orm.em.fork().count(RequestActivitySchema, { requestId: id, activityText: { $like: '%Approved%' } })).toBe(0);
      expect(await h.orm.em.fork().count(DocumentSchema, { requestId: id, name: { $like: 'Certificate%' } })).toBe(0);
    }
    expect(expected[property]).toContain(`covers ${formatOfficeDate(today(), h.config.clockPolicy.calendar.timeZone)}, so no certificate can be issued`);
  });
});

describe('the Admin Dashboard\'s "Before the first certificate" list', () => {
  it('says the policy year is missing and why, and shows the office facts requesters see', async () => {
    const list = await dashboard();
    expect(list.complete).toBe(false);
    expect(list.items.map((i) => i.id)).toEqual(['policyYear', 'phone', 'mailbox', 'portalAddress']);
    expect(item(list, 'policyYear')).toMatchObject({ done: false, detail: 'No policy year is on record: every certificate approval is refused until it is entered.' });
    expect(item(list, 'phone')).toMatchObject({ done: true, detail: PHONE });
    expect(item(list, 'mailbox')).toMatchObject({ done: true, detail: `${h.config.riskManagementEmail} (development sample)` });
    expect(item(list, 'portalAddress').detail).toContain('(development sample)');
  });

  it('still waits while the only policy year on record is over', async () => {
    const created = await call(h, admin, 'POST', '/api/v1/policies', {
      startDate: '07/01/2001', endDate: '06/30/2002', policyNumber: 'PL-2001', limitClaim: '1,000,000', annualAggregate: '2,000,000',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const list = await dashboard();
    expect(list.complete).toBe(false);
    expect(item(list, 'policyYear').detail).toMatch(/^None of the 1 policy years on record covers today \(\d\d\/\d\d\/\d{4}\)/);
  });

  it('is complete once the policy year in force today is entered, naming it; a certificate can then be approved', async () => {
    const startYear = Number(today().slice(0, 4)) - (Number(today().slice(5, 7)) >= 7 ? 0 : 1);
    const created = await call(h, admin, 'POST', '/api/v1/policies', {
      startDate: `07/01/${startYear}`, endDate: `06/30/${startYear + 1}`, policyNumber: `PL-${startYear}`, limitClaim: '3,000,000', annualAggregate: '6,000,000',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const list = await dashboard();
    expect(list.complete).toBe(true);
    expect(item(list, 'policyYear')).toMatchObject({ done: true, detail: `PL-${startYear}, 07/01/${startYear} – 06/30/${startYear + 1}` });

    const id = await certificateDraft(h, employee, 'Property');
    expect((await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted })).status).toBe(200);
    const approved = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.approved, verified: true });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  });

  it('is for administrators only', async () => {
    const requester = await loginRequester(h);
    expect((await call(h, requester, 'GET', '/api/v1/admin-dashboard')).status).toBe(403);
  });
});
