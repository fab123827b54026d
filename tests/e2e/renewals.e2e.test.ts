/**
 * Renewal season in Chromium, as the office and a requester see it. The worker is a process of its own
 * (tests/support/worker-process.ts, the production build) that the test kills with SIGKILL: the portal's API runs here
 * without a worker (`usePortalBrowser(…, { worker: false })`), as the other crash tests run theirs
 * (tests/workflows/instant-issue-crash.test.ts). A slow pace (RENEWAL_PER_SECOND 2, RENEWAL_MAX_WAITING 2) gives a
 * run a middle.
 *
 * - Renew now: Manage > Renewals lists the certificates ending with the policy year, grouped by holder, each with
 *   its verdict and reason; a mark ("never renew") takes one out. The run started from the keyboard is killed with
 *   its worker once its first certificate is renewed (the mail server deferring every email meanwhile, so no email
 *   is half sent at the kill), started again, and the page, never reloaded, shows its bar move (0 %, one certificate
 *   done while the mail server holds its answer to the others, 100 %) and Finished. Each renewed certificate's
 *   emailed PDF is signed (pdfsig) and its QR code opens a verification page that says Valid; each old code's page
 *   says Superseded; each recipient got one email per request, and each request one renewal. The result downloads
 *   as a workbook with one row per certificate.
 * - Ask first: three requesters are asked; one presses "Yes, renew it" on the link's page, one answers no from the
 *   keyboard, one stays silent; "Stop waiting for answers" ends it with 1 renewed and 2 not, each listed with why.
 *
 * Axe checks every page; screenshots (SCREENSHOTS=1) at 1280 and 768 px: test-results/screenshots/renewals-*.
 */
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { DEV_ADMIN, DEV_INTERNAL_REQUESTER } from '../../db/seed-data';
import { kysely } from '../../db/kysely';
import { officeToday, STATUS } from '../../domain';
import { refuseInvalidDomains, type Received } from '../../devtools/smtp-sink';
import { call, certificateDraft, loginAdmin, loginEmployee, type Session } from '../support/api-helpers';
import { pdfsig } from '../support/pdfsig';
import type { Harness } from '../support/portal-harness';
import { qrOf } from '../support/pdf-qr';
import { usePortalBrowser } from '../support/portal-browser';
import { workerProcess } from '../support/worker-process';

/** The pace that gives a run a middle: two renewals a second, at most two letters queued. */
const RENEWAL_PACE = { RENEWAL_PER_SECOND: '2', RENEWAL_MAX_WAITING: '2' };
const portal = usePortalBrowser('renewals', { worker: false, env: () => RENEWAL_PACE });
const worker = workerProcess(() => portal.h, () => {
  const signing = inject('letterSigning'); // the letters signed as the in-process portals sign them
  return { ...RENEWAL_PACE, LETTER_SIGNING_P12: signing.p12, LETTER_SIGNING_P12_PASSWORD: signing.password };
});

let h: Harness;
let admin: Session;
let employee: Session;
const HOLDER_EMAIL = 'fleet-certificates@holder.example';
const EMPLOYEE_EMAIL = DEV_INTERNAL_REQUESTER.email.toLowerCase();

beforeAll(async () => {
  h = portal.h;
  await worker.start();
  admin = await loginAdmin(h);
  employee = await loginEmployee(h);
}, 180_000);
// A test that failed between the kill and the start again leaves the next one a worker all the same.
beforeEach(async () => { if (!worker.running()) await worker.start(); }, 180_000);
// Registered after the portal's hooks, so it runs before the portal stops.
afterAll(async () => { if (worker.running()) await worker.kill(); });

const db = () => kysely(h.orm.em.fork());

interface Made { id: number; number: number }

/** An approved Fleet certificate (its approval email with the letter received): current, ending with this policy year. */
async function approvedFleet(holder: string, vin: string): Promise<Made> {
  const id = await certificateDraft(h, employee, 'Fleet', { certificateHolder: holder, certificateHolderEmail: HOLDER_EMAIL, vehicleIdNumber: vin });
  const submitted = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  const number = submitted.body.requestNumber as number;
  const approved = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.approved, verified: true });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  await h.sink.waitFor((m) => m.subject === `Request ${number} approved: certificate of insurance`, 120_000);
  return { id, number };
}

const RENEWED_SUBJECT = /^Request (\d+): certificate renewed$/;
const renewedMails = (number: number) => h.sink.messages().filter((m) => m.subject === `Request ${number}: certificate renewed`);

/** Full-page screenshots at 1280 and 768 px (SCREENSHOTS=1); at 768 px nothing may be wider than the window. */
async function shot(page: Page, name: string) {
  await portal.shot(name, page);
  await page.setViewportSize({ width: 768, height: 900 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at 768 px scrolls sideways`).toBeLessThanOrEqual(768);
  await portal.shot(`${name}-768`, page);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A browser context of nobody signed in (a certificate holder, a requester following an email's link), watched by axe. */
async function signedOutPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await portal.browser.newContext({ baseURL: h.baseUrl!, viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  portal.a11y.watch(page);
  return { context, page };
}

/** The verification page of `url` (a QR code's, or /verify/<code>) says this status. */
async function verifyStatus(page: Page, url: string): Promise<string> {
  await page.goto(url);
  const heading = page.getByRole('heading', { level: 2, name: /^Status: / });
  await heading.waitFor({ timeout: 30_000 });
  return heading.innerText();
}

/** The Renewals page narrowed by the search box to `search`, its rows loaded. */
async function renewalsFor(page: Page, search: string, rows: number) {
  await page.getByRole('heading', { level: 1, name: 'Renewals' }).waitFor();
  // The list asks again once the typing pauses; until its answer the rows of the previous choice stay.
  await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/renewals/candidates' && new URL(r.url()).searchParams.get('q') === search),
    page.getByLabel('Search').fill(search),
  ]);
  const table = page.getByRole('table', { name: /^Certificates to renew for \d{4}–\d{4}$/ });
  await expect.poll(() => table.locator('tbody tr:not(.renewal-table__group)').count()).toBe(rows);
  await expect.poll(() => page.locator('#renewal-start-count').innerText()).toMatch(/selected$/);
  return table;
}

/** The run card of the run the page's "Start renewal run" started (its POST's answer), once shown. */
async function startRun(page: Page, press: () => Promise<void>): Promise<{ runId: number; card: Locator }> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/renewal-runs'),
    press(),
  ]);
  expect(response.status(), await response.text()).toBe(201);
  const runId = (await response.json()).id as number;
  const card = page.locator(`article[aria-labelledby="renewal-run-${runId}"]`);
  await card.waitFor();
  return { runId, card };
}

const progressOf = (card: Locator) => ({
  bar: card.getByRole('progressbar'),
  value: () => card.getByRole('progressbar').getAttribute('aria-valuenow'),
  text: () => card.locator('.renewal-progress__text').innerText(),
  state: () => card.locator('.renewal-run__state').innerText(),
});

const itemCounts = async (runId: number) => {
  const rows = await db().selectFrom('renewal_items').select(['state']).where('run_id', '=', runId).execute();
  return rows.reduce<Record<string, number>>((counts, r) => ({ ...counts, [r.state]: (counts[r.state] ?? 0) + 1 }), {});
};

describe('renewal season, as the office runs it', () => {
  it('renew now: grouped candidates with reasons; a run killed with its worker mid-way finishes in the page; signed letters, Valid and Superseded codes, one email each, a workbook', async () => {
    // Nine Fleet certificates for two holders, current and ending with this policy year.
    const vin = (i: number) => `1FTBR1C80MKA3${String(i).padStart(4, '0')}`;
    const made = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => approvedFleet('Kestrel Transit Authority', vin(i))),
      ...Array.from({ length: 4 }, (_, i) => approvedFleet('Kestrel County Motor Pool', vin(10 + i))),
    ]);
    const never = made[made.length - 1];
    const renewing = made.filter((m) => m !== never);
    // The codes the holders have now, as the page lists them.
    const listed = await call(h, admin, 'GET', '/api/v1/renewals/candidates?q=Kestrel');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const oldCode = new Map<number, string>(listed.body.data.map((c: { requestNumber: number; verificationCode: string }) => [c.requestNumber, c.verificationCode]));
    const yearLabel = listed.body.policyYear.label as string;
    expect(oldCode.size).toBe(9);

    // Manage > Renewals, from the menu.
    const page = await portal.openAs(DEV_ADMIN, '/');
    await page.getByRole('button', { name: 'Manage' }).click();
    await page.getByRole('link', { name: 'Renewals' }).click();
    const table = await renewalsFor(page, 'Kestrel', 9);
    // Grouped by holder (a header row each, alphabetical), each row with its verdict and the rule's reason.
    expect(await table.locator('.renewal-table__group th').allInnerTexts()).toEqual([
      'Kestrel County Motor Pool · 4 certificates', 'Kestrel Transit Authority · 5 certificates',
    ]);
    const rowOf = (m: Made) => table.locator('tbody tr', { has: page.getByRole('link', { name: String(m.number), exact: true }) });
    for (const m of made) {
      const text = await rowOf(m).innerText();
      expect(text).toContain('Will renew');
      expect(text).toContain('Fleet vehicle still in service');
      expect(text).toContain(oldCode.get(m.number)!);
    }
    expect(await page.locator('.renewal-summary').innerText()).toMatch(/Will renew\s+9\s+Not renewing\s+0/);
    const count = page.locator('#renewal-start-count');
    expect(await count.innerText()).toBe('9 certificates selected');

    // The office marks one "never renew": it leaves the run, with its reason.
    await page.getByLabel(`Renewal mark of request ${never.number}`).selectOption('never');
    await expect.poll(() => rowOf(never).innerText()).toMatch(/Not renewing\s+Marked "never renew"/);
    await expect.poll(() => page.locator('.renewal-summary').innerText()).toMatch(/Will renew\s+8\s+Not renewing\s+1/);
    expect(await count.innerText()).toBe('8 certificates selected');
    expect(await page.getByRole('radio', { name: 'Renew now' }).isChecked()).toBe(true);
    await shot(page, 'candidates');

    // The page is never reloaded from here on: what it shows, it shows by itself.
    await page.evaluate(() => { (window as unknown as { sameDocument: boolean }).sameDocument = true; });

    // Until the worker is started again, the mail server defers every email (450 at RCPT TO: the message is never
    // taken, the portal retries it later). So the run renews at most 2 (its letters-queue limit) before the kill, and
    // the kill cannot land between a message taken and its "sent" mark, the one window where an email may go twice
    // (activities/effects/send-email.ts): a second email after the kill could only come from a second renewal.
    h.sink.setRecipientRule(() => '450 4.3.2 The mail server is busy, try again later');
    // Once it runs again, the server holds its answer to every "certificate renewed" email but the first request's
    // until the test has seen the run with that one done: a middle that stays put while it is looked at.
    const ours = new Set(renewing.map((m) => m.number));
    let throughFirst: number | null = null;
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let unsubscribe = () => {};
    let runId!: number;
    let card!: Locator;
    try {
      // Started from the keyboard; the keyboard's place moves to the new run.
      const start = page.getByRole('button', { name: 'Start renewal run' });
      await start.focus();
      ({ runId, card } = await startRun(page, () => page.keyboard.press('Enter')));
      const progress = progressOf(card);
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`renewal-run-${runId}`);
      expect(await card.getByRole('heading', { level: 3 }).innerText()).toMatch(new RegExp(`^Renewal for ${yearLabel} Running`));

      // SIGKILL as soon as the first certificate is renewed (the batch's other one may be on its way).
      const deadline = Date.now() + 120_000;
      while (!(await itemCounts(runId)).renewed) {
        if (Date.now() > deadline) throw new Error('no certificate of the run was renewed within 120 s');
        await new Promise((r) => setTimeout(r, 10));
      }
      await worker.kill();
      const atKill = await itemCounts(runId);
      expect(atKill.renewed).toBeLessThanOrEqual(2);
      expect(atKill.pending, 'the kill came mid-run').toBe(8 - atKill.renewed);
      expect(renewing.flatMap((m) => renewedMails(m.number))).toEqual([]);

      // With the worker dead the page stands where the run stopped: nothing done yet, the renewed ones waiting.
      await expect.poll(() => progress.text()).toBe(`0% of 8 · 0 done · ${atKill.renewed} waiting · 0 failed · ${atKill.pending} remaining · 0 not renewed`);
      expect(await progress.value()).toBe('0');
      expect(await progress.state()).toBe('Running');
      await portal.checkA11y('a run under way', page);
      await shot(page, 'run-worker-killed');

      await worker.start();
      unsubscribe = h.sink.subscribe((m: Received) => {
        const number = Number(RENEWED_SUBJECT.exec(m.subject)?.[1]);
        if (!ours.has(number)) return undefined;
        throughFirst ??= number;
        return number === throughFirst ? undefined : held;
      });
      h.sink.setRecipientRule(refuseInvalidDomains);
      // The bar moves by itself: one request's letter and email went out, the others' answers are held.
      await expect.poll(() => progress.value(), { timeout: 180_000 }).toBe('12');
      expect(await progress.bar.getAttribute('aria-valuetext')).toBe('12% of 8');
      const [, waiting, remaining] = /^12% of 8 · 1 done · (\d) waiting · 0 failed · (\d) remaining · 0 not renewed$/.exec(await progress.text()) ?? [];
      expect(Number(waiting) + Number(remaining), await progress.text()).toBe(7);
      expect(await progress.state()).toBe('Running');
      // Quickly: a held email's sender gives up after 30 s (and would send it again).
      await portal.shot('run-mid', page);
    } finally {
      h.sink.setRecipientRule(refuseInvalidDomains);
      release();
      unsubscribe();
    }
    const progress = progressOf(card);

    // It finishes in the page: 100 %, Finished, every certificate done.
    await expect.poll(() => progress.state(), { timeout: 180_000 }).toBe('Finished');
    expect(await progress.value()).toBe('100');
    expect(await progress.text()).toBe('100% of 8 · 8 done · 0 waiting · 0 failed · 0 remaining · 0 not renewed');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // The list of certificates follows without a reload: the renewed ones are listed as already renewed for the year
    // (with their new codes), the one marked "never renew" as not renewing, and nothing is selected for another run.
    await expect.poll(async () => page.locator('.renewal-summary').innerText()).toMatch(/Will renew\s+0\s+Not renewing\s+1\s+Does not fit\s+0\s+Already renewed\s+8/);
    expect(await rowOf(never).innerText()).toContain('Not renewing');
    expect(await count.innerText()).toBe('0 certificates selected');
    await shot(page, 'run-finished');

    // Each request: one email to each recipient and one renewal in its audit trail (nothing twice after the kill), a
    // signed PDF whose QR code opens a page that says Valid; the old code's page says Superseded.
    const letters = await Promise.all(renewing.map(async (m) => {
      const mails = renewedMails(m.number);
      const perRecipient = mails.flatMap((mail) => mail.envelope.to).reduce<Record<string, number>>((n, to) => ({ ...n, [to]: (n[to] ?? 0) + 1 }), {});
      expect(perRecipient, `emails of request ${m.number}`).toEqual({ [EMPLOYEE_EMAIL]: 1, [HOLDER_EMAIL]: 1 });
      expect(mails[0].text).toContain(`renewed for the policy year ${yearLabel}`);
      const audit = await db().selectFrom('request_activity').select('activity_text').where('request_id', '=', m.id)
        .where('activity_text', 'in', [`Renewed for ${yearLabel}`, '"Certificate Renewed" email sent']).execute();
      expect(audit.map((a) => a.activity_text).sort(), `audit of request ${m.number}`).toEqual(['"Certificate Renewed" email sent', `Renewed for ${yearLabel}`]);
      const pdf = mails[0].attachments[0].content;
      expect((await pdfsig(pdf)).valid, `signature of request ${m.number}'s letter`).toBe(true);
      return { m, url: await qrOf(pdf) };
    }));
    const { context, page: holder } = await signedOutPage();
    const newCode = new Map<number, string>();
    try {
      for (const { m, url } of letters) {
        expect(url).toMatch(new RegExp(`^${h.baseUrl}/verify/[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{5}$`));
        const code = url.split('/').pop()!;
        expect(code).not.toBe(oldCode.get(m.number));
        newCode.set(m.number, code);
        expect(await verifyStatus(holder, url)).toBe('Status: Valid');
        expect(await verifyStatus(holder, `/verify/${oldCode.get(m.number)}`)).toBe('Status: Superseded');
      }
      await shot(holder, 'old-code-superseded');
    } finally {
      await context.close();
    }
    // The one marked "never renew" was left alone.
    expect(renewedMails(never.number)).toEqual([]);

    // The result, downloaded from the page: one row per certificate of the run, with its old and new code.
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download result (xlsx)' }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^renewal-run-${runId}-.*\\.xlsx$`));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await readFile((await download.path())!) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(['Request', 'Certificate holder', 'Requester', 'Why renewed', 'Result', 'Letter and email', 'Answer', 'Note', 'Old code', 'New code']);
    const rows = Array.from({ length: sheet.rowCount - 1 }, (_, i) => (sheet.getRow(i + 2).values as unknown[]).slice(1));
    expect(rows.map((r) => r[0]).sort()).toEqual(renewing.map((m) => m.number).sort());
    for (const row of rows) {
      const number = row[0] as number;
      expect(row[4]).toBe('Renewed');
      expect(row[5]).toBe('Sent');
      expect(row[8]).toBe(oldCode.get(number));
      expect(row[9]).toBe(newCode.get(number));
    }
  }, 600_000);

  it('ask first: a yes by the link\'s page is renewed, a no from the keyboard and a silence are not; "Stop waiting for answers" ends it', async () => {
    const [yes, no, silent] = await Promise.all(['A', 'B', 'C'].map((s, i) => approvedFleet(`Osprey Home Health ${s}`, `1FTBR1C80MKA4000${i}`)));
    const page = await portal.openAs(DEV_ADMIN, '/manage/renewals');
    await renewalsFor(page, 'Osprey', 3);
    await page.getByRole('radio', { name: 'Ask the requesters first' }).check();
    const day = officeToday(h.config.clockPolicy.calendar.timeZone);
    const answerBy = new Date(Date.parse(`${day}T12:00:00Z`) + 2 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Answer by').fill(answerBy);
    const { runId, card } = await startRun(page, () => page.getByRole('button', { name: 'Start renewal run' }).click());
    const progress = progressOf(card);
    await expect.poll(() => progress.state()).toBe('Waiting for answers');

    const linkOf = async (m: Made, answer: 'yes' | 'no') => {
      const mail = await h.sink.waitFor((x) => x.subject === `Request ${m.number}: do you still need this certificate?`, 120_000);
      expect(mail.envelope.to).toEqual([EMPLOYEE_EMAIL]); // the requester decides, not the holder
      return new RegExp(`${h.baseUrl}/renewal-answer/[A-Za-z0-9_-]+\\?answer=${answer}`).exec(mail.text)![0];
    };
    const [yesLink, noLink] = [await linkOf(yes, 'yes'), await linkOf(no, 'no')];
    await linkOf(silent, 'yes');
    await expect.poll(() => progress.text()).toMatch(/· 3 awaiting an answer$/);

    const { context, page: requester } = await signedOutPage();
    try {
      // Yes: the link's page asks, with the link's answer as the focused button, and records it once pressed.
      await requester.goto(yesLink);
      await requester.getByRole('heading', { level: 1, name: 'Do you still need this certificate?' }).waitFor();
      const facts = requester.locator('.details');
      await expect.poll(() => facts.innerText()).toContain(String(yes.number));
      expect(await facts.innerText()).toContain('Osprey Home Health A');
      const yesButton = requester.getByRole('button', { name: 'Yes, renew it' });
      await expect.poll(() => yesButton.evaluate((b) => b === document.activeElement)).toBe(true);
      await shot(requester, 'answer-page');
      await yesButton.click();
      await requester.getByText('Thank you — your answer (Yes) is recorded.').waitFor();
      await shot(requester, 'answer-page-answered');

      // No: from the keyboard, on the button the email's "no" link focused.
      await requester.goto(noLink);
      const noButton = requester.getByRole('button', { name: 'No, I no longer need it' });
      await expect.poll(() => noButton.evaluate((b) => b === document.activeElement)).toBe(true);
      expect(await requester.locator('.details').innerText()).toContain(String(no.number));
      await requester.keyboard.press('Enter');
      await requester.getByText('Thank you — your answer (No) is recorded.').waitFor();
    } finally {
      await context.close();
    }

    // The office sees the answers arrive, then stops waiting for the silent one.
    await expect.poll(() => progress.text()).toMatch(/· 1 awaiting an answer$/);
    await card.getByRole('button', { name: 'Stop waiting for answers' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.innerText()).toContain('Certificates nobody answered for are not renewed; those answered "yes" are renewed now.');
    await portal.checkA11y('stop waiting dialog', page);
    await dialog.getByRole('button', { name: 'Stop waiting' }).click();
    await expect.poll(() => progress.state(), { timeout: 180_000 }).toBe('Finished');
    expect(await progress.value()).toBe('100');
    expect(await progress.text()).toBe('100% of 3 · 1 done · 0 waiting · 0 failed · 0 remaining · 2 not renewed · 0 awaiting an answer');

    // Its certificates, each with what became of it.
    await card.getByRole('button', { name: 'Show certificates' }).click();
    const items = card.getByRole('table', { name: /^Certificates of this run/ });
    await expect.poll(() => items.locator('tbody tr').count()).toBe(3);
    const itemRow = (m: Made) => items.locator('tbody tr', { has: page.getByRole('link', { name: String(m.number), exact: true }) }).innerText();
    expect(await itemRow(yes)).toMatch(/\tRenewed\tSent\tYes\t/);
    expect(await itemRow(no)).toMatch(/\tNot needed \(requester said no\)\t—\tNo\tThe requester no longer needs it\t/);
    expect(await itemRow(silent)).toMatch(/\tNo answer by the date\t—\t—\tNo answer by the date\t/);
    await portal.checkA11y('a finished run\'s certificates', page);
    await shot(page, 'ask-finished');

    expect(renewedMails(yes.number).flatMap((m) => m.envelope.to).sort()).toEqual([EMPLOYEE_EMAIL, HOLDER_EMAIL].sort());
    expect([...renewedMails(no.number), ...renewedMails(silent.number)]).toEqual([]);
    const states = await db().selectFrom('renewal_items').select(['request_id', 'state']).where('run_id', '=', runId).execute();
    expect(Object.fromEntries(states.map((s) => [s.request_id, s.state]))).toEqual({ [yes.id]: 'renewed', [no.id]: 'declined', [silent.id]: 'unanswered' });
  }, 600_000);
});
