/**
 * University single sign-on in Chromium, 768 px wide, with the development identity provider `npm start` runs
 * (devtools/dev-idp, its own generated key and certificate, read by the portal from its metadata URL): from the
 * login page the employee selects the single sign-on button, picks themselves on the IdP's page, and lands on the
 * dashboard signed in. A refused sign-in comes back to the login page with words, not a code. axe checks every page,
 * the IdP's too. Screenshots: test-results/screenshots/sso-*.png.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serviceProviderUrls } from '../../api/auth/saml/service-provider';
import { PersonSchema, UserSchema } from '../../db/entities';
import { createOrm, type Orm } from '../../db/orm';
import { SSO_ERRORS } from '../../domain/single-sign-on';
import { DEV_REQUESTER } from '../../db/seed-data';
import { createExternalUser } from '../support/api-helpers';
import { startDevIdp, type DevIdp } from '../../devtools/dev-idp/dev-idp-server';
import { fileDatabaseUrl } from '../support/file-database';
import { usePortalBrowser } from '../support/portal-browser';

let idp: DevIdp;
let idpOrm: Orm;
let idpDir: string;
// Before the portal starts (hooks run in order): the portal reads the IdP's metadata URL from its settings.
beforeAll(async () => {
  idpDir = await mkdtemp(path.join(os.tmpdir(), 'coi-dev-idp-'));
  idpOrm = await createOrm(fileDatabaseUrl(), { poolMax: 2 });
  idp = await startDevIdp({ orm: idpOrm, dataDir: idpDir, serviceProvider: () => serviceProviderUrls(portal.h.config) });
});
const portal = usePortalBrowser('sso', { viewport: { width: 768, height: 1024 }, env: () => ({ SAML_IDP_METADATA_URL: idp.metadataUrl }) });
afterAll(async () => {
  await idp?.close();
  await idpOrm?.close();
  await rm(idpDir, { recursive: true, force: true });
});

let page: Page;
const lastName = `Okonkwo${randomBytes(3).toString('hex')}`;
const email = `${lastName.toLowerCase()}@ohsu.example`;

beforeEach(() => { page = portal.page; });
beforeAll(async () => {
  const em = portal.h.orm.em.fork();
  em.create(PersonSchema, {
    employeeId: '482913', email, lastName, firstName: 'Adaeze', middleInitial: 'N', title: 'Registered Nurse',
    workPhone: '503-494-1234', employmentStatus: 'A', personType: 'Employee',
  });
  await em.flush();
});

const horizontalOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('single sign-on through the development identity provider', () => {
  it('signs an employee in from the login page and lands on their dashboard', async () => {
    await page.goto('/login');
    const ssoButton = page.getByRole('link', { name: 'Sign in with university single sign-on' });
    await ssoButton.waitFor();
    expect(await page.getByText('later release').count()).toBe(0);
    await portal.shot('login');

    await ssoButton.focus();
    await page.keyboard.press('Enter'); // keyboard-usable
    await page.waitForURL(`${idp.url}/sso?**`);
    await page.getByRole('heading', { name: 'Development sign-in' }).waitFor();
    await page.getByLabel('Name, email or employee id').fill(lastName);
    await page.getByRole('button', { name: 'Search' }).click();
    const pick = page.getByRole('button', { name: `Sign in as Adaeze ${lastName}` });
    await pick.waitFor();
    expect(await horizontalOverflow()).toBeLessThanOrEqual(0);
    await portal.shot('dev-idp');

    await pick.click(); // the IdP posts the signed answer to the portal, which hands the token to the login page
    await page.waitForURL(`${portal.h.baseUrl}/`);
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Menu' }).click(); // 768 px: the header folds the user's name behind Menu
    await page.getByText(`Adaeze ${lastName}`).first().waitFor();
    expect(new URL(page.url()).hash).toBe(''); // the token does not linger in the address bar or history
    expect(await horizontalOverflow()).toBeLessThanOrEqual(0);
    await portal.shot('dashboard');

    const user = await portal.h.orm.em.fork().findOneOrFail(UserSchema, { email });
    expect(user).toMatchObject({ entityId: '482913', personType: 'Employee', affiliation: 'OHSU', isExternal: false, middleInitial: 'N' });
  });

  it('takes a ?token= out of the address bar at once and asks before switching from the signed-in user', async () => {
    // Signed in as a requester of the test's own. A link carrying another user's token:
    const signedIn = `switch-${randomBytes(3).toString('hex')}@clinic.example`;
    await createExternalUser(portal.h, signedIn, 'Switch-Pass1');
    page = await portal.openAs({ email: signedIn });
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    const other = await portal.h.app.inject({ method: 'POST', url: '/api/v1/authentication', payload: { strategy: 'local', email: DEV_REQUESTER.email, password: DEV_REQUESTER.password } });
    const token = other.json().accessToken as string;
    await page.goto(`/login?token=${encodeURIComponent(token)}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByText('You are signed in as Other Requester').waitFor();
    expect(page.url()).toBe(`${portal.h.baseUrl}/login`); // the token is gone from the address bar and history
    await portal.checkA11y('switch-user dialog');
    await portal.shot('switch-user');
    await page.keyboard.press('Escape'); // Stay
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('feathers-jwt'))).not.toBe(token);

    await page.goto(`/login?token=${encodeURIComponent(token)}`);
    await page.getByRole('button', { name: 'Switch user' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('feathers-jwt'))).toBe(token);
  });

  it('explains a refused sign-in on the login page', async () => {
    // A context of its own: signed out.
    await page.goto('/login#error=expired');
    await page.getByRole('alert').filter({ hasText: SSO_ERRORS.expired }).waitFor();
    await page.goto('/login#error=<b>made-up</b>');
    await page.getByRole('alert').filter({ hasText: SSO_ERRORS.failed }).waitFor();
    await portal.shot('refused');
  });
});
