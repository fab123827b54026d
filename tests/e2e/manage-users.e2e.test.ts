/**
 * Manage users in Chromium: an administrator adds an administrator, cannot remove themself, removes the new one after
 * the confirmation; searches external users (messages of spec 2 §8.3) and deactivates one, who then sees
 * `User account has been deactivated.` at sign-in; reactivation lets them back in. Every page is scanned by axe.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { UserSchema } from '../../db/entities';
import { DEV_ADMIN } from '../../db/seed-data';
import { MESSAGES } from '../../domain';
import { call, createExternalUser, loginAdmin } from '../support/api-helpers';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('manage-users');
let page: Page;
beforeEach(() => { page = portal.page; });

const heading = (name: string) => page.getByRole('heading', { name, exact: true });
const stamp = Date.now();

describe('Manage Administrative Users', () => {
  it('adds an administrator with the rules of the form', async () => {
    const email = `added-admin-${stamp}@example.org`;
    page = await portal.openAs(DEV_ADMIN, '/manage/admins');
    await heading('Manage Administrative Users').waitFor();
    await page.getByRole('cell', { name: DEV_ADMIN.email }).waitFor();
    // No Remove for yourself.
    expect(await page.getByRole('button', { name: `Remove ${DEV_ADMIN.firstName} ${DEV_ADMIN.lastName}` }).count()).toBe(0);
    await page.getByRole('button', { name: 'Add Administrator' }).click();
    expect(await page.getByText(MESSAGES.required).count()).toBe(3);
    await page.getByLabel('First Name').fill(' Avery ');
    await page.getByLabel('Last Name').fill('Added');
    await page.getByLabel('Email').fill(DEV_ADMIN.email.toUpperCase());
    await page.getByRole('button', { name: 'Add Administrator' }).click();
    await page.getByText(MESSAGES.adminEmailInUse).waitFor();
    await page.getByLabel('Email').fill(` ${email.toUpperCase()} `);
    await page.getByRole('button', { name: 'Add Administrator' }).click();
    await page.getByRole('cell', { name: email }).waitFor();
    await page.getByText('Avery Added is now an administrator.').waitFor();
    await portal.shot('admins');
  });

  it('edits your own entry without the email, and removes another after the confirmation', async () => {
    const email = `removable-admin-${stamp}@example.org`;
    const added = await call(portal.h, await loginAdmin(portal.h), 'POST', '/api/v1/admins', { firstName: 'Robin', lastName: 'Removable', email });
    expect(added.status).toBe(201);
    page = await portal.openAs(DEV_ADMIN, '/manage/admins');
    await page.getByRole('cell', { name: email }).waitFor();
    await page.getByRole('button', { name: `Edit ${DEV_ADMIN.firstName} ${DEV_ADMIN.lastName}` }).click();
    expect(await page.getByLabel('Email').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Remove Robin Removable' }).click();
    await page.getByText(MESSAGES.removeAdminConfirm).waitFor();
    await portal.checkA11y('remove admin dialog');
    await portal.shot('remove-confirm');
    await page.getByRole('button', { name: MESSAGES.deleteConfirmYes }).click();
    await page.getByText('Robin Removable is no longer an administrator.').waitFor();
    await page.getByRole('cell', { name: email }).waitFor({ state: 'detached' });
  });
});

describe('Manage External Users', () => {
  it('searches with the messages of the spec and deactivates a user', async () => {
    const email = `deactivate-me-${stamp}@clinic.example`;
    await createExternalUser(portal.h, email, 'Deactivate-Pass1');
    page = await portal.openAs(DEV_ADMIN, '/manage/registrants');
    await heading('Manage External Users').waitFor();
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText(MESSAGES.searchParametersRequired).waitFor();
    await page.getByLabel('Company').fill('No Such Company Anywhere');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText(MESSAGES.noExternalUsers).waitFor();
    await page.getByLabel('Company').fill('');
    await page.getByLabel('Email').fill(`deactivate-me-${stamp}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('cell', { name: email }).waitFor();
    await page.getByRole('button', { name: 'Deactivate Other Requester' }).click();
    await page.getByRole('cell', { name: 'Deactivated', exact: true }).waitFor();
    await portal.shot('registrants');
    await portal.signOut();
  });

  it('the deactivated user sees User account has been deactivated.; reactivated, they sign in', async () => {
    const email = `reactivate-me-${stamp}@clinic.example`;
    await createExternalUser(portal.h, email, 'Deactivate-Pass1');
    const user = await portal.h.orm.em.fork().findOneOrFail(UserSchema, { email });
    expect((await call(portal.h, await loginAdmin(portal.h), 'PATCH', `/api/v1/users/${user.id}`, { active: false })).status).toBe(200);
    await portal.signIn(email, 'Deactivate-Pass1');
    await page.getByText(MESSAGES.inactiveUser).waitFor();
    await portal.shot('deactivated-login');
    page = await portal.openAs(DEV_ADMIN, '/manage/registrants');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Reactivate Other Requester' }).click();
    await page.getByRole('cell', { name: 'Active', exact: true }).waitFor();
    // Edit External Requester: the registration form for an administrator.
    await page.getByRole('link', { name: 'Edit Other Requester' }).click();
    await heading('Edit External Requester').waitFor();
    await page.getByLabel('Company').waitFor();
    await page.getByLabel('First Name').fill('Renamed');
    await page.getByLabel('Phone').fill('5035550142');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText(MESSAGES.externalUserUpdated).waitFor();
    await portal.shot('edit-external');
    await portal.signOut();
    await portal.signIn(email, 'Deactivate-Pass1');
    await heading('Dashboard').waitFor();
    await page.getByText('Renamed Requester').first().waitFor();
  });
});
