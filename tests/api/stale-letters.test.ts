/**
 * Stale letters through the API: which CS-STARS uploads flag an issued claim-history letter
 * "Letter may be out of date" (a claim of the clinician, matched by last and first name as the claim search does,
 * reported within the request's dates, added or changed), with one audit row per flagged request; what leaves it
 * alone (another person, outside the dates, no letter, a re-upload of the same file, a refused file); who sees it.
 * The letters here are document rows as the letter activity stores them; tests/workflows/stale-letters.test.ts
 * drives the real workflow, letter and clearing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DocumentSchema, RequestActivitySchema, RequestSchema } from '../../db/entities';
import { CS_STARS_IMPORT_AUTHOR, GENERATED_DOCUMENT_AUTHOR, STALE_LETTER_ACTIVITY_TYPE } from '../../domain';
import { CSV_HEADER } from '../../bench/generate-cs-stars';
import { call, credentialingDraft, loginAdmin, loginRequester, uploadClaimsCsv, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let requester: Session;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  admin = await loginAdmin(h);
  requester = await loginRequester(h);
});
afterAll(async () => { await h?.stop(); });

const uploadCsv = (text: string) => uploadClaimsCsv(h, admin, text);

let serial = 0;
/** An approved credentialing request for 2018–2020, with or without its generated letter, written directly. */
async function approved(lastName: string, firstName: string, options: { letter?: boolean; requestType?: string } = {}) {
  const id = await credentialingDraft(h, requester, { lastName, firstName, dateFrom: '2018-01-01T11:00:00.000Z', dateTo: '2020-12-31T11:00:00.000Z' });
  serial += 1;
  const em = h.orm.em.fork();
  await em.nativeUpdate(RequestSchema, { id }, {
    status: 'Approved', requestNumber: 810_000 + id, submitDate: new Date('2021-01-05T15:00:00Z'), completedDate: new Date('2021-01-06T15:00:00Z'),
    ...(options.requestType ? { requestType: options.requestType } : {}),
  });
  if (options.letter !== false) {
    em.create(DocumentSchema, {
      requestId: id, name: `Claim History and Insurance Verification ${810_000 + id}.pdf`, description: 'Approval letter',
      storedName: `stale-test-${id}-${serial}.pdf`, mimeType: 'application/pdf', size: 1000, isAttachment: true,
      uploadedBy: GENERATED_DOCUMENT_AUTHOR, idempotencyKey: `stale-test-${id}`,
    });
    await em.flush();
  }
  return id;
}

const flagOf = async (id: number) => (await h.orm.em.fork().findOneOrFail(RequestSchema, id)).letterStaleSince ?? null;
const staleRows = (id: number) => h.orm.em.fork().find(RequestActivitySchema, { requestId: id, performedBy: CS_STARS_IMPORT_AUTHOR });
const clearFlags = () => h.orm.em.fork().getConnection().execute('update requests set letter_stale_since = null');
const line = (last: string, first: string, claim: string, reported: string, outcome = 'Dismissed') =>
  `06/30/2025,${last},${first},,Named in Claim,${claim},Claim,Final,${outcome},01/02/2015,${reported},0.00,Test claim`;

describe('a CS-STARS upload flags the issued letters it makes out of date', () => {
  let ottoline: number;
  let noLetter: number;
  let other: number;
  beforeEach(async () => { await clearFlags(); });

  beforeAll(async () => {
    ottoline = await approved('Featherstone', 'Ottoline');
    noLetter = await approved('Featherstone', 'Ottoline', { letter: false });
    other = await approved('Featherstone', 'Barnaby');
  });

  it('flags the request whose clinician has a new claim within its dates, with one audit row naming the claims', async () => {
    const csv = [CSV_HEADER,
      line('FEATHERSTONE', 'ottoline', 'ST-IN-1', '03/15/2019'), // case-insensitive, in the period
      line('Featherstone', 'Ottoline', 'ST-IN-2', '12/31/2020'), // the last day counts
      line('Featherstone', 'Ottoline', 'ST-OUT-1', '01/05/2021'), // after the period
      line('Featherstone', 'Ottoline', 'ST-OUT-2', '12/31/2017'), // before it
      line('Featherstone', 'Rupert', 'ST-OTHER-1', '03/15/2019'), // another person
    ].join('\n');
    const res = await uploadCsv(csv);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.staleLetters).toBe(1);
    expect(await flagOf(ottoline)).toBeInstanceOf(Date);
    expect(await flagOf(noLetter)).toBeNull();
    expect(await flagOf(other)).toBeNull();
    const rows = await staleRows(ottoline);
    expect(rows.map((r) => [r.activityType, r.activityText])).toEqual([[STALE_LETTER_ACTIVITY_TYPE,
      'Letter may be out of date: a CS-STARS upload added or changed 2 claims: ST-IN-1 (reported 03/15/2019), ST-IN-2 (reported 12/31/2020) within the letter\'s period.']]);
    expect(await staleRows(other)).toEqual([]);

    // The same export again changes no claim, so it flags nothing, even with the flag cleared meanwhile.
    await clearFlags();
    const again = await uploadCsv(csv);
    expect(again.body).toMatchObject({ inserted: 0, updated: 0, staleLetters: 0 });
    expect(await flagOf(ottoline)).toBeNull();
    expect(await staleRows(ottoline)).toHaveLength(1);
  });

  it('flags on a changed claim, also one whose report date moved out of the period; once while flagged', async () => {
    const base = [CSV_HEADER, line('Featherstone', 'Barnaby', 'ST-CH-1', '05/05/2019'), line('Featherstone', 'Barnaby', 'ST-CH-2', '06/06/2019')];
    expect((await uploadCsv(base.join('\n'))).body.staleLetters).toBe(1);
    await clearFlags();
    const changedOutcome = [CSV_HEADER, line('Featherstone', 'Barnaby', 'ST-CH-1', '05/05/2019', 'Settled'), base[2]];
    const res = await uploadCsv(changedOutcome.join('\n'));
    expect(res.body).toMatchObject({ updated: 1, staleLetters: 1 });
    const texts = (await staleRows(other)).map((r) => r.activityText);
    expect(texts.at(-1)).toBe('Letter may be out of date: a CS-STARS upload added or changed claim ST-CH-1 (reported 05/05/2019) within the letter\'s period.');

    // Still flagged: a further change adds no second flag and no second audit row.
    const moved = [CSV_HEADER, changedOutcome[1], line('Featherstone', 'Barnaby', 'ST-CH-2', '06/06/2023')];
    expect((await uploadCsv(moved.join('\n'))).body).toMatchObject({ updated: 1, staleLetters: 0 });
    expect(await staleRows(other)).toHaveLength(texts.length);
    // Cleared, the same move (report date leaving the period) flags it: the letter listed that claim.
    await clearFlags();
    const back = [CSV_HEADER, changedOutcome[1], line('Featherstone', 'Barnaby', 'ST-CH-2', '06/06/2019')];
    expect((await uploadCsv(back.join('\n'))).body).toMatchObject({ updated: 1, staleLetters: 1 });
    await clearFlags();
    expect((await uploadCsv(moved.join('\n'))).body).toMatchObject({ updated: 1, staleLetters: 1 });
  });

  it('a refused file flags nothing', async () => {
    const csv = [CSV_HEADER, line('Featherstone', 'Ottoline', 'ST-BAD-1', '03/16/2019'), line('Featherstone', 'Ottoline', 'ST-BAD-2', '02/30/2019')].join('\n');
    const before = (await staleRows(ottoline)).length;
    const res = await uploadCsv(csv);
    expect(res.status).toBe(400);
    expect(res.body.data.lines.map((l: { line: number }) => l.line)).toEqual([3]);
    expect(await flagOf(ottoline)).toBeNull();
    expect(await staleRows(ottoline)).toHaveLength(before);
  });

  it('only administrators see the flag: on the request and in the dashboard list', async () => {
    expect((await uploadCsv([CSV_HEADER, line('Featherstone', 'Ottoline', 'ST-SEE-1', '07/07/2019')].join('\n'))).body.staleLetters).toBe(1);
    const asAdmin = await call(h, admin, 'GET', `/api/v1/requests/${ottoline}`);
    expect(Date.parse(asAdmin.body.letterStaleSince)).toBeGreaterThan(Date.now() - 60_000);
    const asRequester = await call(h, requester, 'GET', `/api/v1/requests/${ottoline}`);
    expect(asRequester.status).toBe(200);
    expect(asRequester.body).not.toHaveProperty('letterStaleSince');
    const dashboard = await call(h, admin, 'GET', '/api/v1/admin-dashboard');
    expect(dashboard.body.staleLetters.map((r: { id: number }) => r.id)).toEqual([ottoline]);
    expect(dashboard.body.adminRequests.map((r: { id: number }) => r.id)).not.toContain(ottoline); // decided: not in the queue
  });
});
