/**
 * Stale letters in Chromium: a CS-STARS export with a new claim of a clinician whose claim-history
 * letter was issued is uploaded; the admin dashboard lists the request under
 * "Letters that may be out of date" with the badge, and the request page explains it. Keyboard only from the
 * dashboard to the request; axe checks every page; screenshots at 1280 and 768 px (test-results/screenshots/stale-*).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CSV_HEADER } from '../../bench/generate-cs-stars';
import { DEV_ADMIN } from '../../db/seed-data';
import { DocumentSchema } from '../../db/entities';
import { STALE_LETTER_LABEL, STATUS } from '../../domain';
import { call, credentialingDraft, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import type { Harness } from '../support/portal-harness';
import { screenshotsWanted, usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('stale');
let h: Harness;
let admin: Session;
/** Each test's own approved request with its letter printed (made together, once, to wait for the letters once). */
const letters = {} as Record<'upload' | 'dashboard', { requestNumber: number }>;
const CLINICIANS = { upload: ['Ashgrove', 'Cordelia'], dashboard: ['Ashbury', 'Philippa'] } as const;

const shot = async (page: Page, name: string) => {
  if (!screenshotsWanted()) return;
  await portal.shot(name, page);
  await page.setViewportSize({ width: 768, height: 900 });
  await portal.shot(`${name}-768`, page);
  await page.setViewportSize({ width: 1280, height: 900 });
};

/** A credentialing request approved through its workflow, with its letter printed. */
async function approvedWithLetter(requester: Session, [lastName, firstName]: readonly [string, string]) {
  const id = await credentialingDraft(h, requester, { lastName, firstName, dateFrom: '2016-01-01T11:00:00.000Z', dateTo: '2021-12-31T11:00:00.000Z' });
  const submitted = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.approved, verified: true })).status).toBe(200);
  await eventually(async () => (await h.orm.em.fork().count(DocumentSchema, { requestId: id, description: 'Approval letter' })) === 1, 60_000);
  return { requestNumber: submitted.body.requestNumber as number };
}

/** Uploads a CS-STARS export with one new claim of the clinician within the request's dates; returns the response. */
async function uploadClaimOf([lastName, firstName]: readonly [string, string], claimNumber: string) {
  // Uploaded over HTTP rather than on /manage/cs-stars: that page lists up to 10,000 claims, and with the 100,000
  // of the desk's e2e test in the shared database, axe would scan them all.
  const form = new FormData();
  form.append('file', new Blob([`${CSV_HEADER}\n06/30/2025,${lastName},${firstName},,Named in Claim,${claimNumber},Claim,Open,,03/01/2019,04/02/2019,0.00,Fall in patient room\n`], { type: 'text/csv' }), 'claims.csv');
  form.append('limit', '1');
  return fetch(`${h.baseUrl}/api/v1/cs-stars`, { method: 'POST', body: form, headers: { authorization: `Bearer ${admin.token}` } });
}

beforeAll(async () => {
  h = portal.h;
  admin = await loginAdmin(h);
  const requester = await loginRequester(h);
  [letters.upload, letters.dashboard] = await Promise.all([approvedWithLetter(requester, CLINICIANS.upload), approvedWithLetter(requester, CLINICIANS.dashboard)]);
});

describe('a letter a CS-STARS upload made out of date, as an administrator sees it', () => {
  it('an upload with a new claim of the clinician within the dates flags the letter', async () => {
    const { requestNumber } = letters.upload;
    // Other e2e files share this database (the desk's 100,000-claim upload may flag their letters): judge this request only.
    expect((await call(h, admin, 'GET', '/api/v1/admin-dashboard')).body.staleLetters.map((r: { requestNumber: number }) => r.requestNumber)).not.toContain(requestNumber);
    const res = await uploadClaimOf(CLINICIANS.upload, 'SL-E2E-1');
    expect(res.status).toBe(201);
    expect((await res.json()).staleLetters).toBe(1);
  });

  it('the dashboard lists the request with the badge; the keyboard opens it and its page explains the flag', async () => {
    const { requestNumber } = letters.dashboard;
    expect((await uploadClaimOf(CLINICIANS.dashboard, 'SL-E2E-2')).status).toBe(201); // flags this test's letter
    const page = await portal.openAs(DEV_ADMIN, '/');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    const section = page.getByRole('region', { name: /^Letters that may be out of date \(\d+\)$/ });
    await section.waitFor();
    const row = section.getByRole('row').filter({ hasText: String(requestNumber) });
    await expect.poll(() => row.getByText(STALE_LETTER_LABEL).isVisible()).toBe(true);
    expect(await row.innerText()).toContain(`${CLINICIANS.dashboard[0]}, ${CLINICIANS.dashboard[1]}`);
    await shot(page, 'dashboard');

    const view = row.getByRole('link', { name: 'View' });
    await view.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/requests\/credentialing\/\d+/);
    const note = page.getByRole('note', { name: STALE_LETTER_LABEL });
    await note.waitFor();
    expect(await note.innerText()).toContain(`added or changed claims of ${CLINICIANS.dashboard[1]} ${CLINICIANS.dashboard[0]} reported within this request's dates`);
    await shot(page, 'request-page');
    await portal.checkA11y('request page with the stale-letter notice');
  });
});
