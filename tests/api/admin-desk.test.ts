/**
 * The administrators' desk through the API: search, FAQs, policies, email templates, CS-STARS upload,
 * claim history and the letter's claim table, export. Every rule and message of spec 1 §5 and spec 2 §8.3.
 */
import ExcelJS from 'exceljs';
import type { LetterDocument } from '../../activities/pdf/letter-documents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialingLetterHtml } from '../../activities/pdf/credentialing-letter.html';
import { takeSnapshot } from '../../activities/effects/request-snapshot';
import { claimsCsv, CSV_HEADER } from '../../bench/generate-cs-stars';
import { ClaimDataSchema, EmailTemplateSchema, RequestSchema } from '../../db/entities';
import { DEFAULT_OFFICE_TIME_ZONE, DESK_MESSAGES, EMAIL_TEMPLATE_TITLES, MESSAGES, MONEY_MESSAGE, TEMPLATE_VARIABLES } from '../../domain';
import { call, credentialingDraft, loginAdmin, loginRequester, uploadClaimsCsv, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let requester: Session;

beforeAll(async () => {
  h = await startHarness(); // a worker: exports are written by their workflow
  admin = await loginAdmin(h);
  requester = await loginRequester(h);
});
afterAll(async () => { await h?.stop(); });

const api = (session: Session | null, method: string, url: string, body?: unknown) => call(h, session, method, url, body);

const uploadCsv = (session: Session, text: string, filename?: string, contentType?: string) => uploadClaimsCsv(h, session, text, filename, contentType);

/** A submitted request, written directly (the workflow is not what these tests are about). */
async function submitted(fields: Record<string, unknown>) {
  const id = await credentialingDraft(h, requester);
  const em = h.orm.em.fork();
  await em.nativeUpdate(RequestSchema, { id }, { status: 'Submitted', requestNumber: 700_000 + id, submitDate: new Date('2025-03-10T18:00:00Z'), ...fields });
  return id;
}

describe('search-requests', () => {
  let smith: number;
  beforeAll(async () => {
    smith = await submitted({ lastName: 'Blacksmith-Lowe', requesterCompany: 'Harbor Clinic', vehicleIdNumber: '1HG-CM8 2633A', plateNumber: 'ABC 123', driverName: 'Pat Driver', submitDate: new Date('2025-04-15T20:00:00Z') });
  });

  it('is for administrators only', async () => {
    expect((await api(requester, 'GET', '/api/v1/search-requests?clinLastName=smith')).status).toBe(403);
    expect((await api(null, 'GET', '/api/v1/search-requests?clinLastName=smith')).status).toBe(401);
  });

  it('needs a parameter besides the count', async () => {
    const res = await api(admin, 'GET', '/api/v1/search-requests?limit=5');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(DESK_MESSAGES.searchParamsNeeded);
  });

  it('refuses a from date after the to date and a count below 1', async () => {
    const range = await api(admin, 'GET', '/api/v1/search-requests?searchFrom=2025-05-01T11:00:00.000Z&searchTo=2025-04-01T11:00:00.000Z');
    expect(range.status).toBe(400);
    expect(range.body.errors.searchFrom).toBe(DESK_MESSAGES.fromAfterTo);
    expect((await api(admin, 'GET', '/api/v1/search-requests?clinLastName=smith&limit=0')).status).toBe(400);
  });

  it('matches names by contains, VIN and plate without dashes and spaces, and the end day inclusive', async () => {
    for (const query of ['clinLastName=smith', 'reqstrCompany=harbor', 'fleetVIN=1hgcm82633a', 'fleetVIN=CM8-26', 'plateNumber=abc-123', 'driverName=pat',
      'searchFrom=2025-04-15T11:00:00.000Z&searchTo=2025-04-15T11:00:00.000Z&clinLastName=Blacksmith']) {
      const res = await api(admin, 'GET', `/api/v1/search-requests?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.body.data.map((r: { id: number }) => r.id), query).toContain(smith);
    }
    const row = (await api(admin, 'GET', '/api/v1/search-requests?clinLastName=blacksmith')).body.data[0];
    expect(Object.keys(row).sort()).toEqual(['completedDate', 'employerType', 'id', 'requestNumber', 'requestType', 'requesterName', 'status', 'submitDate', 'typeLabel']);
    expect(row.typeLabel).toBe('Claim History and Insurance Verification');
  });

  it('leaves out drafts and limits the count (default 15)', async () => {
    await credentialingDraft(h, requester, { lastName: 'Draftonly' });
    expect((await api(admin, 'GET', '/api/v1/search-requests?clinLastName=draftonly')).body.data).toEqual([]);
    for (let i = 0; i < 17; i += 1) await submitted({ lastName: `Manyrows${i}` });
    expect((await api(admin, 'GET', '/api/v1/search-requests?clinLastName=manyrows')).body.data).toHaveLength(15);
    expect((await api(admin, 'GET', '/api/v1/search-requests?clinLastName=manyrows&limit=3')).body.data).toHaveLength(3);
  });
});

describe('faqs', () => {
  const questions = async (type = 'Admin') => (await api(admin, 'GET', `/api/v1/faqs?type=${type}`)).body.data as { id: number; question: string; order: number }[];
  const contiguous = (list: { order: number }[]) => list.map((f) => f.order).every((o, i) => o === i + 1);

  it('gives requesters the requester set and administrators the set they ask for, by order', async () => {
    const mine = (await api(requester, 'GET', '/api/v1/faqs?type=Admin')).body.data;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((f: { type: string }) => f.type === 'Requester')).toBe(true);
    expect((await questions('Admin')).every((f) => f.question)).toBe(true);
    expect(contiguous(await questions('Requester'))).toBe(true);
  });

  it('adds at count+1 by default and keeps orders contiguous on add, edit and delete', async () => {
    const before = await questions();
    const added = await api(admin, 'POST', '/api/v1/faqs', { type: 'Admin', question: 'Where do exports go?', answer: 'To the list.' });
    expect(added.status).toBe(201);
    expect(added.body.order).toBe(before.length + 1);
    const first = await api(admin, 'POST', '/api/v1/faqs', { type: 'Admin', question: 'First question?', answer: 'Yes.', order: 1 });
    expect(first.body.order).toBe(1);
    let list = await questions();
    expect(list[0].question).toBe('First question?');
    expect(contiguous(list)).toBe(true);
    // capped at count+1 when adding, rounded up
    const capped = await api(admin, 'POST', '/api/v1/faqs', { type: 'Admin', question: 'Capped?', answer: 'Yes.', order: 99 });
    expect(capped.body.order).toBe(list.length + 1);
    const rounded = await api(admin, 'POST', '/api/v1/faqs', { type: 'Admin', question: 'Rounded?', answer: 'Yes.', order: 1.2 });
    expect(rounded.body.order).toBe(2);
    // edit: move the first to the end (capped at count), atomically with its text
    list = await questions();
    const moved = await api(admin, 'PATCH', `/api/v1/faqs/${first.body.id}`, { question: 'First question, edited?', answer: 'Moved.', order: 500 });
    expect(moved.status).toBe(200);
    expect(moved.body.order).toBe(list.length);
    list = await questions();
    expect(contiguous(list)).toBe(true);
    expect(list.at(-1)!.question).toBe('First question, edited?');
    // delete keeps them contiguous
    for (const id of [rounded.body.id, added.body.id]) expect((await api(admin, 'DELETE', `/api/v1/faqs/${id}`)).status).toBe(200);
    expect(contiguous(await questions())).toBe(true);
    for (const id of [first.body.id, capped.body.id]) await api(admin, 'DELETE', `/api/v1/faqs/${id}`);
    expect((await questions()).length).toBe(before.length);
  });

  it('refuses a duplicate question within its type, an empty or too long field and an order below 1', async () => {
    const existing = (await questions('Requester'))[0];
    const dup = await api(admin, 'POST', '/api/v1/faqs', { type: 'Requester', question: existing.question.toUpperCase(), answer: 'x' });
    expect(dup.status).toBe(400);
    expect(dup.body.message).toBe(DESK_MESSAGES.faqDuplicate);
    const sameInOtherType = await api(admin, 'POST', '/api/v1/faqs', { type: 'Admin', question: existing.question, answer: 'x' });
    expect(sameInOtherType.status).toBe(201);
    await api(admin, 'DELETE', `/api/v1/faqs/${sameInOtherType.body.id}`);
    expect((await api(admin, 'POST', '/api/v1/faqs', { type: 'Admin', question: 'q'.repeat(121), answer: 'x' })).status).toBe(400);
    expect((await api(admin, 'POST', '/api/v1/faqs', { type: 'Admin', question: 'ok?', answer: 'x'.repeat(1537) })).status).toBe(400);
    const empty = await api(admin, 'POST', '/api/v1/faqs', { type: 'Admin', question: '  ', answer: 'x' });
    expect(empty.body.errors.question).toBe(MESSAGES.required);
    expect((await api(admin, 'POST', '/api/v1/faqs', { type: 'Admin', question: 'zero?', answer: 'x', order: 0 })).status).toBe(400);
    const editDup = await api(admin, 'PATCH', `/api/v1/faqs/${(await questions('Requester'))[1].id}`, { question: existing.question, answer: 'x', order: 1 });
    expect(editDup.body.message).toBe(DESK_MESSAGES.faqDuplicate);
    expect((await api(requester, 'POST', '/api/v1/faqs', { type: 'Requester', question: 'mine?', answer: 'x' })).status).toBe(403);
  });

  it('keeps orders contiguous when two administrators add at once', async () => {
    const added = await Promise.all(Array.from({ length: 6 }, (_, i) => api(admin, 'POST', '/api/v1/faqs', { type: 'Admin', question: `Race ${i}?`, answer: 'x', order: 1 })));
    expect(added.every((r) => r.status === 201)).toBe(true);
    expect(contiguous(await questions())).toBe(true);
    for (const r of added) await api(admin, 'DELETE', `/api/v1/faqs/${r.body.id}`);
    expect(contiguous(await questions())).toBe(true);
  });
});

describe('policies', () => {
  it('stores dates at 11:00 UTC, money with 2 decimals, and refuses bad dates, money and overlaps', async () => {
    const created = await api(admin, 'POST', '/api/v1/policies', { startDate: '07/01/2090', endDate: '6/30/2091', policyNumber: ' UHS-PL-2090 ', limitClaim: '$3,000,000', annualAggregate: '6000000.5' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ startDate: '2090-07-01T11:00:00.000Z', endDate: '2091-06-30T11:00:00.000Z', policyNumber: 'UHS-PL-2090', limitClaim: '3000000.00', annualAggregate: '6000000.50' });
    const badDate = await api(admin, 'POST', '/api/v1/policies', { startDate: '2090/07/01', endDate: '13/01/2091', policyNumber: 'x', limitClaim: '1', annualAggregate: '1' });
    expect(badDate.status).toBe(400);
    expect(badDate.body.errors).toMatchObject({ startDate: DESK_MESSAGES.policyDateFormat, endDate: DESK_MESSAGES.policyDateFormat });
    const badMoney = await api(admin, 'POST', '/api/v1/policies', { startDate: '07/01/2095', endDate: '06/30/2096', policyNumber: 'x', limitClaim: 'lots', annualAggregate: '' });
    expect(badMoney.body.errors).toMatchObject({ limitClaim: MONEY_MESSAGE, annualAggregate: MESSAGES.required });
    const overlap = await api(admin, 'POST', '/api/v1/policies', { startDate: '01/01/2091', endDate: '12/31/2091', policyNumber: 'x', limitClaim: '1', annualAggregate: '1' });
    expect(overlap.status).toBe(400);
    expect(overlap.body.message).toMatch(/overlaps the policy year 07\/01\/2090 – 06\/30\/2091/);
    const moved = await api(admin, 'PATCH', `/api/v1/policies/${created.body.id}`, { endDate: '06/30/2092' });
    expect(moved.body.endDate).toBe('2092-06-30T11:00:00.000Z');
    const overlapExisting = await api(admin, 'PATCH', `/api/v1/policies/${created.body.id}`, { startDate: '07/01/2024' });
    expect(overlapExisting.status).toBe(400);
    expect((await api(admin, 'DELETE', `/api/v1/policies/${created.body.id}`)).status).toBe(200);
    expect((await api(requester, 'GET', '/api/v1/policies')).status).toBe(403);
  });
});

describe('email-templates', () => {
  it('lists by order and refuses handlebars that does not compile or names an unknown variable', async () => {
    const list = (await api(admin, 'GET', '/api/v1/email-templates')).body.data as { id: number; order: number; subject: string; body: string }[];
    expect(list.map((t) => t.order)).toEqual([...list.map((t) => t.order)].sort((a, b) => a - b));
    const target = list[0];
    const broken = await api(admin, 'PATCH', `/api/v1/email-templates/${target.id}`, { subject: 'Hi {{requestNumber', body: 'x' });
    expect(broken.status).toBe(400);
    expect(broken.body.errors.subject).toMatch(/^The subject is not a valid template/);
    const unknown = await api(admin, 'PATCH', `/api/v1/email-templates/${target.id}`, { subject: 'Hi', body: 'Dear {{requesterNmae}}, {{#each things}}x{{/each}}' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.body).toContain('{{requesterNmae}}');
    const tooLong = await api(admin, 'PATCH', `/api/v1/email-templates/${target.id}`, { subject: 's'.repeat(101), body: 'x' });
    expect(tooLong.status).toBe(400);
    expect((await api(admin, 'PATCH', `/api/v1/email-templates/${target.id}`, { subject: 's', body: 'b'.repeat(2501) })).status).toBe(400);
  });

  it('accepts every snapshot variable and the if/unless helpers, previews with a sample, and saves trimmed text', async () => {
    const template = await h.orm.em.fork().findOneOrFail(EmailTemplateSchema, { title: EMAIL_TEMPLATE_TITLES.requestDiscussion });
    const body = `  ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(' ')} {{#if clinicianName}}for {{clinicianName}}{{else}}none{{/if}}  `;
    const preview = await api(admin, 'POST', '/api/v1/email-templates/preview', { subject: 'Request {{requestNumber}}', body });
    expect(preview.status).toBe(200);
    expect(preview.body.subject).toMatch(/^Request \d+$/);
    expect(preview.body.body).toContain('OHSU');
    const saved = await api(admin, 'PATCH', `/api/v1/email-templates/${template.id}`, { subject: ' New subject {{requestNumber}} ', body });
    expect(saved.status).toBe(200);
    expect(saved.body.subject).toBe('New subject {{requestNumber}}');
    expect(saved.body.body).toBe(body.trim());
    await api(admin, 'PATCH', `/api/v1/email-templates/${template.id}`, { subject: template.subject, body: template.body });
  });
});

describe('cs-stars', () => {
  const count = () => h.orm.em.fork().count(ClaimDataSchema, {});

  it('requires a CSV file', async () => {
    const none = await h.app.inject({ method: 'POST', url: '/api/v1/cs-stars', headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' }, payload: {} });
    expect(none.json().message).toBe(DESK_MESSAGES.csvRequired);
    const png = await uploadCsv(admin, 'not a csv', 'picture.png', 'image/png');
    expect(png.status).toBe(400);
    expect(png.body.message).toBe(DESK_MESSAGES.csvRequired);
  });

  it('refuses a bad file with the line numbers and reasons, keeping nothing of it', async () => {
    const before = await count();
    const lines = claimsCsv(50, 7).trim().split('\n');
    lines[3] = lines[3].replace('Defendant - Staff', 'Witness').replace('Named in Claim', 'Witness');
    lines[10] = lines[10].replace(/,\d\d\/\d\d\/\d{4},(\d\d\/\d\d\/\d{4}),/, ',02/30/2019,$1,');
    lines[20] = lines[20].replace(/,(\d+\.\d\d),/, ',lots,');
    const res = await uploadCsv(admin, lines.join('\n'));
    expect(res.status).toBe(400);
    expect(res.body.data.badLines).toBe(3);
    expect(res.body.data.lines.map((l: { line: number }) => l.line)).toEqual([4, 11, 21]);
    expect(res.body.data.lines[0].reasons[0]).toMatch(/involvement "Witness" is not one of/);
    expect(res.body.data.lines[1].reasons[0]).toMatch(/claimDate "02\/30\/2019" is not a date/);
    expect(res.body.data.lines[2].reasons[0]).toMatch(/indemnityPaid "lots"/);
    expect(await count()).toBe(before);
    const openWithOutcome = `${CSV_HEADER}\n06/30/2025,Doe,Jane,,Named in Claim,CS-X-1,Claim,Open,Settled,01/02/2020,01/03/2020,0,x\n`;
    expect((await uploadCsv(admin, openWithOutcome)).body.data.lines[0].reasons).toContain('outcome must be empty while the claim is Open');
    expect((await uploadCsv(admin, 'Name,Date\nx,y\n')).body.data.lines[0].reasons[0]).toMatch(/header row lacks/);
    const dup = `${CSV_HEADER}\n06/30/2025,Doe,Jane,,Named in Claim,CS-D-1,Claim,Open,,01/02/2020,01/03/2020,0,x\n06/30/2025,Doe,Jane,,Named in Claim,CS-D-1,Claim,Open,,01/02/2020,01/03/2020,0,x\n`;
    expect((await uploadCsv(admin, dup)).body.data.lines).toEqual([{ line: 3, reasons: ['claim CS-D-1 for Jane Doe is already on line 2'] }]);
    const short = `${CSV_HEADER}\n06/30/2025,Doe,Jane\n`;
    expect((await uploadCsv(admin, short)).body.data.lines[0]).toEqual({ line: 2, reasons: ['the line has 3 values; the header has 13'] });
    expect(await count()).toBe(before);
  });

  it('loads a good file, lists it by report date, and does not duplicate on re-upload', async () => {
    const before = await count();
    const csv = claimsCsv(300, 11);
    const first = await uploadCsv(admin, csv);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ rows: 300, inserted: 300, updated: 0 });
    expect(await count()).toBe(before + 300);
    const again = await uploadCsv(admin, csv);
    expect(again.body).toMatchObject({ rows: 300, inserted: 0, updated: 0, unchanged: 300 });
    expect(await count()).toBe(before + 300);
    // a newer export repeating the claims with one outcome changed updates that claim only
    const lines = csv.trim().split('\n');
    const index = lines.findIndex((l, i) => i > 0 && l.includes(',Final,Dismissed,'));
    lines[index] = lines[index].replace(',Final,Dismissed,', ',Final,Claim Denied,');
    const newer = await uploadCsv(admin, lines.join('\n'));
    expect(newer.body).toMatchObject({ rows: 300, inserted: 0, updated: 1, unchanged: 299 });
    expect(await count()).toBe(before + 300);
    const page = await api(admin, 'GET', '/api/v1/cs-stars?$limit=10000&$skip=0&$sort[reportDate]=-1');
    const dates = page.body.data.map((r: { reportDate: string }) => r.reportDate);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(page.body.limit).toBe(10000);
    expect(page.body.total).toBe(before + 300);
    // a claim as the table shows it: the uploaded values, dates as timestamps, the amount as written, no internal fields
    const uploaded = csv.trim().split('\n').slice(1).find((l) => !l.includes('"') && !l.includes(',Dismissed,'))!.split(',');
    const listed = page.body.data.find((r: { claimNumber: string; physicianLastName: string; physicianFirstName: string }) =>
      r.claimNumber === uploaded[5] && r.physicianLastName === uploaded[1] && r.physicianFirstName === uploaded[2]);
    expect(listed).toMatchObject({
      physicianMiddleInitial: uploaded[3], involvement: uploaded[4], type: uploaded[6], status: uploaded[7], outcome: uploaded[8],
      indemnityPaid: uploaded[11], description: uploaded[12],
    });
    const [month, day, year] = uploaded[10].split('/');
    expect(listed.reportDate.slice(0, 10)).toBe(`${year}-${month}-${day}`);
    expect(Object.keys(listed).sort()).toEqual(['claimDate', 'claimNumber', 'description', 'exportDate', 'id', 'indemnityPaid', 'involvement',
      'outcome', 'physicianFirstName', 'physicianLastName', 'physicianMiddleInitial', 'reportDate', 'status', 'type']);
    expect((await api(requester, 'GET', '/api/v1/cs-stars')).status).toBe(403);
  });
});

describe('claim-history and the letter', () => {
  let requestId: number;
  beforeAll(async () => {
    requestId = await submitted({ lastName: 'Quinterra', firstName: 'Rosalind', dateFrom: new Date('2015-01-01T11:00:00Z'), dateTo: new Date('2020-12-31T11:00:00Z') });
    const csv = `${CSV_HEADER}
06/30/2025,Quinterra,Rosalind,M,Defendant - Staff,CH-1,Lawsuit,Final,Settled,02/01/2016,03/01/2016,"125,000.00",Delay
06/30/2025,Quinterra,Rosalind,M,Named in Claim,CH-2,Claim,Final,Dismissed,05/01/2019,06/15/2019,0,Fall
06/30/2025,Quinterra,Rosalind,M,Named in Claim,CH-3,Claim,Open,,05/01/2022,06/15/2022,0,Outside the dates
06/30/2025,Quinterra,Bernard,,Named in Claim,CH-4,Claim,Open,,05/01/2018,06/15/2018,0,Other first name
06/30/2025,Albright,Rosalind,,Named in Claim,CH-5,Claim,Open,,05/01/2017,06/15/2017,0,Other last name
`;
    expect((await uploadCsv(admin, csv)).status).toBe(201);
  });

  it('searches by last and first name (or / and) within the request dates, sorted by names then date', async () => {
    const or = await api(admin, 'GET', `/api/v1/claim-history?requestId=${requestId}&lastName=quinterra&firstName=rosalind`);
    expect(or.body.data.map((c: { claimNumber: string }) => c.claimNumber)).toEqual(['CH-5', 'CH-4', 'CH-1', 'CH-2']);
    const and = await api(admin, 'GET', `/api/v1/claim-history?requestId=${requestId}&lastName=Quinterra&firstName=Rosalind&combination=and`);
    expect(and.body.data.map((c: { claimNumber: string }) => c.claimNumber)).toEqual(['CH-1', 'CH-2']);
    const none = await api(admin, 'GET', `/api/v1/claim-history?requestId=${requestId}&lastName=Nobody&firstName=Atall&combination=and`);
    expect(none.body.data).toEqual([]);
    expect((await api(requester, 'GET', `/api/v1/claim-history?requestId=${requestId}&lastName=x`)).status).toBe(403);
  });

  it('links the selected claims (replacing earlier links), or one placeholder, and the letter lists them', async () => {
    const found = (await api(admin, 'GET', `/api/v1/claim-history?requestId=${requestId}&lastName=Quinterra&firstName=Rosalind&combination=and`)).body.data;
    const placeholder = await api(admin, 'POST', '/api/v1/claim-history', { requestId, claimIds: [] });
    expect(placeholder.body).toHaveLength(1);
    expect(placeholder.body[0]).toMatchObject({ claimId: null, claimNumber: null });
    const linked = await api(admin, 'POST', '/api/v1/claim-history', { requestId, claimIds: found.map((c: { id: number }) => c.id) });
    expect(linked.status).toBe(201);
    expect(linked.body.map((c: { claimNumber: string }) => c.claimNumber)).toEqual(['CH-1', 'CH-2']);
    const detail = await api(admin, 'GET', `/api/v1/requests/${requestId}`);
    expect(detail.body.claimHistory).toHaveLength(2);
    expect((await api(requester, 'GET', `/api/v1/requests/${requestId}`)).body.claimHistory).toEqual([]);

    const em = h.orm.em.fork();
    const request = await em.findOneOrFail(RequestSchema, requestId);
    const snapshot = await takeSnapshot(em, request, { at: '2025-07-01T12:00:00.000Z', publicUrl: 'http://x', timeZone: DEFAULT_OFFICE_TIME_ZONE, withLetter: true });
    expect(asCredentialingLetter(snapshot.letter).claims).toEqual([
      { claimNumber: 'CH-1', reportDate: '2016-03-01T11:00:00.000Z', involvement: 'Defendant - Staff', indemnityPaid: '125000.00' },
      { claimNumber: 'CH-2', reportDate: '2019-06-15T11:00:00.000Z', involvement: 'Named in Claim', indemnityPaid: '0.00' },
    ]);
    const html = credentialingLetterHtml(asCredentialingLetter(snapshot.letter));
    expect(html).toContain('<td>CH-1</td><td>03/01/2016</td><td>Defendant - Staff</td><td class="num">$125,000.00</td>');
    expect(html).toContain('<td>CH-2</td><td>06/15/2019</td>');

    await api(admin, 'POST', '/api/v1/claim-history', { requestId, claimIds: [] });
    const none = await takeSnapshot(em, request, { at: '2025-07-01T12:00:00.000Z', publicUrl: 'http://x', timeZone: DEFAULT_OFFICE_TIME_ZONE, withLetter: true });
    expect(asCredentialingLetter(none.letter).claims).toEqual([]);
    expect(credentialingLetterHtml(asCredentialingLetter(none.letter))).toContain('No claims were found for the period 01/01/2015 through 12/31/2020.');
  });
});

describe('export-requests', () => {
  it('writes an xlsx with a header row, autofilter, Excel dates, one row per request', async () => {
    const id = await submitted({ lastName: 'Exportable', submitDate: new Date('2031-02-03T18:00:00Z'), completedDate: new Date('2031-02-05T18:00:00Z') });
    const bad = await api(admin, 'POST', '/api/v1/export-requests', { filename: 'coi_export_x', dateFrom: '2031-03-01T11:00:00.000Z', dateTo: '2031-02-01T11:00:00.000Z' });
    expect(bad.status).toBe(400);
    const started = await api(admin, 'POST', '/api/v1/export-requests', {
      filename: 'coi_export_2031-02-28_101500', dateFrom: '2031-02-01T11:00:00.000Z', dateTo: '2031-02-03T11:00:00.000Z', filterByType: 'Claim History and Insurance Verification',
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ filename: 'coi_export_2031-02-28_101500.xlsx', isMockApi: false });
    const row: Record<string, any> = await eventually(async () => { // written by the export workflow on the worker
      const now = (await api(admin, 'GET', '/api/v1/export-requests')).body.data.find((e: { id: number }) => e.id === started.body.id);
      return now.state !== 'running' && now;
    }, 60_000);
    expect(row).toMatchObject({ state: 'done', rowsTotal: 1, rowsWritten: 1 });
    const file = await h.app.inject({ method: 'GET', url: `/api/v1/export-requests/${row.id}/file`, headers: { authorization: `Bearer ${admin.token}` } });
    expect(file.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as never);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe('Request Number');
    expect(sheet.rowCount).toBe(2);
    expect(sheet.autoFilter).toBeTruthy();
    const headers = (sheet.getRow(1).values as string[]).slice(1);
    const cell = (name: string) => sheet.getRow(2).getCell(headers.indexOf(name) + 1);
    expect(cell('Request Number').value).toBe(700_000 + id);
    expect(cell('Submission Date').value).toBeInstanceOf(Date);
    // The office's day of the instant (10:00 in Portland), as Excel's date of that day (tests/api/office-dates.test.ts).
    expect((cell('Submission Date').value as Date).toISOString()).toBe('2031-02-03T00:00:00.000Z');
    expect(cell('Submission Date').numFmt).toBe('mm-dd-yy'); // Excel's built-in date format (id 14), shown as the reader's short date
    expect(cell('Request Type').value).toBe('Claim History and Insurance Verification');
    expect((await api(requester, 'GET', '/api/v1/export-requests')).status).toBe(403);
  });
});

/** The snapshot's document of a claim history request is the credentialing letter (one kind of LetterDocument). */
function asCredentialingLetter(letter: LetterDocument | null) {
  if (letter?.kind !== 'credentialing-letter') throw new Error(`expected a credentialing letter, got ${letter?.kind}`);
  return letter;
}
