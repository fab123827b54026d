/**
 * The reports read the audit rows the request workflow really writes (not only hand-written ones): a certificate
 * submitted and sent back for more information through the API and its workflow shows up in the reports of today.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestSchema } from '../../db/entities';
import { officeToday, STATUS } from '../../domain';
import { call, certificateDraft, loginAdmin, loginEmployee, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let employee: Session;

beforeAll(async () => {
  h = await startHarness();
  [admin, employee] = await Promise.all([loginAdmin(h), loginEmployee(h)]);
}, 120_000);
afterAll(async () => { await h?.stop(); });

describe('reports over a history the workflow wrote', () => {
  it('counts a real submission as received and its stays in Submitted and Pending Additional Information', async () => {
    const id = await certificateDraft(h, employee, 'Clinician');
    const submitted = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const version = (await h.orm.em.fork().findOneOrFail(RequestSchema, id)).version;
    const back = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.pendingAdditionalInformation, version });
    expect(back.status, JSON.stringify(back.body)).toBe(200);

    const stays = await h.orm.em.fork().getConnection().execute<Array<{ status: string }>>(`select status from request_status_stays where request_id = ? order by seq`, [id], 'all');
    expect(stays.map((s) => s.status)).toEqual([STATUS.submitted, STATUS.pendingAdditionalInformation]);

    const today = officeToday(h.config.clockPolicy.calendar.timeZone);
    const res = await call(h, admin, 'GET', `/api/v1/reports?from=${today}&to=${today}&kind=${encodeURIComponent('COI Request: Clinician')}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.volumes.received).toBe(1);
    const rows = Object.fromEntries(res.body.timeInStatus.rows.map((r: { status: string; requests: number }) => [r.status, r.requests]));
    expect(rows[STATUS.submitted]).toBe(1);
    expect(rows[STATUS.pendingAdditionalInformation]).toBe(1);
    expect(res.body.backlog.oldest.map((o: { id: number; status: string }) => [o.id, o.status])).toEqual([[id, STATUS.pendingAdditionalInformation]]);
  });
});
