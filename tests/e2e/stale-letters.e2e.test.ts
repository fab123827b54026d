/**
 * Stale letters (issue #10 item 5) in Chromium: a CS-STARS export with a new claim of a clinician whose claim-history
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
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('stale');
let h: Harness;
let page: Page;
let admin: Session;
let requester: Session;
let requestNumber: number;

const shot = async (name: string) => {
  await portal.shot(name);
  await page.setViewportSize({ width: 768, height: 900 });
  await portal.shot(`${name}-768`);
  await page.setViewportSize({ width: 1280, height: 900 });
};

beforeAll(async () => {
  h = portal.h;
  page = portal.page;
  admin = await loginAdmin(h);
  requester = await loginRequester(h);
  // A credentialing request approved through its workflow, with its letter printed.
  const id = await credentialingDraft(h, requester, { lastName: 'Ashgrove', firstName: 'Cordelia', dateFrom: '2016-01-01T11:00:00.000Z', dateTo: '2021-12-31T11:00:00.000Z' });
  const submitted = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  requestNumber = submitted.body.requestNumber;
  expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.approved, verified: true })).status).toBe(200);
  await eventually(async () => (await h.orm.em.fork().count(DocumentSchema, { requestId: id, description: 'Approval letter' })) === 1, 60_000);
  await portal.signIn(DEV_ADMIN.email, DEV_ADMIN.password);
  await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
});

describe('a letter a CS-STARS upload made out of date, as an administrator sees it', () => {
  it('an upload with a new claim of the clinician within the dates flags the letter', async () => {
    // Other e2e files share this database (the desk's 100,000-claim upload may flag their letters): judge this request only.
    expect((await call(h, admin, 'GET', '/api/v1/admin-dashboard')).body.staleLetters.map((r: { requestNumber: number }) => r.requestNumber)).not.toContain(requestNumber);
    // Uploaded over HTTP rather than on /manage/cs-stars: that page lists up to 10,000 claims, and with the 100,000
    // of the desk's e2e test in the shared database, axe would scan them all.
    const form = new FormData();
    form.append('file', new Blob([`${CSV_HEADER}\n06/30/2025,Ashgrove,Cordelia,,Named in Claim,SL-E2E-1,Claim,Open,,03/01/2019,04/02/2019,0.00,Fall in patient room\n`], { type: 'text/csv' }), 'claims.csv');
    form.append('limit', '1');
    const res = await fetch(`${h.baseUrl}/api/v1/cs-stars`, { method: 'POST', body: form, headers: { authorization: `Bearer ${admin.token}` } });
    expect(res.status).toBe(201);
    expect((await res.json()).staleLetters).toBe(1);
  });

  it('the dashboard lists the request with the badge; the keyboard opens it and its page explains the flag', async () => {
    await page.goto('/');
    const section = page.getByRole('region', { name: /^Letters that may be out of date \(\d+\)$/ });
    await section.waitFor();
    const row = section.getByRole('row').filter({ hasText: String(requestNumber) });
    await expect.poll(() => row.getByText(STALE_LETTER_LABEL).isVisible()).toBe(true);
    expect(await row.innerText()).toContain('Ashgrove, Cordelia');
    await shot('dashboard');

    const view = row.getByRole('link', { name: 'View' });
    await view.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/requests\/credentialing\/\d+/);
    const note = page.getByRole('note', { name: STALE_LETTER_LABEL });
    await note.waitFor();
    expect(await note.innerText()).toMatch(/added or changed claims of Cordelia Ashgrove reported within this request's dates/);
    await shot('request-page');
    await portal.checkA11y('request page with the stale-letter notice');
  });
});
