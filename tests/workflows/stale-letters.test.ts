/**
 * Stale letters on real parts: a credentialing request approved through its workflow gets its
 * letter (Chromium), a CS-STARS upload with a new claim of that clinician within the request's dates flags it
 * "Letter may be out of date", and the next letter the workflow stores for it (Reopen, resubmit, approve: the
 * workflow's letter path, renderEffectLetter) clears the flag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_HEADER } from '../../bench/generate-cs-stars';
import { DocumentSchema, RequestActivitySchema, RequestSchema } from '../../db/entities';
import { CS_STARS_IMPORT_AUTHOR, STATUS } from '../../domain';
import { call, credentialingDraft, loginAdmin, loginRequester, uploadClaimsCsv, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let requester: Session;

beforeAll(async () => {
  h = await startHarness();
  admin = await loginAdmin(h);
  requester = await loginRequester(h);
});
afterAll(async () => { await h?.stop(); });

const uploadCsv = (text: string) => uploadClaimsCsv(h, admin, text);

const letters = async (id: number) => (await h.orm.em.fork().find(DocumentSchema, { requestId: id, description: 'Approval letter' }, { orderBy: { id: 'asc' } }))
  .map((d) => d.name);
const flagOf = async (id: number) => (await h.orm.em.fork().findOneOrFail(RequestSchema, id)).letterStaleSince ?? null;

async function approve(id: number) {
  const res = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.approved, verified: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('a letter made stale by a CS-STARS upload, and made again', () => {
  it('is flagged by an upload with a claim in its period, and cleared by the next letter the workflow stores', async () => {
    const id = await credentialingDraft(h, requester, {
      lastName: 'Wexley-Hart', firstName: 'Philippa', dateFrom: '2019-01-01T11:00:00.000Z', dateTo: '2023-12-31T11:00:00.000Z',
    });
    const submitted = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const number = submitted.body.requestNumber as number;
    await approve(id);
    const first = `Claim History and Insurance Verification ${number}.pdf`;
    await eventually(async () => (await letters(id)).includes(first), 60_000);
    expect(await flagOf(id)).toBeNull();

    // An upload whose claims are not this clinician's, or outside the dates, leaves the letter alone.
    const unrelated = [CSV_HEADER,
      '06/30/2025,Wexley-Hart,Philippa,,Named in Claim,WF-OUT-1,Claim,Open,,01/02/2018,06/01/2018,0,Before the period',
      '06/30/2025,Wexley-Hart,Peregrine,,Named in Claim,WF-OTHER-1,Claim,Open,,01/02/2020,06/01/2020,0,Another person',
    ];
    expect((await uploadCsv(unrelated.join('\n'))).body).toMatchObject({ inserted: 2, staleLetters: 0 });
    expect(await flagOf(id)).toBeNull();

    const withClaim = [...unrelated, '06/30/2025,Wexley-Hart,Philippa,R,Defendant - Staff,WF-IN-1,Lawsuit,Open,,01/02/2021,02/03/2021,0,Within the period'];
    const upload = await uploadCsv(withClaim.join('\n'));
    expect(upload.body).toMatchObject({ inserted: 1, staleLetters: 1 });
    expect(await flagOf(id)).toBeInstanceOf(Date);
    const audit = await h.orm.em.fork().find(RequestActivitySchema, { requestId: id, performedBy: CS_STARS_IMPORT_AUTHOR });
    expect(audit.map((r) => r.activityText)).toEqual([
      'Letter may be out of date: a CS-STARS upload added or changed claim WF-IN-1 (reported 02/03/2021) within the letter\'s period.',
    ]);
    expect((await call(h, admin, 'GET', '/api/v1/admin-dashboard')).body.staleLetters.map((r: { id: number }) => r.id)).toContain(id);
    // The same export again: nothing changed, nothing more flagged or written.
    expect((await uploadCsv(withClaim.join('\n'))).body).toMatchObject({ inserted: 0, updated: 0, staleLetters: 0 });

    // The workflow's letter path again: Reopen, resubmit, approve → a new letter is stored, the flag is gone.
    expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.draft })).status).toBe(200);
    expect(await flagOf(id)).toBeInstanceOf(Date); // a reopened request keeps its flag until a letter is made
    expect((await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted })).status).toBe(200);
    await approve(id);
    await eventually(async () => (await letters(id)).length === 2, 60_000);
    expect(await letters(id)).toEqual([first, `Claim History and Insurance Verification ${number} (2).pdf`]);
    await eventually(async () => (await flagOf(id)) === null);
    expect((await call(h, admin, 'GET', '/api/v1/admin-dashboard')).body.staleLetters.map((r: { id: number }) => r.id)).not.toContain(id);
    expect((await call(h, admin, 'GET', `/api/v1/requests/${id}`)).body.letterStaleSince).toBeNull();
  });

  it('is cleared when an administrator regenerates the letter (generate-pdfs, the same letter activity)', async () => {
    const id = await credentialingDraft(h, requester, {
      lastName: 'Ostrander-Vale', firstName: 'Cosima', dateFrom: '2018-01-01T11:00:00.000Z', dateTo: '2022-12-31T11:00:00.000Z',
    });
    const submitted = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    await approve(id);
    await eventually(async () => (await letters(id)).length === 1, 60_000);

    const csv = [CSV_HEADER, '06/30/2025,Ostrander-Vale,Cosima,,Named in Claim,WF-GEN-1,Claim,Open,,01/02/2020,03/04/2020,0,Within the period'];
    expect((await uploadCsv(csv.join('\n'))).body).toMatchObject({ inserted: 1, staleLetters: 1 });
    expect(await flagOf(id)).toBeInstanceOf(Date);

    const regenerated = await call(h, admin, 'POST', '/api/v1/generate-pdfs', { requestId: id });
    expect(regenerated.status, JSON.stringify(regenerated.body)).toBe(200);
    expect(await letters(id)).toHaveLength(2);
    await eventually(async () => (await flagOf(id)) === null);
    expect((await call(h, admin, 'GET', '/api/v1/admin-dashboard')).body.staleLetters.map((r: { id: number }) => r.id)).not.toContain(id);
  });
});
