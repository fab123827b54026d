/**
 * The office's days across the API, with the process in UTC and in Pacific time: a request
 * submitted at 23:30 in Portland is found by a search for that day, exported with that day, counted in that day's
 * Today, and a certificate approved then is dated that day and covered by the policy year in force that day.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeSnapshot } from '../../activities/effects/request-snapshot';
import { certificateHtml, type CertificateData } from '../../activities/pdf/certificate.html';
import { submissionCounts } from '../../services/lists/request-counts';
import { RequestSchema } from '../../db/entities';
import { certificateDraft, credentialingDraft, call, loginAdmin, loginEmployee, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let requester: Session;
let employee: Session;
const zone = () => h.config.clockPolicy.calendar.timeZone;

beforeAll(async () => {
  h = await startHarness(); // a worker: exports are written by their workflow
  [admin, requester, employee] = await Promise.all([loginAdmin(h), loginRequester(h), loginEmployee(h)]);
  // Two policy years far from every other test's dates: 2091-07-01 … 2092-06-30 and the one before it.
  await h.orm.em.fork().getConnection().execute(
    `insert into policies (start_date, end_date, policy_number, limit_claim, annual_aggregate, created_at, updated_at) values
     ('2090-07-01T11:00:00Z', '2091-06-30T11:00:00Z', 'TZ-2090', '1000000', '3000000', now(), now()),
     ('2091-07-01T11:00:00Z', '2092-06-30T11:00:00Z', 'TZ-2091', '2000000', '6000000', now(), now())`, [], 'run');
});
afterAll(async () => {
  await h?.orm.em.fork().getConnection().execute(`delete from policies where policy_number like 'TZ-%'`, [], 'run');
  await h?.stop();
});

const api = (session: Session, method: string, url: string, body?: unknown) => call(h, session, method, url, body);

async function submittedAt(submitDate: string, lastName: string): Promise<number> {
  const id = await credentialingDraft(h, requester, { lastName });
  await h.orm.em.fork().nativeUpdate(RequestSchema, { id }, { status: 'Submitted', requestNumber: 800_000 + id, submitDate: new Date(submitDate) });
  return id;
}

async function exportedSubmissionDay(day: string): Promise<Date[]> {
  const started = await api(admin, 'POST', '/api/v1/export-requests', { filename: 'coi_export_tz', dateFrom: `${day}T11:00:00.000Z`, dateTo: `${day}T11:00:00.000Z` });
  expect(started.status).toBe(201);
  const row: Record<string, any> = await eventually(async () => { // written by the export workflow on the worker
    const now = (await api(admin, 'GET', '/api/v1/export-requests')).body.data.find((e: { id: number }) => e.id === started.body.id);
    return now.state !== 'running' && now;
  }, 60_000);
  const file = await h.app.inject({ method: 'GET', url: `/api/v1/export-requests/${row.id}/file`, headers: { authorization: `Bearer ${admin.token}` } });
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file.rawPayload as never);
  const sheet = workbook.worksheets[0];
  const column = (sheet.getRow(1).values as string[]).indexOf('Submission Date');
  const days: Date[] = [];
  sheet.eachRow((r, n) => { if (n > 1) days.push(r.getCell(column).value as Date); });
  return days;
}

describe.each(['UTC', 'America/Los_Angeles'])('with the API process in %s', (processZone) => {
  const before = process.env.TZ;
  beforeAll(() => { process.env.TZ = processZone; });
  afterAll(() => { process.env.TZ = before; });
  // A fresh year per zone, so that the two runs do not see each other's rows.
  const year = processZone === 'UTC' ? 2093 : 2094;

  it('the office runs in Portland whatever the process\'s zone', () => {
    expect(zone()).toBe('America/Los_Angeles');
    expect(new Date(`${year}-01-15T07:30:00Z`).getTimezoneOffset()).toBe(processZone === 'UTC' ? 0 : 480);
  });

  it('finds a request submitted at 23:30 by a search for that day, not the next, and exports it with that day', async () => {
    const id = await submittedAt(`${year}-01-15T07:30:00Z`, `Nightowl${year}`); // 23:30 on January 14 in Portland
    const search = (day: string) => api(admin, 'GET', `/api/v1/search-requests?clinLastName=Nightowl${year}&searchFrom=${day}T11:00:00.000Z&searchTo=${day}T11:00:00.000Z`);
    expect((await search(`${year}-01-14`)).body.data.map((r: { id: number }) => r.id)).toEqual([id]);
    expect((await search(`${year}-01-15`)).body.data).toEqual([]);
    expect((await exportedSubmissionDay(`${year}-01-14`)).map((d) => d.toISOString())).toEqual([`${year}-01-14T00:00:00.000Z`]);
    expect(await exportedSubmissionDay(`${year}-01-15`)).toEqual([]);
  });

  it('counts a submission at 23:30 in that day\'s Today, and one at 23:30 the evening before in the month only', async () => {
    // Counts run from each boundary on (nothing is submitted in the future): this year's rows after February are
    // none, the January one above falls before the month.
    await submittedAt(`${year}-02-21T07:30:00Z`, 'Counted'); // 23:30 on February 20 (PST)
    await submittedAt(`${year}-02-20T07:30:00Z`, 'Counted'); // 23:30 on February 19
    const counts = await submissionCounts(h.orm.em.fork(), new Date(`${year}-02-21T07:45:00Z`), zone());
    expect(counts).toMatchObject({ today: 1, monthToDate: 2 });
  });

  it('dates a certificate issued at 23:30 on June 30 that day, under the policy year in force that day', async () => {
    const id = await certificateDraft(h, employee, 'Property');
    const em = h.orm.em.fork();
    const request = await em.findOneOrFail(RequestSchema, id);
    request.requestNumber = 900_000 + id;
    const snapshot = await takeSnapshot(em, request, { at: '2092-07-01T06:30:00.000Z', publicUrl: 'http://x', timeZone: zone(), withLetter: true });
    const letter = snapshot.letter as CertificateData;
    expect(letter.issuedOn).toBe('2092-06-30');
    expect(letter.policyYears.map((y) => y.policyNumber)).toEqual(['TZ-2091']);
    expect(certificateHtml(letter)).toContain('Date issued: 06/30/2092');
    const nextMorning = await takeSnapshot(em, request, { at: '2092-07-01T15:00:00.000Z', publicUrl: 'http://x', timeZone: zone(), withLetter: true });
    expect((nextMorning.letter as CertificateData).issuedOn).toBe('2092-07-01');
    expect((nextMorning.letter as CertificateData).policyYears).toEqual([]);
  });
});
