/**
 * API keys in Chromium: an external account opens API Keys from its menu, creates a key, sees it once (with a copy
 * button and the warning), the key works against the API, and is gone from the page once dismissed; revoking it
 * refuses it at once. An administrator lists every account's keys under Manage and revokes one. Every state is
 * scanned by axe; the page is read at 768 px (screenshots with SCREENSHOTS=1).
 */
import { describe, expect, it } from 'vitest';
import { DEV_ADMIN } from '../../db/seed-data';
import { call, createExternalUser, sessionFor } from '../support/api-helpers';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('api-keys');
const stamp = `${process.pid}-${Date.now()}`;

const withKey = (key: string, url: string) => call(portal.h, { token: key, user: {} }, 'GET', url);

describe('API keys', () => {
  it('an organisation creates a key, sees it once, uses it and revokes it', async () => {
    const email = `keys-e2e-${stamp}@clinic.example`;
    await createExternalUser(portal.h, email, 'Keys-Pass1');
    const page = await portal.openAs({ email }, '/');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('link', { name: 'API Keys' }).click();
    await page.getByRole('heading', { name: 'API Keys', level: 1 }).waitFor();
    await page.getByText('No keys yet.').waitFor();
    await portal.checkA11y('api keys empty');

    await page.getByRole('button', { name: 'Create Key' }).click();
    await page.getByText('The field above is required').waitFor();
    await page.getByLabel('Name').fill('Credentialing system');
    await page.getByLabel(/Create, fill in and submit requests/).check();
    await page.getByRole('button', { name: 'Create Key' }).click();
    const secret = await page.getByTestId('new-api-key').textContent();
    expect(secret).toMatch(/^coi_[a-z2-7]{8}_[A-Za-z0-9_-]{43}$/);
    await page.getByText('It is shown only this once').waitFor();
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.getByRole('cell', { name: 'requests:read, requests:write, letters:read' }).waitFor();
    await portal.checkA11y('api keys created');
    await page.setViewportSize({ width: 768, height: 1000 });
    await portal.shot('created-768');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);

    expect((await withKey(secret!, '/api/v1/requests')).status).toBe(200);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.getByTestId('new-api-key').waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('cell', { name: 'coi_', exact: false }).first().waitFor();
    expect(await page.content()).not.toContain(secret!.slice(13));
    expect(await page.getByText('Never').count()).toBe(0); // its last use is listed after the call

    await page.getByRole('button', { name: 'Revoke Credentialing system' }).click();
    await portal.checkA11y('api keys revoke dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('has been revoked').waitFor();
    await page.getByText(/^Revoked \d/).waitFor();
    expect((await withKey(secret!, '/api/v1/requests')).status).toBe(401);
    await portal.shot('revoked-768');
  });

  it('an administrator lists every account\'s keys under Manage and revokes one', async () => {
    const email = `keys-e2e-admin-${stamp}@hospital.example`;
    await createExternalUser(portal.h, email, 'Keys-Pass1');
    const owner = await sessionFor(portal.h, email);
    const created = await call(portal.h, owner, 'POST', '/api/v1/api-keys', { name: `Hospital HR ${stamp}`, scopes: ['requests:read'] });
    expect(created.status).toBe(201);
    const page = await portal.openAs(DEV_ADMIN, '/');
    await page.getByRole('button', { name: 'Manage' }).click();
    await page.getByRole('link', { name: 'API Keys' }).click();
    await page.getByRole('heading', { name: 'API Keys', level: 1 }).waitFor();
    await page.getByRole('cell', { name: new RegExp(email) }).first().waitFor();
    await portal.checkA11y('manage api keys');
    await page.getByRole('button', { name: `Revoke Hospital HR ${stamp}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText(`of ${email} has been revoked`).waitFor();
    expect((await withKey(created.body.key, '/api/v1/requests')).status).toBe(401);
    await page.setViewportSize({ width: 768, height: 1000 });
    await portal.shot('manage-768');
  });
});
