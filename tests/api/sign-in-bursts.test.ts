/**
 * Sign-in under bursts, against the real PostgreSQL and real argon2: a window's places are taken before any password
 * is checked, so a burst reaches argon2 at most as often as the window has places (counted by the API's own metric
 * of password verifications); an office's shared address that one machine sprays stays usable for every other
 * browser through a proof-of-work check instead of a refusal, whose work rises with the failures past the window and
 * on the account; a full hashing queue answers 503 with Retry-After.
 */
import argon2 from 'argon2';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QUOTA_MESSAGES, SIGN_IN_CHECK, SIGN_IN_LIMITS, SIGN_IN_MESSAGES, signInCheckTries } from '../../domain/abuse-limits';
import { MESSAGES } from '../../domain';
import { passwordHashing } from '../../services/accounts/password-hash';
import { createExternalUser } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { DEFAULT_QUOTAS_ENV, resetRateLimits, startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
beforeAll(async () => { h = await startHarness({ worker: false, env: DEFAULT_QUOTAS_ENV }); });
afterAll(async () => { await h?.stop(); });
beforeEach(async () => { await resetRateLimits(h.orm.em); });

const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  h.orm.em.fork().getConnection().execute(text, params, 'all') as Promise<T[]>;

/** A value of the API's metrics, as an operator's scraper reads it. */
async function metric(name: string): Promise<number> {
  const found = h.app.metrics.getSingleMetric(name);
  if (!found) throw new Error(`no metric ${name}`);
  return (await found.get()).values.reduce((sum, v) => sum + v.value, 0);
}

let counter = 0;
async function freshAccount(prefix: string): Promise<{ email: string; password: string }> {
  counter += 1;
  const email = `${prefix}-${Date.now()}-${counter}@clinic.example`;
  await createExternalUser(h, email, 'Bursts-Pass1');
  return { email, password: 'Bursts-Pass1' };
}

async function signIn(email: string, password: string, options: { ip: string; cookie?: string; altcha?: string }) {
  const res = await h.app.inject({
    method: 'POST', url: '/api/v1/authentication', remoteAddress: options.ip,
    headers: options.cookie ? { cookie: options.cookie } : {},
    payload: { strategy: 'local', email, password, ...(options.altcha ? { altcha: options.altcha } : {}) },
  });
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('coi_device='));
  return { status: res.statusCode, body: res.json(), headers: res.headers, cookie: setCookie?.split(';')[0] };
}

/** A sign-in's check as the login page's widget fetches it, for `email` from `ip`. */
async function checkChallenge(ip: string, email: string): Promise<Challenge> {
  const res = await h.app.inject({ method: 'GET', url: `/api/v1/captcha-challenge?email=${encodeURIComponent(email)}`, remoteAddress: ip });
  expect(res.statusCode).toBe(200);
  return res.json() as Challenge;
}
const levelOf = (challenge: Challenge) => (challenge.parameters.data as { level?: number } | undefined)?.level;

/** What the login page's widget does: fetch the check for the email, solve it, send the payload. */
async function solvedCheck(ip: string, email: string): Promise<string> {
  const challenge = await checkChallenge(ip, email);
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const hitsOf = async (key: string) => Number((await sql<{ hits: number }>('select hits from rate_limit_counters where key = ?', [key]))[0]?.hits ?? 0);

describe('a burst of wrong sign-ins from one address', () => {
  it('reaches argon2 at most as often as the address window has places: 300 at once, 50 places', async () => {
    const ip = '10.70.0.1';
    const before = await metric('coi_api_password_verifications_total');
    // Distinct emails: the route's own per-email call limit stays out of the way; only the sign-in windows act.
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => signIn(`spray-${i}@nowhere.example`, 'Summer2026!', { ip })));
    const verified = await metric('coi_api_password_verifications_total') - before;

    const wrongPassword = answers.filter((a) => a.status === 401 && a.body.message === MESSAGES.loginFailed);
    const checkAsked = answers.filter((a) => a.status === 401 && a.body.data?.reason === 'checkRequired');
    const hashingBusy = answers.filter((a) => a.status === 503 && a.body.message === SIGN_IN_MESSAGES.hashingBusy);
    // On a crowded machine some calls may wait longer for a database connection than the pool allows: also a 503
    // in the error shape (api/plugins/error-handler.ts), and no password checked either.
    const databaseBusy = answers.filter((a) => a.status === 503 && a.body.message !== SIGN_IN_MESSAGES.hashingBusy);
    expect(wrongPassword.length + checkAsked.length + hashingBusy.length + databaseBusy.length).toBe(300); // no 500, no 429
    expect(verified).toBeLessThanOrEqual(SIGN_IN_LIMITS.address.max);
    expect(verified).toBeGreaterThanOrEqual(wrongPassword.length); // each "wrong password" answer was a real check
    expect(wrongPassword.length).toBeGreaterThan(0);
    expect(checkAsked.length).toBeGreaterThan(0);
    console.log(`[sign-in burst] 300 wrong sign-ins at once from one address: ${verified} password checks (window ${SIGN_IN_LIMITS.address.max}), `
      + `${checkAsked.length} asked for the check, ${hashingBusy.length} answered 503 (hashing queue full), ${databaseBusy.length} 503 (database pool)`);
    // The window holds the failures (calls turned away before their check gave their place back) and never more than its places.
    const held = await hitsOf(`signin|address|${ip}`);
    expect(held).toBeGreaterThanOrEqual(wrongPassword.length);
    expect(held).toBeLessThanOrEqual(SIGN_IN_LIMITS.address.max);
    // One line in the security log for the address's full window, not one per sprayed email.
    const [{ n }] = await sql<{ n: string }>(`select count(*) as n from security_events where kind = 'signInThrottled' and ip = ?`, [ip]);
    expect(Number(n)).toBe(1);
    for (const a of hashingBusy) expect(a.headers['retry-after']).toMatch(/^\d+$/);
    for (const a of databaseBusy) expect(a.body).toMatchObject({ name: 'Unavailable', code: 503 });
  });
});

describe("an office's shared address while one of its machines sprays passwords", () => {
  it('asks a new browser with the right password to solve the check instead of refusing it, and signs it in once solved', async () => {
    const office = '10.71.0.1';
    const nurse = await freshAccount('nurse');
    const colleague = await freshAccount('colleague');
    // The colleague's browser signed in here yesterday: it is known to that account.
    const known = await signIn(colleague.email, colleague.password, { ip: office });
    expect(known.status).toBe(200);

    // One machine of the office sprays until the address window is full.
    for (let i = 0; i < SIGN_IN_LIMITS.address.max; i += 1) {
      expect((await signIn(`guess-${i}@nowhere.example`, 'Winter2026!', { ip: office })).status).toBe(401);
    }

    // A new browser in the same office, right password, no check solved: asked for the check, not locked out.
    const asked = await signIn(nurse.email, nurse.password, { ip: office });
    expect(asked.status).toBe(401);
    expect(asked.body).toMatchObject({ name: 'NotAuthenticated', message: SIGN_IN_MESSAGES.checkRequired, data: { reason: 'checkRequired' } });
    expect(asked.headers['retry-after']).toBeUndefined();

    // The same browser solves the check (a second of work in a browser) and is in.
    const check = await solvedCheck(office, nurse.email);
    const signedIn = await signIn(nurse.email, nurse.password, { ip: office, altcha: check });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.email).toBe(nurse.email);
    // A check is good once: the sprayer cannot reuse a solution.
    expect((await signIn(nurse.email, nurse.password, { ip: office, altcha: check })).body.data?.reason).toBe('checkRequired');
    // A made-up solution is no solution.
    expect((await signIn(nurse.email, nurse.password, { ip: office, altcha: Buffer.from('{"x":1}').toString('base64') })).body.data?.reason).toBe('checkRequired');

    // The colleague's known browser meets no check at all; another address none either.
    expect((await signIn(colleague.email, colleague.password, { ip: office, cookie: known.cookie })).status).toBe(200);
    expect((await signIn(nurse.email, nurse.password, { ip: '10.71.0.2' })).status).toBe(200);

    // The sprayer pays a solved check for each further guess: without one, argon2 never runs.
    const before = await metric('coi_api_password_verifications_total');
    for (let i = 0; i < 10; i += 1) expect((await signIn(`more-${i}@nowhere.example`, 'Winter2026!', { ip: office })).body.data?.reason).toBe('checkRequired');
    expect(await metric('coi_api_password_verifications_total')).toBe(before);
    // Each request for a check is logged once a minute per address and email, not once per attempt.
    const [{ n }] = await sql<{ n: string }>(`select count(*) as n from security_events where kind = 'signInThrottled' and ip = ? and email = ?`, [office, nurse.email]);
    expect(Number(n)).toBe(1);
  });

  it("keeps the account's own window as it was: past 20 failures on one account, a solved check does not help (429)", async () => {
    const target = await freshAccount('target');
    for (let i = 0; i < SIGN_IN_CHECK.accountFreeFailures; i += 1) {
      expect((await signIn(target.email, 'Wrong-Pass1', { ip: `10.72.${i}.1` })).body.message).toBe(MESSAGES.loginFailed);
    }
    // From here each guess on the account needs a solved check; one solved now is kept for the end. The rest of the
    // window is filled as the further failures, each with its check, would have filled it (solving them all here
    // would cost this machine a minute of CPU).
    const check = await solvedCheck('10.72.99.1', target.email);
    await sql('update rate_limit_counters set hits = ? where key = ?', [SIGN_IN_LIMITS.account.max, `signin|account|${target.email}`]);
    const refused = await signIn(target.email, target.password, { ip: '10.72.99.1', altcha: check });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ name: 'TooManyRequests', message: QUOTA_MESSAGES.signInAccount });
    // The refused attempt took no place of its address: that window counts only what was checked.
    expect(await hitsOf('signin|address|10.72.99.1')).toBe(0);
  });

  it('gives the places back on a right password: the windows count failures only', async () => {
    const { email, password } = await freshAccount('honest');
    for (let i = 0; i < 5; i += 1) expect((await signIn(email, password, { ip: '10.73.0.1' })).status).toBe(200);
    expect(await hitsOf('signin|address|10.73.0.1')).toBe(0);
  });
});

describe('the work a check asks for rises with the failures (a spray pays for each guess, the portal does not)', () => {
  /** The address's failure window as a spray left it (each of those failures reached argon2 once). */
  const fillAddressWindow = (ip: string) => sql(`insert into rate_limit_counters (key, hits, window_ends) values (?, ?, now() + interval '15 minutes')
    on conflict (key) do update set hits = excluded.hits, window_ends = excluded.window_ends`, [`signin|address|${ip}`, SIGN_IN_LIMITS.address.max]);
  /** Failures past the full address window, as that many solved guesses would have left them. */
  const setFailuresPastWindow = (ip: string, hits: number) => sql(`insert into rate_limit_counters (key, hits, window_ends) values (?, ?, now() + interval '1 hour')
    on conflict (key) do update set hits = excluded.hits, window_ends = excluded.window_ends`, [`signin|address-over|${ip}`, hits]);

  it('doubles the tries every 25 failures past the full address window, up to the cap, and refuses a check solved at a lower level', async () => {
    const office = '10.74.0.1';
    const nurse = await freshAccount('ward-nurse');
    await fillAddressWindow(office);

    const first = await checkChallenge(office, nurse.email);
    expect(levelOf(first)).toBe(1);
    // PBKDF2 at a thousand iterations a try: what a browser computes natively, as fast as a script would.
    expect(first.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: SIGN_IN_CHECK.iterationsPerTry });
    const levelOne = await solvedCheck(office, nurse.email);

    // A guess past the window, with its check, is counted where the level is read from (PostgreSQL).
    const guess = await signIn(`sprayed-${Date.now()}@nowhere.example`, 'Autumn2026!', { ip: office, altcha: await solvedCheck(office, 'sprayed@nowhere.example') });
    expect(guess.body.message).toBe(MESSAGES.loginFailed);
    expect(await hitsOf(`signin|address-over|${office}`)).toBe(1);

    await setFailuresPastWindow(office, SIGN_IN_CHECK.addressFailuresPerLevel);
    expect(levelOf(await checkChallenge(office, nurse.email))).toBe(2);
    // The level-1 check solved before the spray went on is no longer enough, and argon2 does not run for it.
    const before = await metric('coi_api_password_verifications_total');
    const refused = await signIn(nurse.email, nurse.password, { ip: office, altcha: levelOne });
    expect(refused.body).toMatchObject({ message: SIGN_IN_MESSAGES.checkRequired, data: { reason: 'checkRequired', level: 2 } });
    expect(await metric('coi_api_password_verifications_total')).toBe(before);
    // A level-2 check (twice the tries) lets the right password in.
    const levelTwo = await solvedCheck(office, nurse.email);
    expect((await signIn(nurse.email, nurse.password, { ip: office, altcha: levelTwo })).status).toBe(200);
    // The work is known in advance: the solution is a counter drawn from the upper half of the level's tries.
    const triesOf = (payload: string) => (JSON.parse(Buffer.from(payload, 'base64').toString()) as { solution: { counter: number } }).solution.counter;
    expect(triesOf(levelOne)).toBeGreaterThanOrEqual(SIGN_IN_CHECK.level1Tries / 2);
    expect(triesOf(levelOne)).toBeLessThan(SIGN_IN_CHECK.level1Tries);
    expect(triesOf(levelTwo)).toBeGreaterThanOrEqual(SIGN_IN_CHECK.level1Tries);
    expect(triesOf(levelTwo)).toBeLessThan(2 * SIGN_IN_CHECK.level1Tries);

    await setFailuresPastWindow(office, 3 * SIGN_IN_CHECK.addressFailuresPerLevel);
    expect(levelOf(await checkChallenge(office, nurse.email))).toBe(4);
    await setFailuresPastWindow(office, 100_000);
    expect(levelOf(await checkChallenge(office, nurse.email))).toBe(SIGN_IN_CHECK.maxLevel);
    expect(signInCheckTries(SIGN_IN_CHECK.maxLevel)).toBe(SIGN_IN_CHECK.level1Tries * 2 ** (SIGN_IN_CHECK.maxLevel - 1));
  });

  it('asks for a check once an account failed 5 times from browsers it does not know, from any address; its known browser is never asked', async () => {
    const owner = await freshAccount('owner');
    const known = await signIn(owner.email, owner.password, { ip: '10.75.0.1' });
    expect(known.status).toBe(200);
    for (let i = 0; i < SIGN_IN_CHECK.accountFreeFailures; i += 1) {
      expect((await signIn(owner.email, 'Wrong-Pass1', { ip: `10.75.${i + 1}.1` })).body.message).toBe(MESSAGES.loginFailed);
    }
    // A new address, whose own window is empty: the account asks for the check.
    const asked = await signIn(owner.email, 'Wrong-Pass2', { ip: '10.75.9.1' });
    expect(asked.body).toMatchObject({ message: SIGN_IN_MESSAGES.checkRequiredForAccount, data: { reason: 'checkRequired', level: 1 } });
    expect(await hitsOf('signin|address|10.75.9.1')).toBe(0); // no place taken for an attempt that was not made
    expect(levelOf(await checkChallenge('10.75.9.1', owner.email))).toBe(1);
    await sql('update rate_limit_counters set hits = ? where key = ?', [SIGN_IN_CHECK.accountFreeFailures + SIGN_IN_CHECK.accountFailuresPerLevel, `signin|account|${owner.email}`]);
    expect(levelOf(await checkChallenge('10.75.9.1', owner.email))).toBe(2);
    // Another account from the same address is not asked.
    const other = await freshAccount('bystander');
    expect((await signIn(other.email, other.password, { ip: '10.75.9.1' })).status).toBe(200);
    // The owner's own browser signs in without any check.
    expect((await signIn(owner.email, owner.password, { ip: '10.75.0.1', cookie: known.cookie })).status).toBe(200);
  });
});

describe('password hashing under load', () => {
  it('answers 503 with Retry-After in the error shape once the hashing queue is full, and the refused attempt counts for nothing', async () => {
    // A stored hash that takes long to verify (argon2 verifies at the stored parameters): the slots stay busy while
    // the test looks, whatever the machine's speed.
    const slowHash = await argon2.hash('Not-The-Password1', { type: argon2.argon2id, memoryCost: 19456, timeCost: 60, parallelism: 1 });
    const [a, b, c] = [await freshAccount('slow-a'), await freshAccount('slow-b'), await freshAccount('slow-c')];
    await sql('update users set password_hash = ? where email in (?, ?, ?)', [slowHash, a.email, b.email, c.email]);
    const saved = { ...passwordHashing.limits };
    passwordHashing.limits = { concurrency: 1, queue: 1 }; // this process, sized down so one test can fill it
    try {
      const first = signIn(a.email, 'Wrong-Pass1', { ip: '10.74.0.1' });
      await eventually(async () => (await metric('coi_api_password_hashing_running')) === 1);
      const second = signIn(b.email, 'Wrong-Pass1', { ip: '10.74.0.2' });
      await eventually(async () => (await metric('coi_api_password_hashing_queued')) === 1);
      const refusedBefore = await metric('coi_api_password_hashing_refused_total');

      const third = await signIn(c.email, 'Wrong-Pass1', { ip: '10.74.0.3' });
      expect(third.status).toBe(503);
      expect(third.headers['retry-after']).toBe('2');
      expect(third.body).toEqual({ name: 'Unavailable', message: SIGN_IN_MESSAGES.hashingBusy, code: 503, className: 'unavailable', data: {}, errors: {} });
      expect(await metric('coi_api_password_hashing_refused_total')).toBe(refusedBefore + 1);
      // Not a failed guess: its places were given back.
      expect(await hitsOf(`signin|account|${c.email}`)).toBe(0);
      expect(await hitsOf('signin|address|10.74.0.3')).toBe(0);

      expect((await first).status).toBe(401);
      expect((await second).status).toBe(401);
    } finally {
      passwordHashing.limits = saved;
    }
    expect(await metric('coi_api_password_hashing_running')).toBe(0);
    expect(await metric('coi_api_password_hashing_queued')).toBe(0);
  });
});
