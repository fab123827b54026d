/**
 * Commands in Chromium: the requester's Submit and the administrator's Manage Request Save carry the request
 * version the page last received, a stale version (409) is shown with the reload advice, and a failed email's
 * audit row offers Send again.
 *
 * UI-only parts, faked with page.route (said at each place): the API branch that puts `version` in request
 * answers and the send-email route are written concurrently. While answers lack `version`, the fake below adds
 * one (a counter that goes up with every PATCH, as the optimistic lock does) and strips it again before the PATCH
 * reaches this API; once answers carry the real version, the fake only watches. Failed-email audit rows and the
 * send-email answers are faked outright: this tests the button, not the email workflow.
 */
import type { Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEV_ADMIN, DEV_REQUESTER } from '../../db/seed-data';
import { MESSAGES, STATUS } from '../../domain';
import { call, credentialingDraft } from '../support/api-helpers';
import { sessionOf } from '../support/e2e-fixtures';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('commands');
/** The current test's page: set by `blankPageAs` (each test opens its own, signed in). */
let page: Page;

const STALE_MESSAGE = 'This request changed since you opened it. Please reload the page and try again.';
const QUEUED_MESSAGE = 'Queued: the email will be sent again.';

/** A credentialing request of the requester's, made and submitted through the API, for this test alone. */
async function submittedRequest(lastName: string): Promise<number> {
  const requester = await sessionOf(portal.h, DEV_REQUESTER);
  const id = await credentialingDraft(portal.h, requester, { lastName });
  const submitted = await call(portal.h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  expect(submitted.status).toBe(200);
  return id;
}

/** A signed-in page still blank, so the test's routes are in place before the portal's first answer. */
async function blankPageAs(user: { email: string }) {
  page = await portal.openAs(user, 'about:blank');
}

/** Watches GET and PATCH /api/v1/requests/:id: what version each answer gave the page, what each PATCH sent. */
async function watchRequestVersions(id: number) {
  const seen = { latest: undefined as number | undefined, patches: [] as Array<{ body: Record<string, unknown>; latestBefore: number | undefined }> };
  let fakeVersion = 7;
  let faking: boolean | null = null;
  let refuseNext: null | (() => Record<string, unknown>) = null;

  await page.route(`**/api/v1/requests/${id}`, async (route: Route, request: Request) => {
    const method = request.method();
    if (method !== 'GET' && method !== 'PATCH') return route.continue();
    let postData: string | undefined;
    if (method === 'PATCH') {
      const body = request.postDataJSON() as Record<string, unknown>;
      seen.patches.push({ body, latestBefore: seen.latest });
      if (refuseNext) {
        const answer = refuseNext();
        refuseNext = null;
        return route.fulfill({ status: 409, json: answer });
      }
      if (faking) {
        const { version: _fakeVersion, ...rest } = body; // this API would take the made-up version for a stale one
        postData = JSON.stringify(rest);
      }
    }
    const response = await route.fetch(postData ? { postData } : undefined);
    const json = await response.json() as Record<string, unknown>;
    if (response.ok()) {
      faking ??= typeof json.version !== 'number';
      if (faking) {
        if (method === 'PATCH') fakeVersion += 1;
        json.version = fakeVersion;
      }
      seen.latest = json.version as number;
    }
    await route.fulfill({ response, json });
  });

  return {
    seen,
    refuseNextPatch(answer: () => Record<string, unknown>) { refuseNext = answer; },
    // Waits for answers still in flight (the refetch after a Save), which would otherwise find their route gone.
    stop: () => page.unrouteAll({ behavior: 'wait' }),
  };
}

describe('Manage Request sends the version the page saw', () => {
  it('Save sends the version of the latest answer, and the next Save the version that Save answered with', async () => {
    const requestId = await submittedRequest('Versioned');
    await blankPageAs(DEV_ADMIN);
    const versions = await watchRequestVersions(requestId);
    await page.goto(`/requests/credentialing/${requestId}`);
    await page.getByRole('heading', { name: 'Manage Request' }).waitFor();
    await expect.poll(() => versions.seen.latest).toBeTypeOf('number');

    await page.locator('textarea[name="internalNotes"]').fill('Checked the release.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Save Successful').waitFor();
    expect(versions.seen.patches).toHaveLength(1);
    expect(versions.seen.patches[0].body.version).toBe(versions.seen.patches[0].latestBefore);
    expect(versions.seen.patches[0].body.internalNotes).toBe('Checked the release.');

    await page.locator('textarea[name="internalNotes"]').fill('Checked the release twice.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => versions.seen.patches.length).toBe(2);
    await page.getByText('Save Successful').waitFor();
    const second = versions.seen.patches[1];
    expect(second.body.version).toBe(second.latestBefore);
    expect(second.body.version).not.toBe(versions.seen.patches[0].body.version); // the first Save moved it on
    await versions.stop();
  });

  it('a stale version (409) says the request changed and offers the reload', async () => {
    const requestId = await submittedRequest('Stale');
    await blankPageAs(DEV_ADMIN);
    const versions = await watchRequestVersions(requestId);
    await page.goto(`/requests/credentialing/${requestId}`);
    await page.getByRole('heading', { name: 'Manage Request' }).waitFor();
    // Faked: another administrator changed the request after this page loaded it.
    versions.refuseNextPatch(() => ({ name: 'Conflict', message: STALE_MESSAGE, code: 409, className: 'conflict' }));
    await page.locator('textarea[name="internalNotes"]').fill('Too late.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    await page.getByText(STALE_MESSAGE, { exact: true }).waitFor();
    expect(await page.getByText(MESSAGES.adminSaveFailed).count()).toBe(0);
    expect(typeof versions.seen.patches[0].body.version).toBe('number');
    await portal.checkA11y('stale version message');
    await portal.shot('stale-version');

    await page.getByRole('button', { name: 'Reload the page' }).click();
    await page.getByRole('heading', { name: 'Manage Request' }).waitFor();
    expect(await page.getByText(STALE_MESSAGE).count()).toBe(0);
    await versions.stop();
  });
});

describe('Send again on a failed email (audit trail)', () => {
  it('queues the email again, says so and refreshes the trail; a failure shows the generic message', async () => {
    const requestId = await submittedRequest('Resent');
    await blankPageAs(DEV_ADMIN);
    const failedRow = (id: number, title: string, reason: string, effectId: number | null) => ({
      id, requestId, date: new Date().toISOString(), activityType: 'Email Failed',
      activityText: `"${title}" email failed: ${reason}`, performedBy: 'COI Automated Email System',
      recipients: ['requester@hospital.example'], channel: 'email', effectId,
    });
    // Faked rows on top of the real trail: the workflow that writes them is on another branch.
    let activityCalls = 0;
    const isActivity = (url: URL) => url.pathname === '/api/v1/request-activity';
    const isSendEmail = (url: URL) => url.pathname === '/api/v1/send-email';
    await page.route(isActivity, async (route) => {
      activityCalls += 1;
      const response = await route.fetch();
      const json = await response.json() as { data: unknown[] };
      json.data = [
        failedRow(990003, 'Credentialing Request Approved', '550 mailbox unavailable', 71),
        failedRow(990002, 'Credentialing Request Submitted', 'connection refused', 72),
        failedRow(990001, 'Credentialing Request Denied', 'no effect recorded', null), // nothing to send again
        ...json.data,
      ];
      await route.fulfill({ response, json });
    });
    // Faked answers of POST /api/v1/send-email: queued the first time, a server error the second.
    const sent: unknown[] = [];
    await page.route(isSendEmail, async (route) => {
      const body = route.request().postDataJSON() as { templateTitle: string };
      sent.push(body);
      if (sent.length === 1) await route.fulfill({ status: 202, json: { queued: true, templateTitle: body.templateTitle } });
      else await route.fulfill({ status: 500, json: { name: 'GeneralError', message: 'boom', code: 500, className: 'general-error' } });
    });

    await page.goto(`/requests/credentialing/${requestId}`);
    await page.getByRole('tab', { name: 'Request Audit Details' }).click();
    const approvedRow = page.getByRole('row').filter({ hasText: '"Credentialing Request Approved" email failed' });
    await approvedRow.waitFor();
    expect(await page.getByRole('button', { name: /^Send again/ }).count()).toBe(2);
    await portal.checkA11y('audit tab with failed emails');

    const callsBefore = activityCalls;
    await approvedRow.getByRole('button', { name: /^Send again/ }).click();
    await approvedRow.getByText(QUEUED_MESSAGE).waitFor();
    expect(sent[0]).toEqual({ requestId, templateTitle: 'Credentialing Request Approved', retryOf: 990003 });
    await expect.poll(() => activityCalls, { timeout: 60_000 }).toBeGreaterThan(callsBefore);
    await portal.shot('send-again-queued');

    const submittedRow = page.getByRole('row').filter({ hasText: '"Credentialing Request Submitted" email failed' });
    await submittedRow.getByRole('button', { name: /^Send again/ }).click();
    await submittedRow.getByText(MESSAGES.genericPageError).waitFor();
    expect(sent[1]).toEqual({ requestId, templateTitle: 'Credentialing Request Submitted', retryOf: 990002 });
    expect(await submittedRow.getByRole('button', { name: /^Send again/ }).isEnabled()).toBe(true); // may be tried again
    await portal.checkA11y('send again failed');

    await page.unroute(isActivity);
    await page.unroute(isSendEmail);
  });
});

describe("the requester's Submit", () => {
  it('sends the version of the latest autosave answer, not the one the form was opened with', async () => {
    await blankPageAs(DEV_REQUESTER);
    const requester = await sessionOf(portal.h, DEV_REQUESTER);
    const draftId = await credentialingDraft(portal.h, requester, { lastName: 'Autosaved' });

    const versions = await watchRequestVersions(draftId);
    await page.goto(`/requests/credentialing/${draftId}/edit`);
    await expect.poll(() => page.locator('input[name="lastName"]').inputValue()).toBe('Autosaved');
    const opened = versions.seen.latest;
    expect(opened).toBeTypeOf('number');

    await page.locator('input[name="facilityName"]').fill('Mercy Clinic'); // autosaved 750 ms later
    await page.getByText('Draft saved').waitFor();
    expect(versions.seen.patches).toHaveLength(1);
    expect(versions.seen.patches[0].body.version).toBeUndefined(); // an autosave is no command

    await page.getByRole('button', { name: 'Submit' }).click();
    // The follow-up question of a current employee's request (spec 1 §1), answered No.
    await page.getByRole('dialog', { name: 'Your request was submitted' }).getByRole('button', { name: 'No, thank you' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    const submit = versions.seen.patches.find((p) => p.body.status === STATUS.submitted)!;
    expect(submit.body.version).toBe(submit.latestBefore);
    expect(submit.body.version).not.toBe(opened); // the autosave answer moved it on
    await versions.stop();
  });
});
