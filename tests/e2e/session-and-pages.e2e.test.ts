/**
 * Sessions and error pages in Chromium: the 404 page for everybody, what a failed re-authentication does to
 * the stored token (spec 2 §8.1), the 403 page, keyboard use, and the axe harness itself. Every page opened here
 * is also scanned by axe (tests/support/portal-browser.ts).
 */
import type { Page, Response, Route } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEV_ADMIN, DEV_REQUESTER } from '../../db/seed-data';
import { MESSAGES } from '../../domain';
import { UserSchema } from '../../db/entities';
import { createExternalUser, credentialingDraft } from '../support/api-helpers';
import { sessionOf } from '../support/e2e-fixtures';
import { usePortalBrowser } from '../support/portal-browser';
import { UI_TEXT } from '../../ui/src/lib/ui-text';

const portal = usePortalBrowser('session');
let page: Page;

// Every test has a page of its own (portal-browser.ts); `openAs` replaces it, so `signedIn` keeps `page` current.
beforeEach(() => {
  page = portal.page;
});

/** Opens `path` signed in as `user` (no login form) and waits for `landing`. */
async function signedIn(user: { email: string }, path: string, landing: string) {
  page = await portal.openAs(user, path);
  await heading(landing).waitFor();
}

const TOKEN_KEY = 'feathers-jwt';
const storedToken = () => page.evaluate((key) => window.localStorage.getItem(key), TOKEN_KEY);
const heading = (name: string) => page.getByRole('heading', { name, exact: true });

/** Answers the re-authentication call (POST /api/v1/authentication) with `answer` until the returned undo runs. */
async function failReauthentication(answer: (route: Route) => Promise<void>) {
  const pattern = '**/api/v1/authentication';
  const handler = (route: Route) => (route.request().method() === 'POST' ? answer(route) : route.continue());
  await page.route(pattern, handler);
  return () => page.unroute(pattern, handler);
}

const errorBody = (code: number, name: string, message: string, data?: unknown) => ({
  status: code, contentType: 'application/json', body: JSON.stringify({ name, message, code, className: name.toLowerCase(), data }),
});

describe('unknown and protected addresses', () => {
  it('a signed-out visitor sees the 404 page for an unknown path', async () => {
    await page.goto('/no/such/page');
    await heading(MESSAGES.notFoundPage).waitFor();
    expect(new URL(page.url()).pathname).toBe('/no/such/page');
    expect(await page.getByRole('button', { name: 'Go back' }).isVisible()).toBe(true);
    await portal.shot('not-found-signed-out');
  });

  it('Go back on a 404 opened directly goes to the start page (login for a signed-out visitor)', async () => {
    await page.goto('/no/such/page');
    await heading(MESSAGES.notFoundPage).waitFor();
    await page.getByRole('button', { name: 'Go back' }).click();
    await page.waitForURL('**/login');
    await heading('Login').waitFor();
  });

  it('a known protected path still sends a signed-out visitor to login', async () => {
    await page.goto('/requests/credentialing/new');
    await page.waitForURL('**/login');
    await heading('Login').waitFor();
    expect(await page.getByText(MESSAGES.sessionExpired).count()).toBe(0); // nobody was signed in
  });

  it('a signed-in requester sees the 404 page with the menu, and the 403 page on an admin screen', async () => {
    await signedIn(DEV_REQUESTER, '/', 'Dashboard');
    await page.goto('/no-such-page');
    await heading(MESSAGES.notFoundPage).waitFor();
    await page.getByRole('button', { name: 'Log Out' }).waitFor();
    await page.getByRole('button', { name: 'Go back' }).click(); // opened directly: to the start page, the dashboard
    await heading('Dashboard').waitFor();

    await page.goto('/manage/templates');
    await heading(MESSAGES.forbiddenPage).waitFor();
    expect(await page.getByText(MESSAGES.forbiddenPageHelp).isVisible()).toBe(true);
    await portal.shot('forbidden');
  });
});

describe("Edit Profile is the external user's own (spec 1 §2)", () => {
  it("a requester opening another user's profile sees the 403 page; their own opens", async () => {
    const otherEmail = `other-profile-${Date.now()}@clinic.example`;
    await createExternalUser(portal.h, otherEmail, 'Other-Pass1');
    const other = await portal.h.orm.em.fork().findOneOrFail(UserSchema, { email: otherEmail });
    const me = await portal.h.orm.em.fork().findOneOrFail(UserSchema, { email: DEV_REQUESTER.email, isExternal: true });

    await signedIn(DEV_REQUESTER, `/profile/${other.id}/edit`, MESSAGES.forbiddenPage);
    expect(await page.getByText(MESSAGES.forbiddenPageHelp, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText(MESSAGES.errorPage).count()).toBe(0);
    expect(await page.locator('input[name="email"]').count()).toBe(0); // nothing of the other account shows

    await page.getByRole('link', { name: 'Edit Profile', exact: true }).click();
    await heading('Edit Profile').waitFor();
    await expect.poll(() => page.locator('input[name="email"]').inputValue()).toBe(DEV_REQUESTER.email);
    expect(new URL(page.url()).pathname).toBe(`/profile/${me.id}/edit`);
  });
});

describe('the stored token after a failed re-authentication (spec 2 §8.1)', () => {
  // Only a 401 ends a session: a refusal for load or an unreachable API says nothing about it. A page load keeps the
  // token, says it is trying again, and shows the screen once the API answers.
  it('a 503 on a page load keeps the session and the token; the screen comes back by itself once the API answers', async () => {
    await signedIn(DEV_REQUESTER, '/', 'Dashboard');
    const token = await storedToken();
    expect(token).toBeTruthy();

    const undo = await failReauthentication((route) => route.fulfill(errorBody(503, 'Unavailable', 'Service unavailable')));
    await page.reload();
    await page.getByText(UI_TEXT.sessionCheckRetrying, { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByText(MESSAGES.sessionExpired).count()).toBe(0);
    expect(await storedToken()).toBe(token);
    await undo();

    await heading('Dashboard').waitFor(); // no reload: the next check answers
    expect(await storedToken()).toBe(token);
  });

  it('a refused connection (Unavailable) on a page load keeps the session and the token too', async () => {
    await signedIn(DEV_REQUESTER, '/', 'Dashboard');
    const token = await storedToken();
    expect(token).toBeTruthy();
    const undo = await failReauthentication((route) => route.abort('connectionrefused'));
    await page.reload();
    await page.getByText(UI_TEXT.sessionCheckRetrying, { exact: true }).waitFor();
    expect(await page.getByText(MESSAGES.sessionExpired).count()).toBe(0);
    expect(await storedToken()).toBe(token);
    await undo();
    await heading('Dashboard').waitFor();
  });

  it('an error that is not about the session (404 on a request) keeps the user signed in', async () => {
    await signedIn(DEV_REQUESTER, '/', 'Dashboard');
    const token = await storedToken();
    expect(token).toBeTruthy();
    await page.goto('/requests/credentialing/999999');
    await page.getByText('This request could not be found.').waitFor();
    expect(await page.getByRole('button', { name: 'Log Out' }).isVisible()).toBe(true);
    expect(await storedToken()).toBe(token);
  });

  it('a 401 removes the token and the login page says the session expired', async () => {
    await signedIn(DEV_REQUESTER, '/', 'Dashboard');
    expect(await storedToken()).toBeTruthy();
    const undo = await failReauthentication((route) =>
      route.fulfill(errorBody(401, 'NotAuthenticated', MESSAGES.sessionExpired, { reason: 'authFail' })));
    await page.reload();
    await page.waitForURL('**/login');
    await page.getByText(MESSAGES.sessionExpired, { exact: true }).waitFor();
    expect(await storedToken()).toBeNull();
    await undo();
    await portal.shot('session-expired');
  });

  it('a deactivated account (401, inactiveUser) removes the token and says so', async () => {
    await signedIn(DEV_REQUESTER, '/', 'Dashboard');
    expect(await storedToken()).toBeTruthy();
    const undo = await failReauthentication((route) =>
      route.fulfill(errorBody(401, 'NotAuthenticated', MESSAGES.inactiveUser, { reason: 'inactiveUser' })));
    // A client-side navigation re-checks the session too (AppLayout), not only a page load.
    await page.getByRole('link', { name: 'FAQs' }).click();
    await page.waitForURL('**/login');
    await page.getByText(MESSAGES.inactiveUser, { exact: true }).waitFor();
    expect(await storedToken()).toBeNull();
    await undo();
  });
});

describe('the session check on every screen change (spec 1 §2)', () => {
  const isRecheck = (response: Response) =>
    response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/v1/authentication';
  const navLink = (name: string) => page.locator('#main-nav').getByRole('link', { name, exact: true });

  it('an administrator working the queue changes screens 45 times in a row, then reloads, and stays signed in', async () => {
    await signedIn(DEV_ADMIN, '/', 'Admin Dashboard');
    const token = await storedToken();
    const screens = ['Dashboard', 'FAQs', 'Search'];
    for (let change = 1; change <= 45; change += 1) {
      const [recheck] = await Promise.all([page.waitForResponse(isRecheck), navLink(screens[change % 3]).click()]);
      expect(recheck.status(), `the session check of screen change ${change}`).toBe(200);
    }
    await heading('Admin Dashboard').waitFor(); // the 45th change ends on the dashboard
    const [reloaded] = await Promise.all([page.waitForResponse(isRecheck), page.reload()]);
    expect(reloaded.status()).toBe(200);
    await heading('Admin Dashboard').waitFor();
    expect(await page.getByText(MESSAGES.sessionExpired).count()).toBe(0);
    expect(await storedToken()).toBe(token);
  });

  it('a check refused for load (429) at a screen change leaves the user on the new screen, signed in', async () => {
    await signedIn(DEV_REQUESTER, '/', 'Dashboard');
    const token = await storedToken();
    let refused = 0;
    await failReauthentication(async (route) => {
      refused += 1;
      await route.fulfill(errorBody(429, 'TooManyRequests', 'Too many attempts. Please wait a minute and try again.', { retryAfterSeconds: 30 }));
    });
    await navLink('FAQs').click();
    await heading('Frequently Asked Questions').waitFor();
    await expect.poll(() => refused).toBeGreaterThanOrEqual(1);
    await navLink('Dashboard').click();
    await heading('Dashboard').waitFor();
    await expect.poll(() => refused).toBeGreaterThanOrEqual(2);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByText(MESSAGES.sessionExpired).count()).toBe(0);
    expect(await storedToken()).toBe(token);
  });
});

/** Presses Tab until `isTarget` holds for the focused element; fails after `max` presses. */
async function tabUntil(description: string, isTarget: () => Promise<boolean>, max = 40) {
  for (let presses = 0; presses < max; presses += 1) {
    await page.keyboard.press('Tab');
    if (await isTarget()) return;
  }
  throw new Error(`${description} was not reached with ${max} Tab presses`);
}

const focusedIs = (selector: string) => () => page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);

/** A visible focus indicator: an outline or the stylesheet's focus ring (box-shadow). */
const focusIsVisible = () => page.evaluate(() => {
  const style = getComputedStyle(document.activeElement!);
  return (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none';
});

describe('keyboard use', () => {
  it('signs in and moves through the dashboard with the keyboard only', async () => {
    await page.goto('/login');
    await heading('Login').waitFor();

    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true);
    expect((await skip.boundingBox())!.y).toBeGreaterThanOrEqual(0); // moved on screen while focused
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');

    await tabUntil('the email field', focusedIs('input[name="email"]'));
    expect(await focusIsVisible()).toBe(true);
    await page.keyboard.type(DEV_ADMIN.email);
    await page.keyboard.press('Tab');
    expect(await focusedIs('input[name="password"]')()).toBe(true);
    await page.keyboard.type(DEV_ADMIN.password);
    await page.keyboard.press('Enter');
    await heading('Admin Dashboard').waitFor();

    // Tabs: only the selected tab is a Tab stop; the arrow keys choose another one.
    await tabUntil('the selected tab', focusedIs('[role="tab"][aria-selected="true"]'));
    expect(await focusIsVisible()).toBe(true);
    await page.keyboard.press('End');
    await expect.poll(() => page.getByRole('tab', { name: /^Draft Requests/ }).getAttribute('aria-selected')).toBe('true');
    expect(await focusedIs('[role="tab"][aria-selected="true"]')()).toBe(true);
    await page.keyboard.press('Home');
    await expect.poll(() => page.getByRole('tab', { name: /^Claim History/ }).getAttribute('aria-selected')).toBe('true');
  });

  it('opens the Manage menu with the keyboard; Escape closes it and keeps the focus on its button', async () => {
    await signedIn(DEV_ADMIN, '/', 'Admin Dashboard');
    await tabUntil('the Manage button', focusedIs('button[aria-controls="manage-menu"]'));
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Email Templates' }).waitFor();
    await portal.checkA11y('Manage menu open');
    await page.keyboard.press('Tab');
    expect(await focusedIs('#manage-menu a')()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#manage-menu').count()).toBe(0);
    expect(await focusedIs('button[aria-controls="manage-menu"]')()).toBe(true);
  });
});

describe('the delete confirmation', () => {
  it('is a modal dialog axe accepts; Escape closes it and the focus is back on Delete', async () => {
    const draftId = await credentialingDraft(portal.h, await sessionOf(portal.h, DEV_REQUESTER), { lastName: 'Dialog' });
    page = await portal.openAs(DEV_REQUESTER, `/requests/credentialing/${draftId}/edit`);
    const deleteButton = page.getByRole('button', { name: 'Delete This Request' });
    await deleteButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByText(MESSAGES.deleteConfirm).waitFor();
    await portal.checkA11y('delete confirmation open');
    await portal.shot('delete-dialog');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await deleteButton.evaluate((element) => element === document.activeElement)).toBe(true);
  });
});

describe('the axe harness', () => {
  it('reports a serious or critical violation with its rule, page and element', async () => {
    // Navigations of this test, scanned without being asked: a page load and a client-side route change.
    const scansBefore = portal.a11y.scans;
    await signedIn(DEV_REQUESTER, '/', 'Dashboard');
    // The page load is scanned first: navigations less than 200 ms apart are scanned once, as the screen that stays.
    await expect.poll(() => portal.a11y.scans, { timeout: 60_000 }).toBeGreaterThanOrEqual(scansBefore + 1);
    await page.getByRole('link', { name: 'FAQs' }).click();
    await page.waitForURL('**/faqs');
    await expect.poll(() => portal.a11y.scans, { timeout: 60_000 }).toBeGreaterThanOrEqual(scansBefore + 2);
    // The FAQ screen's own scan (queued by its navigation) is done before the page is changed below.
    await portal.a11y.settle();
    await page.evaluate(() => {
      const image = document.createElement('img');
      image.id = 'axe-self-test';
      image.src = '/no-such-image.png';
      document.querySelector('main')!.append(image);
    });
    const runsBefore = portal.a11y.axeRuns;
    await portal.checkA11y('harness self-test');
    expect(portal.a11y.axeRuns).toBe(runsBefore + 1); // a screen of a new shape (the image added) is scanned
    const found = portal.a11y.take(); // taken here, so this test's afterEach finds nothing left
    await page.evaluate(() => document.getElementById('axe-self-test')?.remove());
    // A screen looked at twice, unchanged in between, is scanned at most once.
    await portal.checkA11y('the FAQ screen as it is');
    const runsAfter = portal.a11y.axeRuns;
    await portal.checkA11y('the same screen again');
    expect(portal.a11y.axeRuns).toBe(runsAfter);
    const imageAlt = found.find((v) => v.rule === 'image-alt');
    expect(imageAlt).toBeDefined();
    expect(imageAlt!.impact).toBe('critical');
    expect(imageAlt!.targets).toContain('#axe-self-test');
    expect(imageAlt!.url).toContain('/');
    expect(portal.a11y.scans).toBeGreaterThan(scansBefore + 4); // the two navigations were looked at without being asked, then the three explicit checks
  });
});
