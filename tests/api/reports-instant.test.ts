/**
 * The reports' share of certificates issued instantly, beside the office's, on a small history written by hand
 * (requests, their audit rows as the workflow's activities write them, and the rules' decisions), every figure worked
 * out below in office hours: 08:00–17:00 Monday to Friday, America/Los_Angeles (February 2026: PST, UTC−8), one
 * business day = 9 office hours.
 *
 * Issued by a rule (an `issued` decision):
 * - I1 Event: submitted Tue 2/3 10:00:00, approved 10:00:08 → 8 s, 8/32400 business days.
 * - I2 Event: submitted Sat 2/7 12:00:00, approved 12:00:04 → 4 s, 0 business days (a weekend).
 * - I3 Rental: submitted Wed 2/4 16:59:50, approved 17:00:02 → 12 s, 10 s of office time.
 *   Medians: 8 s; 8/32400 business days (0 to two decimals).
 * Decided by the office:
 * - O1 Event: submitted Mon 2/2 09:00, approved Wed 2/4 09:00 → 2 business days, 48 h.
 * - O2 Clinician: submitted Mon 2/9 08:00, approved 12:30 → 0.5 business days, 4.5 h.
 * - O3 Property: submitted Tue 2/10 09:00, Pending Additional Information 10:00, resubmitted Thu 2/12 09:00, approved
 *   Fri 2/13 09:00 → 3 business days (from the first submission), 72 h.
 * - O4 Event, a rule stopped it (a `stopped` decision): submitted Mon 2/16 10:00, approved 11:00 → 1/9 business day, 1 h.
 *   Medians: (0.5 + 2) / 2 = 1.25 business days; (4.5 h + 48 h) / 2 = 26.25 h.
 * Not counted: an Event denied, an Event approved with a Letter of Intent, a claim-history letter approved, an Event a
 * rule issued in March.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAdmin, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let number = 8100;

const sql = (text: string, params: unknown[] = []) => h.orm.em.fork().getConnection().execute(text, params, 'all');
const pst = (local: string) => new Date(`${local}-08:00`);

type Step = [Date, string]; // when, the status entered ('Submitted' by a submission)

async function request(kind: { type: string; cert?: string; auto?: string }, steps: Step[], decision?: 'issued' | 'stopped'): Promise<number> {
  const [{ id: requesterId }] = await sql(`select id from users where is_external = false order by id limit 1`);
  const status = steps.at(-1)![1];
  const [{ id }] = await sql(`insert into requests (created_at, updated_at, request_number, request_type, certificate_type, auto_type, status, source,
      submit_date, requester_id, employer_type, version)
    values (?, now(), ?, ?, ?, ?, ?, 'COI Portal', ?, ?, 'internal', 1) returning id`, [
    steps[0][0], number++, kind.type, kind.cert ?? null, kind.auto ?? null, status, steps[0][0], requesterId,
  ]);
  let current = 'Draft';
  for (const [at, to] of steps) {
    const submission = to === 'Submitted';
    await sql(`insert into request_activity (request_id, date, activity_type, activity_text, status_from, status_to, performed_by, created_at, updated_at)
      values (?, ?, ?, ?, ?, ?, ?, now(), now())`, [
      id, at, submission ? 'Submission' : 'Status Change',
      submission ? 'Request submitted (status "Submitted")' : `Status changed from "${current}" to "${to}"`,
      current, to, decision === 'issued' && !submission ? 'Rule: Standard events v1' : 'Test',
    ]);
    current = to;
  }
  if (decision) {
    await sql(`insert into instant_decisions (request_id, key, decided_at, outcome, rule_name, rule_version, stopped_by) values (?, ?, ?, ?, 'Standard events', 1, ?)`,
      [id, `test:${id}`, steps[0][0], decision, decision === 'stopped' ? 'Standard events v1: a condition' : null]);
  }
  return id;
}

const EVENT = { type: 'certificate', cert: 'Event' };

beforeAll(async () => {
  h = await startHarness({ worker: false });
  admin = await loginAdmin(h);
  await request(EVENT, [[pst('2026-02-03T10:00:00'), 'Submitted'], [pst('2026-02-03T10:00:08'), 'Approved']], 'issued');
  await request(EVENT, [[pst('2026-02-07T12:00:00'), 'Submitted'], [pst('2026-02-07T12:00:04'), 'Approved']], 'issued');
  await request({ type: 'certificate', cert: 'Auto Liability', auto: 'Rental' }, [[pst('2026-02-04T16:59:50'), 'Submitted'], [pst('2026-02-04T17:00:02'), 'Approved']], 'issued');
  await request(EVENT, [[pst('2026-02-02T09:00'), 'Submitted'], [pst('2026-02-04T09:00'), 'Approved']]);
  await request({ type: 'certificate', cert: 'Clinician' }, [[pst('2026-02-09T08:00'), 'Submitted'], [pst('2026-02-09T12:30'), 'Approved']]);
  await request({ type: 'certificate', cert: 'Property' }, [
    [pst('2026-02-10T09:00'), 'Submitted'], [pst('2026-02-10T10:00'), 'Pending Additional Information'],
    [pst('2026-02-12T09:00'), 'Submitted'], [pst('2026-02-13T09:00'), 'Approved'],
  ]);
  await request(EVENT, [[pst('2026-02-16T10:00'), 'Submitted'], [pst('2026-02-16T11:00'), 'Approved']], 'stopped');
  // Not certificates issued in February:
  await request(EVENT, [[pst('2026-02-17T10:00'), 'Submitted'], [pst('2026-02-18T10:00'), 'Denied']], 'stopped');
  await request(EVENT, [[pst('2026-02-17T10:00'), 'Submitted'], [pst('2026-02-18T10:00'), 'Approved with Letter of Intent']]);
  await request({ type: 'credentialing' }, [[pst('2026-02-17T10:00'), 'Submitted'], [pst('2026-02-18T10:00'), 'Approved']]);
  await request(EVENT, [[pst('2026-03-02T10:00'), 'Submitted'], [pst('2026-03-02T10:00:05'), 'Approved']], 'issued');
}, 120_000);
afterAll(async () => { await h?.stop(); });

const reports = async (query: string) => {
  const res = await call(h, admin, 'GET', `/api/v1/reports?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('GET /reports: certificates issued instantly beside the office\'s', () => {
  it('counts the certificates a rule issued against those people decided, with each median turnaround', async () => {
    const r = await reports('from=2026-02-01&to=2026-02-28');
    expect(r.instantIssues).toEqual({
      certificates: 7,
      rule: { issued: 3, median: 0, medianElapsedSeconds: 8 },
      office: { issued: 4, median: 1.25, medianElapsedSeconds: 26.25 * 3600 },
      sharePercent: 42.9,
      reading: '3 of 7 certificates issued instantly (43 %); median turnaround instantly 0 business days (8 seconds), by the office 1.3 business days (26.3 hours)',
    });
  });

  it('follows the kind filter', async () => {
    const events = await reports('from=2026-02-01&to=2026-02-28&kind=COI%20Request%3A%20Event');
    // I1, I2 by the rule (medians 6 s, 4/32400 business days); O1 and O4 by the office ((2 + 1/9) / 2 business days, (48 h + 1 h) / 2).
    expect(events.instantIssues).toMatchObject({
      certificates: 4, sharePercent: 50,
      rule: { issued: 2, median: 0, medianElapsedSeconds: 6 },
      office: { issued: 2, median: 1.06, medianElapsedSeconds: 24.5 * 3600 },
    });
    const claims = await reports('from=2026-02-01&to=2026-02-28&kind=Claim%20History%20and%20Insurance%20Verification');
    expect(claims.instantIssues).toEqual({
      certificates: 0, sharePercent: 0, rule: { issued: 0, median: null, medianElapsedSeconds: null },
      office: { issued: 0, median: null, medianElapsedSeconds: null }, reading: 'No certificate issued in this range',
    });
  });

  it('counts the day a certificate was issued: the March one in March', async () => {
    const march = await reports('from=2026-03-01&to=2026-03-31');
    expect(march.instantIssues).toMatchObject({ certificates: 1, sharePercent: 100, rule: { issued: 1, medianElapsedSeconds: 5 }, office: { issued: 0, median: null } });
    expect(march.instantIssues.reading).toBe('1 of 1 certificate issued instantly (100 %); median turnaround instantly 0 business days (5 seconds)');
  });

  it('puts the same figures in the xlsx download', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/reports.xlsx?from=2026-02-01&to=2026-02-28', headers: { authorization: `Bearer ${admin.token}` } });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Instant certificates')!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => { rows.push((row.values as unknown[]).slice(1)); });
    expect(rows.slice(-4)).toEqual([
      ['Issued by', 'Certificates', 'Share (%)', 'Median (business days)', 'Median elapsed (hours)'],
      ['A rule, instantly', 3, 42.9, 0, 0.0022],
      ['The office', 4, 57.1, 1.25, 26.25],
      ['All certificates', 7],
    ]);
  });
});
