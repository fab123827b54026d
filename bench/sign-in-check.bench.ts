/**
 * `npm run bench:sign-in-check [-- --runs 3 --levels 6]`: how long a real browser takes to solve the sign-in check at each level
 * (domain/abuse-limits.ts SIGN_IN_CHECK), and how fast a script on this machine's CPU does the same work.
 *
 *   1. a throwaway database (`coi_bench_sign_in_check` on DATABASE_URL's server, or SIGN_IN_CHECK_BENCH_DATABASE_URL)
 *      with the development accounts, the
 *      portal's API in this process serving the built UI (`npm run build:ui` first);
 *   2. for each level 1 … SIGN_IN_CHECK.maxLevel (or --levels), --runs times, in Chromium (the e2e build, devtools/ui-browser.ts)
 *      with a new context (no known-device cookie): the address's failure window set full and the failures past it
 *      set for that level, the development requester's email and password typed on the login page, Log In; the
 *      page asks for the check; the time from the click on the check to the widget's `verified` state (the widget's
 *      own 500 ms minimum included), then Log In again must reach the dashboard (the server accepted the solution at
 *      that level);
 *   3. the same work in this process with altcha-lib's solver on one thread (what a sprayer's script does natively).
 *
 * Prints a table with the machine's calibration. Exits 2 on a bad flag or without ui/dist; stops what it started
 * however it ends (bench/lifecycle.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { chromium } from 'playwright-core';
import { newSignInChallenge } from '../api/sessions/captcha';
import { calibration, runBench, stopLater } from './lifecycle';
import { dropDatabase } from '../db/database';
import { prepareDatabase } from '../db/prepare-database';
import { DEV_REQUESTER } from '../db/seed-data';
import { SIGN_IN_CHECK, SIGN_IN_LIMITS, signInCheckTries } from '../domain/abuse-limits';
import { startPortalInProcess } from '../devtools/portal-in-process';
import { UI_BROWSER_PATH } from '../devtools/ui-browser';

const root = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => console.log(`[bench:sign-in-check] ${line}`);

const flag = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const RUNS = Number(flag('runs') ?? 3);
const LEVELS = Number(flag('levels') ?? SIGN_IN_CHECK.maxLevel);
if (!Number.isInteger(RUNS) || RUNS < 1 || !Number.isInteger(LEVELS) || LEVELS < 1 || LEVELS > SIGN_IN_CHECK.maxLevel) {
  console.error(`usage: npm run bench:sign-in-check [-- --runs N --levels 1..${SIGN_IN_CHECK.maxLevel}]`);
  process.exit(2);
}
if (!fs.existsSync(path.join(root, 'ui', 'dist', 'index.html'))) {
  console.error('[bench:sign-in-check] no ui/dist: run  npm run build:ui  first');
  process.exit(2);
}

const databaseUrl = process.env.SIGN_IN_CHECK_BENCH_DATABASE_URL ?? Object.assign(new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'),
  { pathname: '/coi_bench_sign_in_check' }).toString();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const machine = calibration();
  await dropDatabase(databaseUrl).catch(() => undefined);
  await prepareDatabase(databaseUrl, () => {}, { devAccounts: true });
  stopLater('drop the database', () => dropDatabase(databaseUrl));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coi-bench-sign-in-check-'));
  stopLater('remove the data folder', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const portal = await startPortalInProcess({
    env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:1' },
    worker: false, smtpSink: false, listen: true, poolMax: 5,
  });
  stopLater('stop the API', () => portal.stop());
  const sql = (text: string, params: unknown[]) => portal.orm.em.fork().getConnection().execute(text, params, 'run');
  const setCounter = (key: string, hits: number, minutes: number) => sql(
    `insert into rate_limit_counters (key, hits, window_ends) values (?, ?, now() + ? * interval '1 minute')
     on conflict (key) do update set hits = excluded.hits, window_ends = excluded.window_ends`, [key, hits, minutes]);
  const browser = await chromium.launch({ executablePath: UI_BROWSER_PATH, args: ['--disable-gpu'] });
  stopLater('close Chromium', () => browser.close());
  const rows: { level: number; tries: number; browserMs: number[]; nodeMs: number; nodeCounter: number }[] = [];
  for (let level = 1; level <= LEVELS; level += 1) {
    const browserMs: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      // The office's address as a spray left it: the window full, and the failures past it for this level.
      await sql('delete from rate_limit_counters', []);
      await setCounter('signin|address|127.0.0.1', SIGN_IN_LIMITS.address.max, 15);
      await setCounter('signin|address-over|127.0.0.1', (level - 1) * SIGN_IN_CHECK.addressFailuresPerLevel, 60);
      const context = await browser.newContext({ baseURL: portal.baseUrl! });
      context.setDefaultTimeout(300_000);
      const page = await context.newPage();
      await page.goto('/login');
      await page.locator('input[name="email"]').fill(DEV_REQUESTER.email);
      await page.locator('input[name="password"]').fill(DEV_REQUESTER.password);
      await page.getByRole('button', { name: 'Log In' }).click();
      const checkbox = page.locator('altcha-widget input[type="checkbox"]');
      await checkbox.waitFor();
      await page.evaluate(() => {
        const widget = document.querySelector('altcha-widget')!;
        const w = window as unknown as { solvedIn: Promise<number> };
        w.solvedIn = new Promise((resolve) => {
          let started = 0;
          widget.addEventListener('statechange', (event) => {
            const state = (event as CustomEvent<{ state?: string }>).detail?.state;
            if (state === 'verifying' && !started) started = performance.now();
            if (state === 'verified') resolve(performance.now() - started);
          });
        });
      });
      // As a person does by keyboard (the widget's check mark covers the box for a pointer).
      await checkbox.focus();
      await page.keyboard.press('Space');
      const ms = await page.evaluate(() => (window as unknown as { solvedIn: Promise<number> }).solvedIn);
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
      browserMs.push(ms);
      await context.close();
      log(`level ${level} run ${run + 1}: solved in the browser in ${(ms / 1000).toFixed(2)} s, signed in`);
    }
    const challenge = await newSignInChallenge(portal.config.jwtSecret, level);
    const started = performance.now();
    const solution = await solveChallenge({ challenge, deriveKey, timeout: 0 });
    rows.push({ level, tries: signInCheckTries(level), browserMs, nodeMs: performance.now() - started, nodeCounter: solution!.counter });
  }

  console.log(`\nsign-in check: PBKDF2/SHA-256, ${SIGN_IN_CHECK.iterationsPerTry} iterations a try; the solution is a counter drawn between half the tries and the tries`);
  console.log(`Chromium (${path.basename(UI_BROWSER_PATH)}), ${os.cpus().length} cores; ${RUNS} run(s) a level; Node ${process.version} one thread for comparison`);
  if (machine) console.log(machine);
  console.log('level | failures past the full address window | tries (at most) | browser median s | browser max s | node one thread: s (tries)');
  for (const row of rows) {
    const from = (row.level - 1) * SIGN_IN_CHECK.addressFailuresPerLevel;
    const failures = row.level === SIGN_IN_CHECK.maxLevel ? `${from}+` : `${from}-${from + SIGN_IN_CHECK.addressFailuresPerLevel - 1}`;
    console.log(`${row.level} | ${failures} | ${row.tries} | ${(median(row.browserMs) / 1000).toFixed(2)} | ${(Math.max(...row.browserMs) / 1000).toFixed(2)} | ${(row.nodeMs / 1000).toFixed(2)} (${row.nodeCounter})`);
  }
}

runBench('bench:sign-in-check', main);
