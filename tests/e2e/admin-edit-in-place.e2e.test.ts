/**
 * Admin Edit in place and administrators' own drafts, in Chromium with axe, at 1280 and 768 px:
 * - Admin Edit of a certificate happens in place on its view page (spec 1 §2: "Admin Edit opens an in-place edit
 *   form with Save and cancel"): nothing is saved while the administrator pauses (no autosave, no audit row), Cancel
 *   discards, Save shows Save Successful and writes one "Field Edit" row naming the changed field. Not offered once
 *   the request is closed. Operated with the keyboard.
 * - An administrator's own draft offers Edit and Delete, on the dashboard and on its request page; someone else's
 *   draft shows View only.
 */
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEV_ADMIN } from '../../db/seed-data';
import { FIELD_EDIT_ACTIVITY } from '../../domain';
import { call, certificateDraft, loginAdmin, loginEmployee, type Session } from '../support/api-helpers';
import { decideByApi, submitByApi, type Made } from '../support/e2e-fixtures';
import type { Harness } from '../support/portal-harness';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('admin-edit-in-place');
let h: Harness;
let page: Page;
let admin: Session;
let employee: Session;
/** A submitted event certificate no test changes (the tests that save make their own). */
let event: Made;
/** The employee's draft: no test changes it. */
let othersDraft: Made;

const LOCATION = 'Event Location (name and address)';

/** An event certificate of the employee's, submitted (its location is Pioneer Square, its organizer Rosa Diaz). */
const submittedEvent = async () => submitByApi(h, employee, await certificateDraft(h, employee, 'Event'));

const stored = async (id: number) => (await call(h, admin, 'GET', `/api/v1/requests/${id}`)).body;
const fieldEdits = async (id: number) => {
  const res = await call(h, admin, 'GET', `/api/v1/request-activity?requestId=${id}`);
  return (res.body.data as Array<{ activityType: string; activityText: string }>).filter((a) => a.activityType === FIELD_EDIT_ACTIVITY);
};

/** Presses Tab until the focused element is the named button: proves it is reachable by keyboard. */
async function tabTo(name: string, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press(key);
    const focused = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText?.trim() ?? '');
    if (focused === name) return;
  }
  throw new Error(`${name} is not reachable with ${key}`);
}

const focusedText = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText?.trim() ?? '');
const editForm = () => page.getByRole('form', { name: 'Edit request' });
const locationValue = () => page.getByRole('definition').filter({ hasText: /^(Pioneer Square|Director Park)$/ }).innerText();

beforeAll(async () => {
  h = portal.h;
  admin = await loginAdmin(h);
  employee = await loginEmployee(h);
  event = await submittedEvent();
  const draftId = await certificateDraft(h, employee, 'Clinician');
  othersDraft = { id: draftId, number: (await stored(draftId)).requestNumber };
});
beforeEach(() => { page = portal.page; });

/** The administrator on the event's view page (Status: Submitted). */
async function openView(id: number) {
  page = await portal.openAs(DEV_ADMIN, `/requests/certificate/${id}`);
  await page.getByText('Status: Submitted').first().waitFor();
}

describe('Admin Edit of a certificate, in place', () => {
  it('no autosave: a pause saves nothing; Cancel discards and puts the view back', async () => {
    await openView(event.id);
    expect(await locationValue()).toBe('Pioneer Square');

    // Keyboard: reach Admin Edit, open it; the form takes focus on its first field.
    await tabTo('Admin Edit');
    await page.keyboard.press('Enter');
    await editForm().waitFor();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toMatch(/INPUT|SELECT|TEXTAREA/);
    // the administrator's form: no requester's disclaimer, no type selector, no draft buttons
    expect(await page.getByText('Additional insureds cannot be named').count()).toBe(0);
    expect(await page.locator('select[name="certificateType"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save Draft' }).count()).toBe(0);

    // The page's clock runs 1,500 ms at once (twice the requester's autosave pause): a timer set by the edit fires.
    const writes: string[] = [];
    page.on('request', (r) => { if (r.method() !== 'GET' && r.url().includes('/api/')) writes.push(`${r.method()} ${r.url()}`); });
    await page.clock.install();
    await editForm().getByLabel(LOCATION).fill('Director Park');
    await page.clock.runFor(1_500);
    expect(writes).toEqual([]);
    expect((await stored(event.id)).eventLocation).toBe('Pioneer Square');
    expect(await fieldEdits(event.id)).toEqual([]);
    await portal.shot('editing-1280');
    await portal.checkA11y('admin edit in place at 1280 px');

    await tabTo('Cancel');
    await page.keyboard.press('Enter');
    await expect.poll(() => editForm().count()).toBe(0);
    expect(await locationValue()).toBe('Pioneer Square');
    expect(await focusedText()).toBe('Admin Edit'); // focus goes back where the edit began
    expect((await stored(event.id)).eventLocation).toBe('Pioneer Square');
    expect(await fieldEdits(event.id)).toEqual([]);
    await portal.shot('cancelled-1280');
  });

  it('at 768 px: Save checks the rules, then Save Successful, one audit row naming the field, the view shows the new value', async () => {
    const event = await submittedEvent();
    await openView(event.id);
    await page.setViewportSize({ width: 768, height: 1000 });
    await tabTo('Admin Edit');
    await page.keyboard.press('Enter');
    await editForm().waitFor();
    // the domain's rules: a required field left empty is refused in the browser, nothing is sent
    await editForm().getByLabel(LOCATION).fill('');
    await page.keyboard.press('Enter'); // implicit submission from a text field
    await expect.poll(() => editForm().getByText('The field above is required').count()).toBeGreaterThan(0);
    expect(await editForm().getByLabel(LOCATION).evaluate((el) => el === document.activeElement)).toBe(true);
    await portal.shot('refused-768');
    await portal.checkA11y('admin edit refused at 768 px');
    await page.keyboard.type('Director Park');
    await expect.poll(() => editForm().getByText('The field above is required').count()).toBe(0);
    await portal.shot('editing-768');
    await tabTo('Save');
    await page.keyboard.press('Enter');
    await page.getByText('Save Successful').waitFor();
    await expect.poll(() => editForm().count()).toBe(0);
    await expect.poll(locationValue).toBe('Director Park');
    expect(await page.getByText('Status: Submitted').first().isVisible()).toBe(true);

    expect((await stored(event.id)).eventLocation).toBe('Director Park');
    const edits = await fieldEdits(event.id);
    expect(edits.map((e) => e.activityText)).toEqual([`Edited "${LOCATION}"`]);
    await page.getByRole('tab', { name: 'Request Audit Details' }).click();
    await page.getByRole('table', { name: 'Request Audit Details' }).getByText(`Edited "${LOCATION}"`).waitFor();
    await page.getByRole('tab', { name: 'Request Details' }).click();
    await portal.shot('saved-768');
    await portal.checkA11y('admin edit saved at 768 px');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("an internal request's person is picked from the directory, as on the requester's form", async () => {
    const event = await submittedEvent();
    await openView(event.id);
    await page.getByRole('button', { name: 'Admin Edit' }).click();
    await editForm().getByRole('button', { name: 'Change Event Organizer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Find Event Organizer' });
    await dialog.getByLabel('Last Name').fill('staff');
    await dialog.getByLabel('First Name').fill('jord');
    await dialog.getByRole('button', { name: 'Search' }).click();
    await dialog.getByRole('radio', { name: 'Jordan Staffer' }).check();
    // Administrators see the person's type (spec 1 §6 "person type column": Employee or Student).
    await dialog.getByRole('columnheader', { name: 'Type' }).waitFor();
    await dialog.getByRole('row', { name: /Jordan/ }).getByRole('cell', { name: 'Employee', exact: true }).waitFor();
    await portal.checkA11y('person search from the admin edit');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => editForm().locator('input[name="lastName"]').inputValue()).toBe('Staffer');
    expect((await stored(event.id)).lastName).toBe('Diaz'); // still nothing saved
    await editForm().getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Save Successful').waitFor();
    await page.getByRole('definition').filter({ hasText: /^Staffer$/ }).waitFor();
    const edits = await fieldEdits(event.id);
    expect(edits).toHaveLength(1); // one audit row for the save, naming the person's fields
    expect(edits[0].activityText).toMatch(/^Edited "Employee ID", "Last Name", "First Name"/);
  });

  it('the requester form address of a submitted request sends an administrator to the view page (no autosaving form)', async () => {
    page = await portal.openAs(DEV_ADMIN, `/requests/certificate/${event.id}/edit`);
    await page.waitForURL(`**/requests/certificate/${event.id}`);
    await page.getByRole('button', { name: 'Admin Edit' }).waitFor();
    expect(await page.getByRole('button', { name: 'Submit' }).count()).toBe(0);
  });

  it('is not offered once the request is closed', async () => {
    const event = await submittedEvent();
    await openView(event.id);
    await page.getByRole('button', { name: 'Admin Edit' }).waitFor();
    const res = await call(h, admin, 'PATCH', `/api/v1/requests/${event.id}`, { status: 'Denied', version: (await stored(event.id)).version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await page.reload();
    await page.getByText('Status: Denied').first().waitFor({ timeout: 60_000 });
    expect(await page.getByRole('button', { name: 'Admin Edit' }).count()).toBe(0);
  });
});

describe("an administrator's own draft", () => {
  /** The administrator's own Clinician draft. */
  const ownDraft = async (overrides: Record<string, unknown> = {}): Promise<Made> => {
    const id = await certificateDraft(h, admin, 'Clinician', overrides);
    return { id, number: (await stored(id)).requestNumber };
  };
  const draftsTab = async () => {
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('tab', { name: /^Draft Requests \(\d+\)$/ }).click();
  };
  const row = (n: number) => page.getByRole('row').filter({ hasText: String(n) });

  it('offers Edit and Delete on the dashboard (someone else\'s draft: View only), at 1280 and 768 px', async () => {
    const own = await ownDraft({ facilityName: 'Admin Clinic' });
    page = await portal.openAs(DEV_ADMIN);
    await draftsTab();
    await row(own.number).getByRole('link', { name: 'Edit' }).waitFor();
    expect(await row(own.number).getByRole('button', { name: 'Delete' }).count()).toBe(1);
    expect(await row(othersDraft.number).getByRole('link', { name: 'View' }).count()).toBe(1);
    expect(await row(othersDraft.number).getByRole('link', { name: 'Edit' }).count()).toBe(0);
    expect(await row(othersDraft.number).getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await portal.shot('own-draft-dashboard-1280');
    await page.setViewportSize({ width: 768, height: 1000 });
    await portal.shot('own-draft-dashboard-768');
    await portal.checkA11y('admin drafts tab at 768 px');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Edit opens the requester's form on the draft, with its values
    await row(own.number).getByRole('link', { name: 'Edit' }).click();
    await expect.poll(() => page.locator('input[name="facilityName"]').inputValue()).toBe('Admin Clinic');
    expect(await page.getByRole('button', { name: 'Delete This Request' }).count()).toBe(1);
  });

  it('offers Edit and Delete on its request page; Delete removes it after the confirmation', async () => {
    const own = await ownDraft();
    page = await portal.openAs(DEV_ADMIN, `/requests/certificate/${own.id}`);
    await page.getByText('Status: Draft').waitFor();
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Admin Edit' }).count()).toBe(0); // a draft is edited as its requester
    await page.setViewportSize({ width: 768, height: 1000 });
    await portal.shot('own-draft-view-768');
    await page.setViewportSize({ width: 1280, height: 900 });
    await portal.shot('own-draft-view-1280');

    // someone else's draft: no Edit, no Delete
    await page.goto(`/requests/certificate/${othersDraft.id}`);
    await page.getByText('Status: Draft').waitFor();
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);

    await page.goto(`/requests/certificate/${own.id}`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('Are you sure you want to delete this request?').waitFor();
    await portal.checkA11y('delete confirmation on the request page');
    await confirm.getByRole('button', { name: 'Yes, please!' }).click();
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByRole('tab', { name: /^Draft Requests \(\d+\)$/, selected: true }).waitFor();
    await row(othersDraft.number).waitFor();
    expect(await row(own.number).count()).toBe(0);
    expect((await call(h, admin, 'GET', `/api/v1/requests/${own.id}`)).status).toBe(404);
  });
});

describe("an administrator's own request sent back for more information", () => {
  it("offers Edit (not Admin Edit) on its request page; the requester's form submits it again", async () => {
    const id = await certificateDraft(h, admin, 'Clinician', { facilityName: 'Admin Clinic' });
    const own = await submitByApi(h, admin, id);
    await decideByApi(h, admin, id, 'Pending Additional Information');

    page = await portal.openAs(DEV_ADMIN, `/requests/certificate/${id}`);
    await page.getByText('Status: Pending Additional Information').first().waitFor();
    expect(await page.getByRole('button', { name: 'Admin Edit' }).count()).toBe(0); // edited as its requester
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect.poll(() => page.locator('input[name="facilityName"]').inputValue()).toBe('Admin Clinic');
    await page.locator('input[name="facilityName"]').fill('Providence Clinic');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Your request was submitted' });
    await dialog.getByText(`Request ${own.number} is now with the Risk Management office.`).waitFor();
    await portal.checkA11y('resubmitted: the success message');
    await dialog.getByRole('button', { name: 'OK' }).click();
    expect(await stored(id)).toMatchObject({ status: 'Submitted', facilityName: 'Providence Clinic' });
    expect(await fieldEdits(id)).toEqual([]); // the requester's edit, not an Admin Edit
  });
});
