/**
 * A roster in a real browser: the requester downloads the template, uploads a roster with errors, fixes a row in
 * place, and submits all valid rows with a progress bar (axe on every screen; a 768 px look).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEV_INTERNAL_REQUESTER } from '../../db/seed-data';
import { MESSAGES, rosterColumns, STATUS } from '../../domain';
import { call, loginEmployee, type Session } from '../support/api-helpers';
import { usePortalBrowser } from '../support/portal-browser';
import { rosterCsv } from '../support/roster-files';

const portal = usePortalBrowser('rosters');
let employee: Session;
let dir: string;

beforeAll(async () => {
  employee = await loginEmployee(portal.h);
  dir = await mkdtemp(path.join(os.tmpdir(), 'roster-e2e-'));
});

describe('a roster uploaded, fixed in place and submitted', () => {
  it('downloads the template, shows the rows with errors, fixes one in place and submits all valid', async () => {
    const page: Page = await portal.openAs(DEV_INTERNAL_REQUESTER);
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Upload a Roster' }).click();
    await page.getByRole('heading', { name: 'Rosters', exact: true }).waitFor();
    await page.getByLabel('Request type').selectOption('Clinician');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download template (CSV)' }).click()]);
    const template = await readFile(await download.path());
    expect(template.toString('utf8').replace(/^\uFEFF/, '').split('\r\n')[0].split(',')).toEqual(rosterColumns('Clinician').map((c) => c.label));
    await portal.checkA11y('rosters upload');

    const file = path.join(dir, 'clinicians.csv');
    await writeFile(file, rosterCsv('Clinician', [
      { lastName: 'Avery' }, { lastName: 'Brook', dateFrom: '13/45/2025' }, { lastName: 'Chen' }, { lastName: '' },
    ]));
    await page.getByLabel('Roster file (.xlsx or .csv)').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('heading', { name: 'Roster: clinicians.csv' }).waitFor();
    await expect.poll(() => page.getByText(MESSAGES.requestDateFormat, { exact: true }).count()).toBe(1);
    expect(await page.getByText(MESSAGES.required, { exact: true }).count()).toBe(1);
    await page.setViewportSize({ width: 768, height: 1000 });
    await portal.shot('roster-with-errors-768');
    await portal.checkA11y('roster with errors');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Row 3 (Brook): its start date fixed in the table.
    const fix = page.getByRole('form', { name: 'Fix row 3' });
    await fix.getByLabel('Coverage Start Date').fill('01/15/2024');
    await fix.getByRole('button', { name: 'Check again' }).click();
    await expect.poll(() => page.getByRole('form', { name: 'Fix row 3' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Submit all valid (3)' }).isEnabled()).toBe(true);

    await page.getByRole('button', { name: 'Submit all valid (3)' }).click();
    await page.getByText('Submitted: 3 of 3').waitFor({ timeout: 60_000 });
    expect(await page.locator('progress#roster-progress').getAttribute('value')).toBe('3');
    await portal.shot('roster-submitted');
    await portal.checkA11y('roster submitted');

    const rosterId = Number(page.url().split('/').pop());
    const roster = (await call(portal.h, employee, 'GET', `/api/v1/rosters/${rosterId}`)).body;
    expect(roster.counts).toMatchObject({ submitted: 3, invalid: 1 });
    for (const row of roster.rows.data.filter((r: { status: string }) => r.status === 'submitted')) {
      expect((await call(portal.h, employee, 'GET', `/api/v1/requests/${row.requestId}`)).body.status).toBe(STATUS.submitted);
    }
  });
});
