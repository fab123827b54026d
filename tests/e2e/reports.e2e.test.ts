/**
 * The Reports page in Chromium: an administrator opens it from the Manage menu with the keyboard, picks "Last 30
 * days" and reads every chart beside its table at 1280 and 768 px (axe-clean; each chart photographed); the xlsx
 * download opens in exceljs with the same numbers as the tables; a request submitted elsewhere shows without a
 * reload (live events); the oldest open request links to its page.
 *
 * The history is made through the API and the request workflows: requests of three kinds submitted, one approved,
 * one denied, one waiting on its requester (whose reminders and automatic close then fire), the rest left open
 * (escalated). Days are compressed (CLOCK_DAY_SECONDS) so the clocks fire within the test.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEV_ADMIN } from '../../db/seed-data';
import { RequestActivitySchema } from '../../db/entities';
import { formatBusinessDays, STATUS } from '../../domain';
import { periodLabel } from '../../ui/src/features/reports/report-range';
import { shortKind } from '../../ui/src/features/reports/report-data';
import { certificateDraft, credentialingDraft, loginEmployee, loginRequester } from '../support/api-helpers';
import { decideByApi, sessionOf, submitByApi, type Made } from '../support/e2e-fixtures';
import { eventually } from '../support/eventually';
import { screenshotPath, screenshotsWanted, usePortalBrowser } from '../support/portal-browser';

// A business day lasts 3 s: escalation after 3 (9 s), reminders after 5 and 10, automatic close after 20 (60 s).
const portal = usePortalBrowser('reports', { env: () => ({ CLOCK_DAY_SECONDS: '3' }) });

const CHARTS = [
  { id: 'received', title: 'Requests received' },
  { id: 'completed', title: 'Requests completed' },
  { id: 'turnaround', title: 'Turnaround' },
  { id: 'time-in-status', title: 'Where the time goes' },
  { id: 'backlog', title: 'Open requests by age' },
  { id: 'missed-deadlines', title: 'Deadlines missed' },
  { id: 'top-companies', title: 'Top requesting companies' },
  { id: 'top-departments', title: 'Top requesting departments' },
] as const;

interface History { submitted: Made[]; waiting: Made }
let history: Promise<History> | undefined;

/**
 * The requests every test reads (made once per file, by whichever test comes first): five submitted, one approved,
 * one denied, one waiting on its requester until it closes by itself; then every clock the test waits for has fired.
 */
function madeHistory(): Promise<History> {
  history ??= (async () => {
    const h = portal.h;
    const requester = await loginRequester(h);
    const employee = await loginEmployee(h);
    const admin = await sessionOf(h, DEV_ADMIN);
    // an external requester (a company) and one of the university's own people (a department)
    const drafts = [
      [requester, await credentialingDraft(h, requester, { lastName: 'Reportone' })],
      [requester, await credentialingDraft(h, requester, { lastName: 'Reporttwo' })],
      [requester, await certificateDraft(h, requester, 'Clinician', { lastName: 'Reportthree' })],
      [employee, await certificateDraft(h, employee, 'Provider', { lastName: 'Reportfour' })],
      [employee, await certificateDraft(h, employee, 'Property')],
    ] as const;
    const submitted: Made[] = [];
    for (const [session, id] of drafts) submitted.push(await submitByApi(h, session, id));
    await decideByApi(h, admin, submitted[1].id, STATUS.denied);
    await decideByApi(h, admin, submitted[4].id, STATUS.closed);
    await decideByApi(h, admin, submitted[2].id, STATUS.pendingAdditionalInformation);
    // The clocks: the office's escalation of the ones left in Submitted, the requester's reminders and the close.
    const waiting = submitted[2];
    await eventually(async () => {
      const rows = await h.orm.em.fork().find(RequestActivitySchema, { requestId: { $in: submitted.map((m) => m.id) } });
      const closed = rows.some((r) => r.requestId === waiting.id && r.activityType === 'Status Change' && /closed automatically/i.test(r.activityText ?? ''));
      const escalated = rows.filter((r) => r.activityType === 'Escalation').length >= 2;
      return closed && escalated;
    }, 240_000, 1000);
    return { submitted, waiting };
  })();
  return history;
}

/** A table as text: its header row and its body rows (th and td cells alike). */
async function readTable(page: Page, name: string): Promise<{ headers: string[]; rows: string[][] }> {
  const table = page.getByRole('table', { name, exact: true });
  await table.waitFor();
  return table.evaluate((element) => ({
    headers: [...element.querySelectorAll('thead th')].map((cell) => cell.textContent!.trim()),
    rows: [...element.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent!.trim())),
  }));
}

const cellOf = (table: { headers: string[]; rows: string[][] }, rowLabel: string, column: string) => {
  const row = table.rows.find((r) => r[0] === rowLabel);
  const index = table.headers.indexOf(column);
  return row && index >= 0 ? row[index] : undefined;
};

/** Opens Reports through the Manage menu with the keyboard and picks "Last 30 days" (every made request is in it). */
async function openReports(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Admin Dashboard', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Manage' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('link', { name: 'Reports' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Reports', exact: true, level: 1 }).waitFor();
  expect(page.url()).toMatch(/\/manage\/reports$/);
  await page.getByRole('button', { name: 'Last 30 days' }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe('true');
  await page.getByRole('table', { name: 'Requests received' }).waitFor();
  // Every chart drawn (the chart chunk arrives with the first one)
  for (const chart of CHARTS) await page.locator(`[data-report="${chart.id}"] svg[role="img"]`).first().waitFor();
  // the figures of the range picked (the previous range's stay on screen until they arrive)
  const from = await page.getByLabel('From', { exact: true }).inputValue();
  await expect.poll(() => page.locator('.reports__summary').textContent(), { timeout: 30_000 }).toMatch(new RegExp(`^${from.replace(/\//g, '\\/')} to`));
}

async function photographCharts(page: Page, width: number): Promise<void> {
  if (!screenshotsWanted()) return;
  for (const chart of CHARTS) {
    await page.locator(`[data-report="${chart.id}"]`).screenshot({ path: screenshotPath(`reports-chart-${width}-${chart.id}`) });
  }
}

describe('Reports page', () => {
  it('opens from the Manage menu with the keyboard; every chart has its reading and a table with its numbers (1280 px)', async () => {
    const { submitted } = await madeHistory();
    const page = await portal.openAs(DEV_ADMIN, '/');
    await openReports(page);

    const received = await readTable(page, 'Requests received');
    const totalReceived = received.rows.reduce((sum, row) => sum + Number(row.at(-1)), 0);
    expect(totalReceived).toBeGreaterThanOrEqual(submitted.length);
    for (const kind of ['Claim History and Insurance Verification', 'Clinician', 'Provider', 'Property']) expect(received.headers).toContain(kind);
    const missed = await readTable(page, 'Deadlines missed');
    const missedTotals = ['Reminders', 'Escalations', 'Closed without an answer']
      .map((column) => missed.rows.reduce((sum, row) => sum + Number(row[missed.headers.indexOf(column)]), 0));
    expect(missedTotals[0]).toBeGreaterThanOrEqual(2);
    expect(missedTotals[1]).toBeGreaterThanOrEqual(2);
    expect(missedTotals[2]).toBeGreaterThanOrEqual(1);
    for (const chart of CHARTS) {
      const section = page.locator(`[data-report="${chart.id}"]`);
      expect((await section.locator('.report__reading').textContent())?.trim()).not.toBe('');
      expect(await section.getByRole('table').count()).toBeGreaterThan(0);
      expect(await section.getByRole('img', { name: new RegExp(`^${chart.title}: chart`) }).count()).toBe(1);
    }
    await page.getByText(/\d+ requests? received/).first().waitFor();
    await portal.checkA11y('reports 1280');
    await photographCharts(page, 1280);
    await portal.shot('page-1280');
  });

  it('reads at 768 px: no sideways scrolling, axe-clean, every chart drawn', async () => {
    await madeHistory();
    const page = await portal.openAs(DEV_ADMIN, '/');
    await page.setViewportSize({ width: 768, height: 1024 });
    // The menu is behind the header's toggle at this width.
    const toggle = page.locator('.app-header__menu-toggle');
    if (await toggle.isVisible()) await toggle.click();
    await openReports(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    for (const chart of CHARTS) {
      const box = await page.locator(`[data-report="${chart.id}"] svg[role="img"]`).first().boundingBox();
      expect(box!.width).toBeGreaterThan(300);
      expect(box!.width).toBeLessThanOrEqual(768);
    }
    await portal.checkA11y('reports 768');
    await photographCharts(page, 768);
    await portal.shot('page-768');
  });

  it('downloads an xlsx that exceljs opens, with the filter in each header and the same numbers as the tables', async () => {
    await madeHistory();
    const page = await portal.openAs(DEV_ADMIN, '/');
    await openReports(page);
    const from = await page.getByLabel('From', { exact: true }).inputValue();
    const to = await page.getByLabel('To', { exact: true }).inputValue();
    const tables = Object.fromEntries(await Promise.all(
      ['Requests received', 'Requests completed', 'Turnaround (business days from first submission to the final status)', 'Where the time goes',
        'Open requests by age', 'Oldest open requests', 'Deadlines missed', 'Top requesting companies', 'Top requesting departments']
        .map(async (name) => [name, await readTable(page, name)] as const)));

    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByRole('button', { name: 'Download (xlsx)' }).click()]);
    const file = path.resolve(import.meta.dirname, '../../test-results/reports-download.xlsx');
    await download.saveAs(file);
    expect(download.suggestedFilename()).toMatch(/^reports-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(fs.readFileSync(file) as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).toEqual(['Volumes', 'Turnaround', 'Time in status', 'Backlog', 'Missed deadlines', 'Top requesters', 'Instant certificates']);

    const usDay = (day: unknown) => { const d = String(day); return `${d.slice(5, 7)}/${d.slice(8, 10)}/${d.slice(0, 4)}`; };
    /** The data rows under a sheet's header row (the row whose first cell is `firstHeader`), up to a blank row. */
    const rowsOf = (name: string, firstHeader: string) => {
      const sheet = book.getWorksheet(name)!;
      // the filter: the range asked for, in every sheet's header
      const filter = sheet.getRow(2).values as unknown[];
      expect([usDay(filter[2]), usDay(filter[4])]).toEqual([from, to]);
      expect(sheet.getRow(3).getCell(2).value).toBe('All kinds');
      const all: unknown[][] = [];
      sheet.eachRow({ includeEmpty: true }, (row) => { all.push((row.values as unknown[]).slice(1)); });
      const start = all.findIndex((row) => row[0] === firstHeader) + 1;
      expect(start).toBeGreaterThan(0);
      const end = all.findIndex((row, i) => i >= start && (row.length === 0 || row.every((v) => v === null || v === undefined || v === '')));
      return all.slice(start, end < 0 ? undefined : end);
    };
    const per = 'month' as const;

    // Volumes: each period × kind, received and completed, in the two pivot tables
    const volumes = rowsOf('Volumes', 'Period');
    expect(volumes.length).toBeGreaterThan(0);
    for (const [period, kind, rec, done] of volumes) {
      expect(Number(cellOf(tables['Requests received'], periodLabel(String(period), per), shortKind(String(kind))) ?? 0)).toBe(rec);
      expect(Number(cellOf(tables['Requests completed'], periodLabel(String(period), per), shortKind(String(kind))) ?? 0)).toBe(done);
    }
    const sheetReceived = volumes.reduce((sum, row) => sum + Number(row[2]), 0);
    expect(tables['Requests received'].rows.reduce((sum, row) => sum + Number(row.at(-1)), 0)).toBe(sheetReceived);

    // Turnaround: the same rows (period, kind, completed, median, 90th percentile), one decimal on the page
    const turnaround = rowsOf('Turnaround', 'Period').filter((row) => row[1] !== 'All kinds');
    const pageTurnaround = tables['Turnaround (business days from first submission to the final status)'].rows;
    expect(pageTurnaround.length).toBe(turnaround.length);
    for (const [i, [period, kind, completed, median, p90]] of turnaround.entries()) {
      expect(pageTurnaround[i]).toEqual([
        period === 'Whole range' ? 'Whole range' : periodLabel(String(period), per), shortKind(String(kind)), String(completed),
        formatBusinessDays(Number(median)), formatBusinessDays(Number(p90)),
      ]);
    }

    // Time in status: business days under Office or Requester, and the requests counted
    for (const [status, waitingOn, businessDays, requests] of rowsOf('Time in status', 'Status').filter((row) => row[0] !== 'All statuses')) {
      const column = waitingOn === 'office' ? 'Office' : 'Requester';
      // a stay still running grows while the test reads: one tenth of a business day either way
      expect(Math.abs(Number(cellOf(tables['Where the time goes'], String(status), column)) - Number(businessDays))).toBeLessThanOrEqual(0.11);
      expect(cellOf(tables['Where the time goes'], String(status), 'Requests')).toBe(String(requests));
    }

    // Backlog: band × status counts, then the oldest requests with their ages
    const backlog = rowsOf('Backlog', 'Age band');
    expect(backlog.length).toBeGreaterThan(0);
    for (const [band, status, count] of backlog) expect(cellOf(tables['Open requests by age'], String(band), String(status))).toBe(String(count));
    const oldest = rowsOf('Backlog', 'Request number');
    expect(tables['Oldest open requests'].rows.map((row) => row[0])).toEqual(oldest.map((row) => String(row[0])));
    for (const [i, row] of oldest.entries()) expect(Math.abs(Number(tables['Oldest open requests'].rows[i][4]) - Number(row[4]))).toBeLessThanOrEqual(0.11);

    // Missed deadlines per period
    const missed = rowsOf('Missed deadlines', 'Period');
    expect(missed.length).toBeGreaterThan(0);
    for (const [period, reminders, escalations, closed] of missed) {
      const label = periodLabel(String(period), per);
      expect([cellOf(tables['Deadlines missed'], label, 'Reminders'), cellOf(tables['Deadlines missed'], label, 'Escalations'),
        cellOf(tables['Deadlines missed'], label, 'Closed without an answer')]).toEqual([String(reminders), String(escalations), String(closed)]);
    }

    // Who asks: requests (the Total column) and completed
    const top = rowsOf('Top requesters', 'Group');
    expect(top.length).toBeGreaterThan(0);
    for (const [group, name, requests, completed] of top) {
      const table = tables[group === 'Company' ? 'Top requesting companies' : 'Top requesting departments'];
      expect([cellOf(table, String(name), 'Total'), cellOf(table, String(name), 'Completed')]).toEqual([String(requests), String(completed)]);
    }
  });

  it('shows a request submitted meanwhile without a reload (live events, no polling)', async () => {
    await madeHistory();
    // The page's clock is Playwright's: it flows as usual, and the test moves it on by minutes at once, so "no
    // polling" is proved by the page's own timers having fired, not by waiting and hoping.
    const context = await portal.contextAs(DEV_ADMIN);
    await context.clock.install();
    const page = await context.newPage();
    await page.goto('/');
    const streamOpen = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/events' && r.status() === 200);
    await openReports(page);
    await streamOpen;
    const total = async () => (await readTable(page, 'Requests received')).rows.reduce((sum, row) => sum + Number(row.at(-1)), 0);
    const before = await total();
    // Quiet: no call for the figures while nothing changes, over two minutes of the page's time (the page does not poll).
    let calls = 0;
    page.on('request', (r) => { if (new URL(r.url()).pathname === '/api/v1/reports') calls += 1; });
    await page.clock.fastForward('02:00');
    // A request of the test's own, made after those timers ran: the page's requests are reported in the order it makes them.
    const marker = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/v1/no-such-route');
    await page.evaluate(() => { void fetch('/api/v1/no-such-route'); });
    await marker;
    expect(calls).toBe(0);

    const requester = await loginRequester(portal.h);
    await submitByApi(portal.h, requester, await credentialingDraft(portal.h, requester, { lastName: 'Reportlive' }));
    await expect.poll(total, { timeout: 60_000 }).toBe(before + 1);
    expect(calls).toBeGreaterThan(0);
    await portal.checkA11y('reports after a live update', page);
  });

  it('links the oldest open request to its page', async () => {
    await madeHistory();
    const page = await portal.openAs(DEV_ADMIN, '/');
    await openReports(page);
    const oldest = await readTable(page, 'Oldest open requests');
    const first = oldest.rows[0][0];
    await page.getByRole('table', { name: 'Oldest open requests' }).getByRole('link', { name: first, exact: true }).click();
    await page.waitForURL(/\/requests\/(credentialing|certificate)\/\d+$/);
    await page.getByText(new RegExp(first)).first().waitFor();
  });
});

