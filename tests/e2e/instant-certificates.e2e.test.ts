/**
 * Instant certificates in Chromium: an administrator writes a rule in the editor (react-querybuilder), simulates it,
 * saves it (switched off), switches it and the office on, reads its versions, saves a new one and is told when a
 * version saved meanwhile makes theirs stale; a rule the portal switched off by itself says why and refuses to be
 * switched on. An employee submits a matching Event certificate and the success dialog says it is ready, linking it;
 * its page tells the administrator which rule issued it, and Check After Issue lists it until it is confirmed. A
 * request the rule does not cover waits, and its page names the condition. axe on every screen; screenshots at 1280
 * and 768 px (SCREENSHOTS=1: test-results/screenshots/instant-*).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADMIN, DEV_INTERNAL_REQUESTER } from '../../db/seed-data';
import { INSTANT_MESSAGES, describeCondition } from '../../domain';
import { call, certificateDraft, type Session } from '../support/api-helpers';
import { decideByApi, sessionOf, submitByApi } from '../support/e2e-fixtures';
import { eventually } from '../support/eventually';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('instant');
const h = () => portal.h;

/** The conditions of the file's rule: Events without patient care, asked by an employee. */
const CONDITIONS = {
  combinator: 'and',
  rules: [{ field: 'eventPatientCare', operator: '=', value: 'No' }, { field: 'requesterType', operator: '=', value: 'internal' }],
};

const shot = async (page: Page, name: string) => {
  await portal.shot(name, page);
  await page.setViewportSize({ width: 768, height: 900 });
  // Readable at 768 px: nothing wider than the window.
  // (a chart measures its box after the window changed: wait for its next layout)
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 10_000 }).toBeLessThanOrEqual(768);
  await portal.shot(`${name}-768`, page);
  await page.setViewportSize({ width: 1280, height: 900 });
};

let ruleOn: Promise<void> | null = null;
/** A rule of the file's conditions, switched on (one in 1 checked after issue), and the office's switch on: once. */
function instantRuleOn(admin: Session): Promise<void> {
  ruleOn ??= (async () => {
    const created = await call(h(), admin, 'POST', '/api/v1/instant-rules', { name: 'Events without patient care', kinds: ['Event'], checkEvery: 1, conditions: CONDITIONS });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await call(h(), admin, 'PUT', `/api/v1/instant-rules/${created.body.id}/enabled`, { enabled: true })).status).toBe(200);
    expect((await call(h(), admin, 'PUT', '/api/v1/instant-settings', { enabled: true })).status).toBe(200);
  })();
  return ruleOn;
}

/** The request's instant decision once the workflow has made it. */
const decisionOf = (admin: Session, id: number) => eventually(async () => {
  const res = await call(h(), admin, 'GET', `/api/v1/requests/${id}/instant-decision`);
  return res.body.decision as { outcome: string; stoppedBy: string | null } | null;
}, 60_000);

let admin: Session;
beforeAll(async () => { admin = await sessionOf(h(), DEV_ADMIN); });

/**
 * A history for the simulator: two events the file's rule covers, decided by a person (with the office's switch off
 * meanwhile, whatever another test left): one approved, one denied.
 */
async function seededHistory(): Promise<{ approved: number; denied: number }> {
  const wasOn = (await call(h(), admin, 'GET', '/api/v1/instant-rules')).body.settings.enabled as boolean;
  await call(h(), admin, 'PUT', '/api/v1/instant-settings', { enabled: false });
  try {
    const employee = await sessionOf(h(), DEV_INTERNAL_REQUESTER);
    const decided = async (status: string) => {
      const id = await certificateDraft(h(), employee, 'Event', { eventPatientCare: 'No', eventPatientCareDetail: '' });
      const { number } = await submitByApi(h(), employee, id);
      await decideByApi(h(), admin, id, status, { verified: true });
      return number;
    };
    return { approved: await decided('Approved'), denied: await decided('Denied') };
  } finally {
    await call(h(), admin, 'PUT', '/api/v1/instant-settings', { enabled: wasOn });
  }
}

describe('an administrator writes a rule', () => {
  it('in the editor: simulated, refused without a name, saved switched off, switched on with the office, versioned, stale when saved meanwhile', async () => {
    const history = await seededHistory();
    const page = await portal.openAs(DEV_ADMIN, '/');
    await page.getByRole('button', { name: 'Manage' }).click();
    await page.getByRole('link', { name: 'Instant Certificates' }).click();
    await page.getByRole('heading', { name: 'Instant Certificates', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New Rule' }).click();
    const editor = page.getByRole('form', { name: 'New rule' });
    await editor.waitFor();
    expect(await page.getByText('A new rule starts switched off.').count()).toBe(1);

    await editor.getByRole('checkbox', { name: 'Event', exact: true }).check();
    await editor.locator('input[name="checkEvery"]').fill('1');
    await editor.getByRole('button', { name: 'Add condition', exact: true }).click();
    await editor.getByLabel('Field of condition 1').selectOption('eventPatientCare');
    expect(await editor.getByLabel('Comparison of condition 1').inputValue()).toBe('=');
    await editor.getByLabel('Value of condition 1').selectOption('No');
    await editor.getByRole('button', { name: 'Add condition', exact: true }).click();
    await editor.getByLabel('Field of condition 2').selectOption('requesterType');
    await editor.getByLabel('Value of condition 2').selectOption('internal');
    // "is one of" on a choice: several values, kept as a list.
    await editor.getByLabel('Comparison of condition 2').selectOption('in');
    await editor.getByLabel('Value of condition 2').selectOption(['internal']);

    await page.getByRole('button', { name: 'Simulate over the last 12 months' }).click();
    // The history seeded above: the rule would have issued both; the office denied one of them.
    await page.getByText(/^Would have issued \d+ of \d+ requests/).first().waitFor();
    const [, wouldIssue] = /Would have issued (\d+) of/.exec(await page.getByText(/^Would have issued/).first().innerText())!;
    expect(Number(wouldIssue)).toBeGreaterThanOrEqual(2);
    await page.getByRole('link', { name: `Request ${history.denied}` }).waitFor();
    expect(await page.getByRole('link', { name: `Request ${history.approved}` }).count()).toBe(0);
    await portal.checkA11y('rule editor with conditions and a simulation');
    await shot(page, 'editor');

    await editor.getByRole('button', { name: 'Save Rule' }).click();
    await editor.getByText(INSTANT_MESSAGES.nameRequired).waitFor();
    expect(await editor.locator('input[name="ruleName"]').getAttribute('aria-invalid')).toBe('true');
    await editor.locator('input[name="ruleName"]').fill('Event, no patient care (editor)');
    await editor.getByRole('button', { name: 'Save Rule' }).click();
    await page.getByText('"Event, no patient care (editor)" was saved, switched off.').waitFor();
    const rules = (await call(h(), admin, 'GET', '/api/v1/instant-rules')).body.data as Array<{ id: number; name: string; enabled: boolean; conditions: typeof CONDITIONS; checkEvery: number }>;
    const rule = rules.find((r) => r.name === 'Event, no patient care (editor)')!;
    expect(rule).toMatchObject({ enabled: false, checkEvery: 1 });
    expect(rule.conditions.rules.map(({ field, operator, value }) => ({ field, operator, value }))).toEqual([
      { field: 'eventPatientCare', operator: '=', value: 'No' }, { field: 'requesterType', operator: 'in', value: ['internal'] },
    ]);

    // The switches show the server's state: a click asks, the answer ticks it (no optimistic change).
    const switchOf = page.getByRole('checkbox', { name: 'Event, no patient care (editor) switched on' });
    await switchOf.click();
    await expect.poll(() => switchOf.isChecked()).toBe(true);
    await expect.poll(() => call(h(), admin, 'GET', `/api/v1/instant-rules/${rule.id}`).then((r) => r.body.enabled)).toBe(true);
    const office = page.getByRole('checkbox', { name: 'Issue certificates instantly under the rules switched on below' });
    // Another test of the file may have switched the office on already: off, then on again, through the page.
    if (await office.isChecked()) {
      await office.click();
      await page.locator('#instant-switch-state').getByText('Off', { exact: true }).waitFor();
    }
    await office.click();
    await expect.poll(() => page.locator('#instant-switch-state').innerText()).toMatch(/^On: .* Changed by .+ on \d\d\/\d\d\/\d{4} \d{1,2}:\d\d [AP]M\.$/);
    await portal.checkA11y('rules with the office switched on');

    await page.getByRole('button', { name: 'Versions of Event, no patient care (editor)' }).click();
    const versions = page.getByRole('dialog', { name: 'Versions of Event, no patient care (editor)' });
    await versions.getByText('v1 (current)').waitFor();
    expect(await versions.innerText()).toContain(describeCondition({ field: 'eventPatientCare', operator: '=', value: 'No' }));
    await portal.checkA11y('versions of a rule');
    await versions.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Edit Event, no patient care (editor)' }).click();
    const edit = page.getByRole('form', { name: 'Edit rule Event, no patient care (editor)' });
    await edit.locator('input[name="dailyCap"]').fill('20');
    await edit.getByRole('button', { name: 'Save New Version' }).click();
    await page.getByText('"Event, no patient care (editor)" was saved as version 2.').waitFor();

    // Saved meanwhile by someone else: this editor's version is stale, and it says so.
    await page.getByRole('button', { name: 'Edit Event, no patient care (editor)' }).click();
    const stale = page.getByRole('form', { name: 'Edit rule Event, no patient care (editor)' });
    await stale.waitFor();
    const meanwhile = await call(h(), admin, 'PUT', `/api/v1/instant-rules/${rule.id}`, { name: 'Event, no patient care (editor)', kinds: ['Event'], conditions: CONDITIONS, checkEvery: 1, dailyCap: 30, version: 2 });
    expect(meanwhile.status).toBe(200);
    await stale.locator('input[name="dailyCap"]').fill('25');
    await stale.getByRole('button', { name: 'Save New Version' }).click();
    await stale.getByText('This rule was changed by someone else meanwhile: reload it to see their version').waitFor();
  });

  it('a rule the portal switched off by itself says why, and switching it on is refused with the reason', async () => {
    await h().orm.em.getConnection().execute(
      `insert into instant_rules (name, kinds, conditions, check_every, daily_cap, enabled, problem, updated_by)
       values ('Renamed field rule', '["Event"]'::jsonb, ?::jsonb, 10, 50, false, ?, 'Portal')`,
      [JSON.stringify({ combinator: 'and', rules: [{ field: 'renamedField', operator: '=', value: 'x' }] }), INSTANT_MESSAGES.unknownField('renamedField')], 'run');
    const page = await portal.openAs(DEV_ADMIN, '/manage/instant-certificates');
    await page.getByText(INSTANT_MESSAGES.switchedOff(INSTANT_MESSAGES.unknownField('renamedField'))).waitFor();
    await page.getByRole('checkbox', { name: 'Renamed field rule switched on' }).click();
    await page.getByRole('alert').filter({ hasText: `Renamed field rule: ${INSTANT_MESSAGES.switchedOff(INSTANT_MESSAGES.unknownField('renamedField'))}` }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Renamed field rule switched on' }).isChecked()).toBe(false);
    await portal.checkA11y('a rule switched off by itself');
    await shot(page, 'rules');
  });
});

describe('a requester submits what a rule covers', () => {
  it('the success dialog says the certificate is ready and links it; the request page names the rule; Check After Issue lists it until confirmed', async () => {
    await instantRuleOn(admin);
    const employee = await sessionOf(h(), DEV_INTERNAL_REQUESTER);
    const id = await certificateDraft(h(), employee, 'Event', { eventPatientCare: 'No', eventPatientCareDetail: '', eventName: 'Staff Picnic' });
    const page = await portal.openAs(DEV_INTERNAL_REQUESTER, `/requests/certificate/${id}/edit`);
    await expect.poll(() => page.locator('input[name="eventName"]').inputValue()).toBe('Staff Picnic');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Your request was submitted' });
    await dialog.getByText('Your certificate is ready.').waitFor({ timeout: 90_000 });
    const number = Number(/Request (\d+) was approved/.exec(await dialog.innerText())![1]);
    await portal.checkA11y('submit success: the certificate is ready');
    await shot(page, 'ready');
    await dialog.getByRole('link', { name: 'View the request and its certificate' }).click();
    await page.waitForURL(`**/requests/certificate/${id}`);
    await page.getByRole('region', { name: 'Certificates and Letters Issued' }).waitFor();

    const adminPage = await portal.openAs(DEV_ADMIN, `/requests/certificate/${id}`);
    const panel = adminPage.getByRole('region', { name: 'Instant certificate' });
    await expect.poll(() => panel.innerText()).toMatch(/Issued by Rule: .+ v\d+ on \d\d\/\d\d\/\d{4} \d{1,2}:\d\d [AP]M\./);
    expect(await panel.innerText()).toContain('Waiting on Check After Issue.');
    await portal.checkA11y('request issued by a rule');
    await shot(adminPage, 'issued-request');

    await panel.getByRole('link', { name: 'Check After Issue' }).click();
    await adminPage.getByRole('heading', { name: 'Check After Issue', level: 1 }).waitFor();
    const row = adminPage.getByRole('row').filter({ hasText: String(number) });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Rule: .+ v\d+/);
    await portal.checkA11y('check after issue');
    await shot(adminPage, 'checks');
    await row.getByRole('button', { name: `Confirm request ${number}` }).click();
    await adminPage.getByText(`Request ${number} confirmed.`).waitFor();
    expect(await adminPage.getByRole('row').filter({ hasText: String(number) }).count()).toBe(0);
  });

  it('a request the rule does not cover waits for a person, and its page names the condition that stopped it', async () => {
    await instantRuleOn(admin);
    const employee = await sessionOf(h(), DEV_INTERNAL_REQUESTER);
    const { id } = await submitByApi(h(), employee, await certificateDraft(h(), employee, 'Event', { eventPatientCare: 'Yes' }));
    expect(await decisionOf(admin, id)).toMatchObject({ outcome: 'stopped' });
    const page = await portal.openAs(DEV_ADMIN, `/requests/certificate/${id}`);
    const panel = page.getByRole('region', { name: 'Instant certificate' });
    const condition = describeCondition({ field: 'eventPatientCare', operator: '=', value: 'No' }).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await expect.poll(() => panel.innerText()).toMatch(new RegExp(`Waiting for a person: Rule: .+ v\\d+: needs ${condition}`));
    await page.getByText('Status: Submitted').first().waitFor();
    await portal.checkA11y('request a rule stopped');
  });
});
