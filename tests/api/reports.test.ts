/**
 * The administrators' reports on a small history written by hand (requests and their audit rows, as the workflow's
 * activities write them), every figure compared with a value worked out below in office hours: the office works
 * 08:00–17:00 Monday to Friday in America/Los_Angeles, so one business day is 9 office hours.
 *
 * February 2026 (PST, UTC−8; Sunday Feb 1; no holiday in February or March on the default list; DST starts Mar 8):
 * - A, claim history, reopened: submitted Mon 2/2 09:00, approved Tue 2/3 09:00, reopened (Draft) Wed 2/4 10:00,
 *   resubmitted Thu 2/5 10:00, approved Thu 2/5 14:30.
 * - B, received as an Event certificate, kind changed to Clinician while waiting on the requester: submitted Mon 2/9
 *   08:00, Pending Additional Information 12:00, resubmitted Tue 2/10 12:00, approved Wed 2/11 08:00.
 * - C, rental, waits on the requester across a weekend: submitted Thu 2/12 09:00, Pending Additional Information
 *   Fri 2/13 09:00 (a reminder Mon 2/16 10:00), resubmitted Tue 2/17 09:00 (escalated Fri 2/20 09:00), still open.
 * - D, event, submitted at office midnight Sun 3/1 00:00 (March, not February), approved Mon 3/9 09:00 PDT.
 * - E, event, submitted Sat 2/28 23:59 (February in the office, already March 1 in UTC), still open.
 * - F, claim history: submitted Mon 2/2 10:00, Pending Additional Information 11:00, closed automatically Mon 3/2 11:00.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLOCK_POLICY } from '../../domain';
import { ensureOfficeCalendar } from '../../services/desk/office-calendar';
import { backlogReport, reportScopeOf } from '../../services/desk/reports';
import { call, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let requester: Session;
const ids: Record<string, number> = {};

const sql = (text: string, params: unknown[] = []) => h.orm.em.fork().getConnection().execute(text, params, 'all');
/** Office wall-clock time in February/early March 2026 (PST) or after Mar 8 (PDT). */
const pst = (local: string) => new Date(`${local}-08:00`);
const pdt = (local: string) => new Date(`${local}-07:00`);
const bd = (hours: number) => Math.round((hours / 9) * 100) / 100;

const CLAIM = 'Claim History and Insurance Verification';
const CLINICIAN = 'COI Request: Clinician';
const RENTAL = 'COI Request: Rental';
const EVENT = 'COI Request: Event';

type Row = [Date, 'submit' | 'status' | 'Reminder' | 'Escalation', string?, string?];

async function requestWith(name: string, kind: { type: string; cert?: string; auto?: string }, company: string, external: boolean, status: string, history: Row[]) {
  const [{ id: requesterId }] = await sql(`select id from users where is_external = ? order by id limit 1`, [external]);
  const [{ id }] = await sql(`insert into requests (created_at, updated_at, request_number, request_type, certificate_type, auto_type, status, source,
      submit_date, requester_id, requester_company, employer_type, version)
    values (?, now(), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1) returning id`, [
    history[0][0], 900 + Object.keys(ids).length, kind.type, kind.cert ?? null, kind.auto ?? null, status, external ? 'external' : 'COI Portal',
    history[0][0], requesterId, company, external ? 'external' : 'internal',
  ]);
  ids[name] = id;
  let current = 'Draft';
  for (const [at, what, to, reason] of history) {
    // As the workflow's activities write them: the change in columns (from, to), the clock that made a row.
    let type: string = what;
    let text: string;
    const from = current;
    let clock: string | null = null;
    if (what === 'submit') { type = 'Submission'; text = 'Request submitted (status "Submitted")'; current = 'Submitted'; }
    else if (what === 'status') {
      type = 'Status Change'; text = `Status changed from "${current}" to "${to}"${reason ? `: ${reason}` : ''}`; current = to!;
      if (reason) clock = 'auto-close';
    } else {
      text = what === 'Reminder' ? 'Reminder 1 sent: no additional information from the requester after 5 business days' : 'Escalated to the administrators: submitted and not reviewed for 3 business days';
      clock = what === 'Reminder' ? 'reminder-1' : 'escalation';
    }
    const status = what === 'submit' || what === 'status';
    await sql(`insert into request_activity (request_id, date, activity_type, activity_text, status_from, status_to, clock, performed_by, created_at, updated_at)
      values (?, ?, ?, ?, ?, ?, ?, 'Test', now(), now())`, [id, at, type, text, status ? from : null, status ? current : null, clock]);
  }
  return id;
}

beforeAll(async () => {
  h = await startHarness({ worker: false });
  admin = await loginAdmin(h);
  requester = await loginRequester(h);
  await requestWith('A', { type: 'credentialing' }, 'Mercy Hospital', true, 'Approved', [
    [pst('2026-02-02T09:00'), 'submit'], [pst('2026-02-03T09:00'), 'status', 'Approved'], [pst('2026-02-04T10:00'), 'status', 'Draft'],
    [pst('2026-02-05T10:00'), 'submit'], [pst('2026-02-05T14:30'), 'status', 'Approved'],
  ]);
  // B is an Event certificate when it is submitted; its kind changes while it waits on the requester (below).
  await requestWith('B', { type: 'certificate', cert: 'Event' }, 'Anesthesiology', false, 'Approved', [
    [pst('2026-02-09T08:00'), 'submit'], [pst('2026-02-09T12:00'), 'status', 'Pending Additional Information'],
  ]);
  await sql(`update requests set certificate_type = 'Clinician' where id = ?`, [ids.B]);
  await sql(`insert into request_activity (request_id, date, activity_type, activity_text, status_from, status_to, performed_by, created_at, updated_at) values
    (?, ?, 'Submission', 'Request submitted (status "Submitted")', 'Pending Additional Information', 'Submitted', 'Test', now(), now()),
    (?, ?, 'Status Change', 'Status changed from "Submitted" to "Approved"', 'Submitted', 'Approved', 'Test', now(), now())`,
  [ids.B, pst('2026-02-10T12:00'), ids.B, pst('2026-02-11T08:00')]);
  await requestWith('C', { type: 'certificate', cert: 'Auto Liability', auto: 'Rental' }, 'Anesthesiology', false, 'Submitted', [
    [pst('2026-02-12T09:00'), 'submit'], [pst('2026-02-13T09:00'), 'status', 'Pending Additional Information'], [pst('2026-02-16T10:00'), 'Reminder'],
    [pst('2026-02-17T09:00'), 'submit'], [pst('2026-02-20T09:00'), 'Escalation'],
  ]);
  await requestWith('D', { type: 'certificate', cert: 'Event' }, 'Pediatrics', false, 'Approved', [
    [pst('2026-03-01T00:00'), 'submit'], [pdt('2026-03-09T09:00'), 'status', 'Approved'],
  ]);
  await requestWith('E', { type: 'certificate', cert: 'Event' }, 'Harbor Clinic', true, 'Submitted', [[pst('2026-02-28T23:59'), 'submit']]);
  await requestWith('F', { type: 'credentialing' }, 'Mercy Hospital', true, 'Closed', [
    [pst('2026-02-02T10:00'), 'submit'], [pst('2026-02-02T11:00'), 'status', 'Pending Additional Information'],
    [pst('2026-03-02T11:00'), 'status', 'Closed', 'closed automatically: no answer from the requester after 20 business days'],
  ]);
}, 120_000);
afterAll(async () => { await h?.stop(); });

const reports = async (query: string) => {
  const res = await call(h, admin, 'GET', `/api/v1/reports?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('GET /reports (February 2026, by month)', () => {
  it('counts received (first submission) and completed (final status) once per request, by its kind now', async () => {
    const r = await reports('from=2026-02-01&to=2026-02-28&period=month');
    expect(r.periods).toEqual(['2026-02-01']);
    // A reopened: completed once; B counts as Clinician (its kind now), not Event; E at 23:59 on Feb 28 is February;
    // D at 00:00 on Mar 1 is not; F closed in March is not completed in February.
    expect(r.volumes.rows).toEqual([
      { period: '2026-02-01', kind: CLAIM, received: 2, completed: 1 },
      { period: '2026-02-01', kind: RENTAL, received: 1, completed: 0 },
      { period: '2026-02-01', kind: EVENT, received: 1, completed: 0 },
      { period: '2026-02-01', kind: CLINICIAN, received: 1, completed: 1 },
    ]); // the kinds in the filter's order
    expect([r.volumes.received, r.volumes.completed]).toEqual([5, 2]);
  });

  it('measures turnaround in business days from the first submission to the final status', async () => {
    const r = await reports('from=2026-02-01&to=2026-02-28');
    // A: Mon 2/2 09:00 → Thu 2/5 14:30 = 8 + 9 + 9 + 6.5 = 32.5 office hours (the reopening included).
    // B: Mon 2/9 08:00 → Wed 2/11 08:00 = 9 + 9 = 18 hours.
    const a = 32.5 / 9; const b = 18 / 9;
    expect(r.turnaround.rows).toEqual([
      { period: '2026-02-01', kind: CLAIM, completed: 1, median: bd(32.5), p90: bd(32.5) },
      { period: '2026-02-01', kind: CLINICIAN, completed: 1, median: bd(18), p90: bd(18) },
    ]);
    expect(r.turnaround.completed).toBe(2);
    expect(r.turnaround.median).toBe(Math.round(((a + b) / 2) * 100) / 100); // 2.81
    expect(r.turnaround.p90).toBe(Math.round((b + 0.9 * (a - b)) * 100) / 100); // 3.45
    expect(r.turnaround.reading).toBe('median 2.8 business days, 90 % within 3.5 (2 requests completed)');
  });

  it('splits the time in each status between the office and the requester, weekends not counted', async () => {
    const r = await reports('from=2026-02-01&to=2026-02-28');
    const row = (status: string) => r.timeInStatus.rows.find((x: { status: string }) => x.status === status);
    // Submitted: A 9 h (2/2 09:00→2/3 09:00) + 4.5 h (2/5 10:00→14:30); B 4 h + 5 h (2/10 12:00→2/11 08:00);
    // C 9 h (2/12 09:00→2/13 09:00) + 80 h (2/17 09:00 → the range's end: 8 + 27 + 45); E 0 h (Saturday night);
    // F 1 h. = 112.5 h over 5 requests.
    expect(row('Submitted')).toEqual({ status: 'Submitted', waitingOn: 'office', businessDays: bd(112.5), requests: 5, averageBusinessDays: Math.round((bd(112.5) / 5) * 100) / 100 });
    // Pending Additional Information: B 9 h (Mon 12:00→Tue 12:00); C 18 h (Fri 09:00 → Tue 09:00 across the weekend:
    // 8 + 9 (Monday) + 1); F 177 h (2/2 11:00 → the range's end: 6 + 36 + 45 + 45 + 45). = 204 h.
    expect(row('Pending Additional Information')).toMatchObject({ waitingOn: 'requester', businessDays: bd(204), requests: 3 });
    // Draft after A's reopening: Wed 2/4 10:00 → Thu 2/5 10:00 = 9 h (time before a first submission never counts).
    expect(row('Draft')).toMatchObject({ waitingOn: 'requester', businessDays: 1, requests: 1 });
    expect(row('Pending New Policy Year')).toMatchObject({ waitingOn: 'office', businessDays: 0, requests: 0 });
    expect(r.timeInStatus.office).toBe(bd(112.5));
    expect(r.timeInStatus.requester).toBe(Math.round((bd(204) + 1) * 100) / 100);
  });

  it('counts the reminders, escalations and automatic closes that fired in each period', async () => {
    const feb = await reports('from=2026-02-01&to=2026-02-28');
    expect(feb.missedDeadlines.rows).toEqual([{ period: '2026-02-01', reminders: 1, escalations: 1, autoClosed: 0 }]);
    const both = await reports('from=2026-02-01&to=2026-03-31');
    expect(both.missedDeadlines.rows).toEqual([
      { period: '2026-02-01', reminders: 1, escalations: 1, autoClosed: 0 }, { period: '2026-03-01', reminders: 0, escalations: 0, autoClosed: 1 },
    ]);
    expect(both.missedDeadlines.reading).toBe('1 reminder sent, 1 escalation, 1 closed without an answer');
  });

  it('names the companies and departments that asked most', async () => {
    const r = await reports('from=2026-02-01&to=2026-02-28');
    expect(r.topRequesters.companies).toEqual([{ name: 'Mercy Hospital', requests: 2, completed: 2 }, { name: 'Harbor Clinic', requests: 1, completed: 0 }]);
    expect(r.topRequesters.departments).toEqual([{ name: 'Anesthesiology', requests: 2, completed: 1 }]);
    expect(r.topRequesters.reading).toBe('Mercy Hospital asked most: 2 requests, 40 % of all received');
  });
});

describe('GET /reports: edges and filters', () => {
  it('puts a submission at office midnight in the day it starts, whatever the UTC day', async () => {
    const march = await reports('from=2026-03-01&to=2026-03-31');
    expect(march.volumes.rows.filter((x: { received: number }) => x.received)).toEqual([{ period: '2026-03-01', kind: EVENT, received: 1, completed: 1 }]);
    // D: Sun 3/1 00:00 → Mon 3/9 09:00 PDT = 45 + 1 hours (the DST change moves no office hour); F: 2/2 10:00 → 3/2 11:00 = 7 + 171 + 3.
    expect(march.turnaround.byKind).toEqual([
      { kind: CLAIM, completed: 1, median: bd(181), p90: bd(181) }, { kind: EVENT, completed: 1, median: bd(46), p90: bd(46) },
    ]);
    const lastDay = await reports('from=2026-02-28&to=2026-02-28');
    expect(lastDay.volumes.rows).toEqual([{ period: '2026-02-01', kind: EVENT, received: 1, completed: 0 }]);
  });

  it('by week: ISO weeks from Monday, every week of the range listed', async () => {
    const r = await reports('from=2026-02-01&to=2026-02-28&period=week');
    expect(r.periods).toEqual(['2026-01-26', '2026-02-02', '2026-02-09', '2026-02-16', '2026-02-23']);
    const received = Object.fromEntries(r.periods.map((p: string) => [p, r.volumes.rows.filter((x: { period: string }) => x.period === p).reduce((n: number, x: { received: number }) => n + x.received, 0)]));
    expect(received).toEqual({ '2026-01-26': 0, '2026-02-02': 2, '2026-02-09': 2, '2026-02-16': 0, '2026-02-23': 1 });
    expect(r.missedDeadlines.rows).toEqual([{ period: '2026-02-16', reminders: 1, escalations: 1, autoClosed: 0 }]);
  });

  it('a kind filter keeps a request under its kind now only', async () => {
    const r = await reports(`from=2026-02-01&to=2026-02-28&kind=${encodeURIComponent(EVENT)}`);
    expect(r.kinds).toEqual([EVENT]);
    expect(r.volumes.rows).toEqual([{ period: '2026-02-01', kind: EVENT, received: 1, completed: 0 }]); // E, not B
    expect(r.turnaround.completed).toBe(0);
    expect(r.turnaround.reading).toBe('No request completed in this range');
    expect(r.missedDeadlines.rows).toEqual([]);
    expect(r.backlog.oldest.map((o: { id: number }) => o.id)).toEqual([ids.E]);
  });

  it('lists the backlog by age band and status with the oldest linked, ages in business days', async () => {
    // As of Mon 3/2 12:00: C waits since Thu 2/12 09:00 = 8 + 9 + 45 + 45 + 4 = 111 h; E since Sat 2/28 23:59 = 4 h.
    const scope = reportScopeOf({ from: '2026-02-01', to: '2026-02-28' }, DEFAULT_CLOCK_POLICY.calendar, pst('2026-03-02T12:00'));
    await ensureOfficeCalendar(h.orm.em.fork() as never, DEFAULT_CLOCK_POLICY.calendar);
    const backlog = await backlogReport(h.orm.em.fork() as never, scope);
    expect(backlog.rows).toEqual([{ band: 'under-1', status: 'Submitted', count: 1 }, { band: '10-20', status: 'Submitted', count: 1 }]);
    expect(backlog.oldest.map((o) => [o.id, o.ageBusinessDays, o.kind, o.viewPath])).toEqual([
      [ids.C, bd(111), RENTAL, `/requests/certificate/${ids.C}`], [ids.E, bd(4), EVENT, `/requests/certificate/${ids.E}`],
    ]);
    expect(backlog.reading).toBe('2 open requests, 0 older than 20 business days; the oldest waits 12.3 business days');
    // Through the route (now): the same two, long overdue.
    const r = await reports('from=2026-02-01&to=2026-02-28');
    expect(r.backlog.open).toBe(2);
    expect(r.backlog.rows).toEqual([{ band: '20-plus', status: 'Submitted', count: 2 }]);
    expect(r.backlog.oldest[0]).toMatchObject({ id: ids.C, requestNumber: expect.any(Number), status: 'Submitted', requesterCompany: 'Anesthesiology' });
  });

  it('refuses a range that ends before it starts, and anyone but an administrator', async () => {
    const bad = await call(h, admin, 'GET', '/api/v1/reports?from=2026-03-01&to=2026-02-01');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('The end date is before the start date');
    expect((await call(h, requester, 'GET', '/api/v1/reports?from=2026-02-01&to=2026-02-28')).status).toBe(403);
    expect((await call(h, requester, 'GET', '/api/v1/reports.xlsx?from=2026-02-01&to=2026-02-28')).status).toBe(403);
    expect((await call(h, null, 'GET', '/api/v1/reports?from=2026-02-01&to=2026-02-28')).status).toBe(401);
  });
});

describe('GET /reports.xlsx', () => {
  it('opens in exceljs: one sheet per chart, the filter in the header, the same numbers as the JSON', async () => {
    const query = 'from=2026-02-01&to=2026-02-28&period=month';
    const json = await reports(query);
    const res = await call(h, admin, 'GET', `/api/v1/reports.xlsx?${query}`);
    expect(res.status).toBe(200);
    expect(res.raw.headers['content-disposition']).toBe('attachment; filename="reports-2026-02-01-to-2026-02-28.xlsx"');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.raw.rawPayload as never);
    expect(book.worksheets.map((s) => s.name)).toEqual(['Volumes', 'Turnaround', 'Time in status', 'Backlog', 'Missed deadlines', 'Top requesters', 'Instant certificates']);
    const values = (name: string, row: number) => (book.getWorksheet(name)!.getRow(row).values as unknown[]).slice(1);
    for (const sheet of book.worksheets) {
      expect(values(sheet.name, 2).slice(0, 4)).toEqual(['From', '2026-02-01', 'To', '2026-02-28']);
      expect(values(sheet.name, 3).slice(0, 4)).toEqual(['Kind', 'All kinds', 'Period', 'month']);
    }
    const table = (name: string, width: number) => {
      const ws = book.getWorksheet(name)!;
      const rows: unknown[][] = [];
      for (let i = 7; i <= ws.rowCount; i += 1) rows.push(Array.from({ length: width }, (_, c) => ws.getRow(i).getCell(c + 1).value ?? null));
      return rows;
    };
    expect(table('Volumes', 4)).toEqual(json.volumes.rows.map((x: any) => [x.period, x.kind, x.received, x.completed]));
    expect(table('Turnaround', 5).slice(0, 2)).toEqual(json.turnaround.rows.map((x: any) => [x.period, x.kind, x.completed, x.median, x.p90]));
    expect(table('Turnaround', 5).at(-1)).toEqual(['Whole range', 'All kinds', 2, json.turnaround.median, json.turnaround.p90]);
    expect(table('Time in status', 5).slice(0, json.timeInStatus.rows.length))
      .toEqual(json.timeInStatus.rows.map((x: any) => [x.status, x.waitingOn, x.businessDays, x.requests, x.averageBusinessDays]));
    expect(table('Missed deadlines', 4)).toEqual([['2026-02-01', 1, 1, 0]]);
    expect(table('Top requesters', 4)).toEqual([['Company', 'Mercy Hospital', 2, 2], ['Company', 'Harbor Clinic', 1, 0], ['Department', 'Anesthesiology', 2, 1]]);
    expect(values('Turnaround', 4)[0]).toBe(json.turnaround.reading);
  });
});
