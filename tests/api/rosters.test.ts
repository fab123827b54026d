/**
 * Rosters uploaded in bulk: the template of a kind is its form's columns; an upload's rows are checked by the form's
 * rules (valid rows become drafts, invalid ones keep the spec's messages), fixed in place; a malformed file is refused
 * whole with one message and creates nothing; "Submit all valid" submits each draft through its own workflow, with its
 * confirmation email.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { DATE_RANGE_MESSAGES, MESSAGES, ROSTER_KINDS, ROSTER_MESSAGES, rosterColumns, rosterExampleRow, STATUS } from '../../domain';
import { validateRosterRow } from '../../domain/roster-rows';
import { readRosterFile } from '../../services/rosters/roster-file';
import { kysely } from '../../db/kysely';
import { attachDocument, call, createExternalUser, login, loginAdmin, loginEmployee, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';
import { rosterCsv, rosterXlsx, uploadRosterFile } from '../support/roster-files';

let h: Harness;
let employee: Session;
let external: Session;
let admin: Session;
let stranger: Session;

beforeAll(async () => {
  h = await startHarness();
  employee = await loginEmployee(h);
  external = await loginRequester(h);
  admin = await loginAdmin(h);
  await createExternalUser(h, 'roster-stranger@clinic.example', 'Stranger-Pass1');
  stranger = await login(h, 'roster-stranger@clinic.example', 'Stranger-Pass1');
});
afterAll(async () => { await h?.stop(); });

/** Rosters, their rows and the requests: what a refused file must leave as it was. */
async function stored() {
  const db = kysely(h.orm.em.fork());
  const count = async (table: 'rosters' | 'roster_rows' | 'requests') => Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0].n);
  return { rosters: await count('rosters'), rows: await count('roster_rows'), requests: await count('requests') };
}

describe('the template', () => {
  it('has the columns of the kind\'s definition, labels as headers, and a valid example row (xlsx and CSV)', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/roster-templates?kind=credentialing', headers: { authorization: `Bearer ${employee.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as never);
    const sheet = book.worksheets[0];
    const columns = rosterColumns('credentialing');
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(columns.map((c) => c.label));
    expect(columns.map((c) => c.name)).toEqual(['lastName', 'firstName', 'middleInitial', 'altName', 'email', 'birthDate', 'dateFrom', 'dateTo',
      'providerType', 'reason', 'licensingState', 'facilityName', 'releaseAuthorized', 'recipientEmail', 'addlRecipients']);
    const example = (sheet.getRow(2).values as unknown[]).slice(1).map((v) => (v === undefined || v === null ? '' : String(v)));
    expect(Object.fromEntries(columns.map((c, i) => [c.name, example[i] ?? '']))).toEqual(rosterExampleRow('credentialing'));

    const csv = await h.app.inject({ method: 'GET', url: '/api/v1/roster-templates?kind=Clinician&format=csv', headers: { authorization: `Bearer ${employee.token}` } });
    expect(csv.headers['content-type']).toContain('text/csv');
    const [header] = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(header.split(',')).toEqual(rosterColumns('Clinician').map((c) => c.label));
  });

  it('gives every kind an example row its form accepts, as an external requester fills it', () => {
    for (const kind of ROSTER_KINDS) {
      expect(validateRosterRow(kind, rosterExampleRow(kind), { isExternal: true, today: '2026-12-01' }).errors, kind).toEqual({});
    }
  });
});

describe('an upload with good and bad rows', () => {
  let rosterId: number;

  it('makes drafts of the good rows and shows the bad ones with the spec\'s messages', async () => {
    const before = await stored();
    const csv = rosterCsv('credentialing', [
      { lastName: 'Okafor', firstName: 'Ben' },
      { lastName: '', dateFrom: '13/45/2020' },
      { lastName: 'Diaz', reason: 'Because', dateFrom: '12/31/2024', dateTo: '01/01/2024' },
      { lastName: 'Lee', firstName: 'Sam', releaseAuthorized: 'No' },
    ]);
    const res = await uploadRosterFile(h, employee, 'credentialing', csv);
    expect(res.status).toBe(201);
    rosterId = res.body.id;
    expect(res.body.counts).toMatchObject({ total: 4, draft: 1, invalid: 3 });
    const [good, blank, wrong, unconfirmed] = res.body.rows.data;
    expect(good).toMatchObject({ line: 2, status: 'draft', errors: {} });
    expect(blank).toMatchObject({ line: 3, status: 'invalid', requestId: null, errors: { lastName: MESSAGES.required, dateFrom: MESSAGES.requestDateFormat } });
    expect(wrong.errors).toEqual({ reason: MESSAGES.fieldValidation, dateFrom: DATE_RANGE_MESSAGES.startAfterEnd, dateTo: DATE_RANGE_MESSAGES.endBeforeStart });
    expect(unconfirmed.errors).toEqual({ releaseAuthorized: 'Please confirm the clinician’s authorization' });
    const draft = await call(h, employee, 'GET', `/api/v1/requests/${good.requestId}`);
    expect(draft.body).toMatchObject({ status: STATUS.draft, requestType: 'credentialing', lastName: 'Okafor', firstName: 'Ben', releaseAuthorized: true });
    expect((await stored()).requests).toBe(before.requests + 1);
  });

  it('re-checks a row fixed in place and makes it a draft once valid', async () => {
    const roster = (await call(h, employee, 'GET', `/api/v1/rosters/${rosterId}?status=invalid`)).body;
    const blank = roster.rows.data.find((r: { line: number }) => r.line === 3);
    const still = await call(h, employee, 'PATCH', `/api/v1/rosters/${rosterId}/rows/${blank.id}`, { values: { lastName: 'Nguyen' } });
    expect(still.status).toBe(200);
    expect(still.body).toMatchObject({ status: 'invalid', errors: { dateFrom: MESSAGES.requestDateFormat } });
    const fixed = await call(h, employee, 'PATCH', `/api/v1/rosters/${rosterId}/rows/${blank.id}`, { values: { dateFrom: '01/15/2020' } });
    expect(fixed.body).toMatchObject({ status: 'draft', errors: {} });
    expect((await call(h, employee, 'GET', `/api/v1/requests/${fixed.body.requestId}`)).body).toMatchObject({ lastName: 'Nguyen', status: STATUS.draft });
  });

  it('is its uploader\'s: administrators read it, other requesters are refused', async () => {
    expect((await call(h, admin, 'GET', `/api/v1/rosters/${rosterId}`)).status).toBe(200);
    expect((await call(h, stranger, 'GET', `/api/v1/rosters/${rosterId}`)).status).toBe(403);
    expect((await call(h, admin, 'POST', `/api/v1/rosters/${rosterId}/submit`)).status).toBe(403);
    expect((await call(h, employee, 'GET', '/api/v1/rosters')).body.data[0]).toMatchObject({ id: rosterId, total: 4 });
  });
});

describe('a malformed file', () => {
  const refused = async (bytes: Buffer | string, filename = 'roster.csv', kind: 'credentialing' | 'Clinician' = 'credentialing') => {
    const before = await stored();
    const res = await uploadRosterFile(h, employee, kind, bytes, filename);
    expect(await stored()).toEqual(before);
    return res;
  };

  it('wrong columns: names the missing and the unknown ones', async () => {
    const headers = rosterColumns('credentialing').map((c) => (c.name === 'lastName' ? 'Surname' : c.label)).filter((l) => l !== 'Date of Birth');
    const res = await refused(rosterCsv('credentialing', [{}], { headers }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(ROSTER_MESSAGES.columns(['Last Name', 'Date of Birth'], ['Surname']));
  });

  it('a formula: says which cell', async () => {
    const res = await refused(await rosterXlsx('credentialing', [{}, {}], { formulaAt: 'firstName' }), 'roster.xlsx');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(ROSTER_MESSAGES.formula('B2'));
    const csv = await refused(rosterCsv('credentialing', [{}, { facilityName: '=HYPERLINK("http://x")' }]));
    expect(csv.body.message).toBe(ROSTER_MESSAGES.formula('L3'));
  });

  it('another encoding than UTF-8 (UTF-16, Windows-1252)', async () => {
    const text = rosterCsv('credentialing', [{ lastName: 'Muñoz' }]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect((await refused(utf16)).body.message).toBe(ROSTER_MESSAGES.encoding);
    expect((await refused(Buffer.from(text, 'latin1'))).body.message).toBe(ROSTER_MESSAGES.encoding);
  });

  it('no rows, or more than 500: one message', async () => {
    expect((await refused('')).body.message).toBe(ROSTER_MESSAGES.empty);
    expect((await refused(rosterCsv('credentialing', []))).body.message).toBe(ROSTER_MESSAGES.empty);
    expect((await refused(rosterCsv('credentialing', Array.from({ length: 501 }, () => ({}))))).body.message).toBe(ROSTER_MESSAGES.tooManyRows);
    const big = rosterCsv('credentialing', Array.from({ length: 10_000 }, (_, i) => ({ lastName: `Name${i}` })));
    const started = performance.now();
    const res = await refused(big);
    const ms = performance.now() - started;
    expect(res.body.message).toBe(ROSTER_MESSAGES.tooManyRows);
    const xlsx = await rosterXlsx('credentialing', Array.from({ length: 10_000 }, (_, i) => ({ lastName: `Name${i}` })));
    const startedXlsx = performance.now();
    expect((await refused(xlsx, 'roster.xlsx')).body.message).toBe(ROSTER_MESSAGES.tooManyRows);
    console.log(`[rosters] 10,000-row refusal: CSV ${Math.round(ms)} ms (${big.length} bytes), xlsx ${Math.round(performance.now() - startedXlsx)} ms (${xlsx.length} bytes)`);
    expect(ms).toBeLessThan(3000);
  });

  it('neither xlsx nor text', async () => {
    const res = await refused(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0, 0, 1, 2, 3]), 'roster.xls');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(ROSTER_MESSAGES.unsupportedType);
  });
});

describe('speed', () => {
  it('reads and checks 500 rows in at most 3 s', async () => {
    const csv = Buffer.from(rosterCsv('credentialing', Array.from({ length: 500 }, (_, i) => ({ lastName: `Name${i}`, dateFrom: i % 7 ? '01/01/2020' : 'soon' }))));
    const xlsx = await rosterXlsx('credentialing', Array.from({ length: 500 }, (_, i) => ({ lastName: `Name${i}` })));
    for (const [name, bytes] of [['csv', csv], ['xlsx', xlsx]] as const) {
      const started = performance.now();
      const rows = await readRosterFile(bytes, 'credentialing');
      const errors = rows.map((r) => validateRosterRow('credentialing', r.cells, { isExternal: false, today: '2026-12-01' }).errors);
      const ms = performance.now() - started;
      console.log(`[rosters] 500 rows read and checked (${name}): ${Math.round(ms)} ms`);
      expect(rows).toHaveLength(500);
      expect(errors.filter((e) => Object.keys(e).length).length).toBe(name === 'csv' ? 72 : 0);
      expect(ms).toBeLessThan(3000);
    }
  });
});

describe('submit all valid', () => {
  it('submits each draft through its own workflow, with its confirmation email; a refused row says why', async () => {
    const csv = rosterCsv('credentialing', [
      { lastName: 'Adams', firstName: 'Ana' }, { lastName: 'Baker', firstName: 'Bo' }, { lastName: 'Cruz', firstName: 'Cy' }, { lastName: 'Dunn', firstName: 'Di' },
    ]);
    const up = await uploadRosterFile(h, external, 'credentialing', csv);
    expect(up.body.counts).toMatchObject({ draft: 4, invalid: 0 });
    const rows = up.body.rows.data as { id: number; requestId: number; line: number }[];
    // The signed release each credentialing request needs: attached on three drafts, not on the fourth.
    for (const row of rows.slice(0, 3)) await attachDocument(h, external, row.requestId, 'Signed release.pdf');
    const started = await call(h, external, 'POST', `/api/v1/rosters/${up.body.id}/submit`);
    expect(started.status).toBe(202);
    const done = await eventually(async () => {
      const r = (await call(h, external, 'GET', `/api/v1/rosters/${up.body.id}`)).body;
      return r.submitting ? null : r;
    }, 60_000);
    expect(done.counts).toMatchObject({ submitted: 3, refused: 1 });
    expect(done.rows.data[3]).toMatchObject({ status: 'refused', outcome: MESSAGES.requiredDocuments });
    for (const row of rows.slice(0, 3)) {
      const request = (await call(h, external, 'GET', `/api/v1/requests/${row.requestId}`)).body;
      expect(request.status).toBe(STATUS.submitted);
      const handle = h.temporal.workflow.getHandle(`request-${request.requestNumber}`);
      expect((await handle.describe()).status.name).toBe('RUNNING');
      await h.sink.waitFor((m) => m.subject.startsWith(`Request ${request.requestNumber} received`) && m.to.includes('requester@hospital.example'), 60_000);
    }
    // Fixed (its release attached), the refused row goes with the next "Submit all valid".
    await attachDocument(h, external, rows[3].requestId, 'Signed release.pdf');
    await call(h, external, 'POST', `/api/v1/rosters/${up.body.id}/submit`);
    const again = await eventually(async () => {
      const r = (await call(h, external, 'GET', `/api/v1/rosters/${up.body.id}`)).body;
      return r.submitting ? null : r;
    }, 60_000);
    expect(again.counts).toMatchObject({ submitted: 4, refused: 0 });
  });

  it('counts the recipients a row names against the per-target mail limits, as a form does', async () => {
    // The address has had 49 of its 50 emails of the day: of two rows naming it, one is submitted, the other refused.
    await sql`insert into "chosen_address_mail_counts" ("key", "sent", "window_ends") values ('address|requestRecipients|office@facility.example', 49, now() + interval '1 day')`
      .execute(kysely(h.orm.em.fork()));
    const rows = [{ lastName: 'Ross', recipientEmail: 'office@facility.example' }, { lastName: 'Roth', recipientEmail: 'Office@Facility.example' }];
    const up = await uploadRosterFile(h, employee, 'Clinician', rosterCsv('Clinician', rows));
    expect(up.body.counts).toMatchObject({ draft: 2 });
    await call(h, employee, 'POST', `/api/v1/rosters/${up.body.id}/submit`);
    const done = await eventually(async () => {
      const r = (await call(h, employee, 'GET', `/api/v1/rosters/${up.body.id}`)).body;
      return r.submitting ? null : r;
    }, 60_000);
    expect(done.counts).toMatchObject({ submitted: 1, refused: 1 });
    const refusedRow = done.rows.data.find((r: { status: string }) => r.status === 'refused');
    expect(refusedRow.outcome).toMatch(/as many emails from the portal as we send to one address in a day/);
  });
});

describe('the open-drafts quota', () => {
  it('makes drafts while there is room and says how many rows wait for it', async () => {
    const small = await startHarness({ worker: false, env: { OPEN_DRAFTS_QUOTA: '2' } });
    try {
      // A requester of their own: the file's database holds the other accounts' drafts of the tests above.
      await createExternalUser(small, 'roster-quota@clinic.example', 'Quota-Pass1');
      const session = await login(small, 'roster-quota@clinic.example', 'Quota-Pass1');
      const rows = [{ lastName: 'One' }, { lastName: 'Two' }, { lastName: 'Three' }, { lastName: '' }];
      const res = await uploadRosterFile(small, session, 'Clinician', rosterCsv('Clinician', rows));
      expect(res.status).toBe(201);
      expect(res.body.counts).toMatchObject({ draft: 2, valid: 1, invalid: 1 });
      expect(res.body.message).toBe(ROSTER_MESSAGES.roomSummary(2, 1));
      expect(res.body.rows.data[2]).toMatchObject({ status: 'valid', requestId: null, outcome: ROSTER_MESSAGES.noRoom(2) });
    } finally {
      await small.stop();
    }
  });
});
