/**
 * Production shape of the settings and the seed: with NODE_ENV=production the configuration refuses a missing,
 * short or committed JWT secret, any request for the development accounts and any office fact left unset or set to
 * its development sample (each named, all in one message), and preparing a database seeds the reference data only:
 * no development accounts, no sample policy years (and says so when an earlier seed left them; the API and worker
 * then refuse to start, which tests/infra/production-build.test.ts runs). Outside production nothing changes for
 * `npm start` and the tests.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  ConfigError, DEFAULT_RISK_MANAGEMENT_EMAIL, DEFAULT_RISK_MANAGEMENT_PHONE, DEVELOPMENT_JWT_SECRET, loadConfig, PRODUCTION_REQUIRED_SETTINGS,
  seedDevAccountsSetting,
} from '../../config/app-config';
import { dropDatabase } from '../../db/database';
import { createOrm } from '../../db/orm';
import { prepareDatabase } from '../../db/prepare-database';
import { AdminSchema, CounterSchema, EmailTemplateSchema, PolicyYearSchema, UserSchema } from '../../db/entities';
import { DEV_ADMIN, DEV_REQUESTER, SEED_EMAIL_TEMPLATES, EXTRA_EMAIL_TEMPLATES, samplePolicyYear, seedPolicyYears } from '../../db/seed-data';
import { findSamplePolicyYears, removeSamplePolicyYears, samplePolicyYearsRefusal } from '../../db/sample-policy-years';

const GOOD_SECRET = randomBytes(36).toString('base64');
/** The office's own facts, as an operator sets them. */
const OFFICE = { PUBLIC_URL: 'https://coi.university.example', RISK_MANAGEMENT_PHONE: '503-494-7700', RISK_MANAGEMENT_EMAIL: 'riskmanagement@university.example' };
const production = (env: Record<string, string | undefined> = {}) => ({ NODE_ENV: 'production', JWT_SECRET: GOOD_SECRET, ...OFFICE, ...env });

describe('configuration with NODE_ENV=production', () => {
  it.each([
    ['missing', undefined, /JWT_SECRET is not set/],
    ['empty', '', /JWT_SECRET is not set/],
    ['the development default', DEVELOPMENT_JWT_SECRET, /development value committed/],
    ['the value docker-compose.yml used to commit', 'change-me-in-production-0123456789abcdef0123456789abcdef', /development value committed/],
    ['shorter than 32 characters', 'x'.repeat(31), /31 characters long: .* at least 32/],
  ])('refuses a JWT secret that is %s', (_, secret, message) => {
    const env = production({ JWT_SECRET: secret });
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('accepts a secret of its own of 32 characters or more, and seeds no development accounts', () => {
    const config = loadConfig(production({ JWT_SECRET: 'p'.repeat(32) }));
    expect(config.jwtSecret).toBe('p'.repeat(32));
    expect(config.production).toBe(true);
    expect(config.seedDevAccounts).toBe(false);
    expect(loadConfig(production()).jwtSecret).toBe(GOOD_SECRET);
  });

  it('logs at info in production and at warn elsewhere unless LOG_LEVEL says, and refuses a level it does not know', () => {
    expect(loadConfig(production()).logLevel).toBe('info');
    expect(loadConfig({}).logLevel).toBe('warn');
    expect(loadConfig(production({ LOG_LEVEL: 'DEBUG' })).logLevel).toBe('debug');
    expect(() => loadConfig(production({ LOG_LEVEL: 'verbose' }))).toThrow(/LOG_LEVEL must be one of trace, debug, info, warn, error/);
  });

  it('refuses TRUST_PROXY=true (every caller would choose its address) and takes the proxy\'s address, CIDR or hops', () => {
    expect(() => loadConfig(production({ TRUST_PROXY: 'true' }))).toThrow(/TRUST_PROXY=true is refused with NODE_ENV=production/);
    expect(loadConfig(production({ TRUST_PROXY: '172.30.80.10' })).trustProxy).toEqual(['172.30.80.10']);
    expect(loadConfig(production({ TRUST_PROXY: '10.0.0.0/24, 10.1.0.5' })).trustProxy).toEqual(['10.0.0.0/24', '10.1.0.5']);
    expect(loadConfig(production({ TRUST_PROXY: '1' })).trustProxy).toBe(1);
    expect(loadConfig(production()).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true); // development: a choice of the developer's
  });

  it('refuses the webhook settings that loosen the address rules (http, private targets); outside production they are off unless set', () => {
    for (const setting of ['WEBHOOK_ALLOW_HTTP', 'WEBHOOK_ALLOW_PRIVATE_TARGETS']) {
      expect(() => loadConfig(production({ [setting]: '1' }))).toThrow(/refused with NODE_ENV=production/);
    }
    expect(loadConfig(production()).webhooks).toMatchObject({ allowHttp: false, allowPrivateTargets: false, retry: { windowMs: 72 * 3_600_000 } });
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' }).webhooks.allowPrivateTargets).toBe(true);
    expect(loadConfig({}).webhooks.allowPrivateTargets).toBe(false);
  });

  it('refuses SEED_DEV_ACCOUNTS=true', () => {
    expect(() => loadConfig(production({ SEED_DEV_ACCOUNTS: 'true' }))).toThrow(/SEED_DEV_ACCOUNTS=true is refused with NODE_ENV=production/);
    expect(loadConfig(production({ SEED_DEV_ACCOUNTS: 'false' })).seedDevAccounts).toBe(false);
  });
});

describe('the office\'s own facts with NODE_ENV=production', () => {
  it.each(Object.keys(OFFICE))('refuses to start without %s, naming it and what it is for', (name) => {
    for (const value of [undefined, '', '   ']) {
      const env = production({ [name]: value });
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(`without values of its own for these settings: ${name}.\n  ${name} is not set: ${PRODUCTION_REQUIRED_SETTINGS[name as keyof typeof OFFICE]}`);
    }
  });

  it.each([
    ['RISK_MANAGEMENT_PHONE', DEFAULT_RISK_MANAGEMENT_PHONE],
    ['RISK_MANAGEMENT_PHONE', '(503) 494-0000'],
    ['RISK_MANAGEMENT_PHONE', '+1 503 494 0000'],
    ['RISK_MANAGEMENT_EMAIL', DEFAULT_RISK_MANAGEMENT_EMAIL],
    ['RISK_MANAGEMENT_EMAIL', ' RiskManagement@COI-Portal.local '],
  ])('refuses %s set to the development sample (%s), saying it is the sample', (name, value) => {
    const env = production({ [name]: value });
    expect(() => loadConfig(env)).toThrow(ConfigError);
    const sample = name === 'RISK_MANAGEMENT_PHONE' ? DEFAULT_RISK_MANAGEMENT_PHONE : DEFAULT_RISK_MANAGEMENT_EMAIL;
    expect(() => loadConfig(env)).toThrow(`without values of its own for these settings: ${name}.\n  ${name} is the development sample ${sample}, not the office's own: ${PRODUCTION_REQUIRED_SETTINGS[name as keyof typeof OFFICE]}`);
  });

  it('names a sample and a missing setting in the same message', () => {
    expect(() => loadConfig(production({ PUBLIC_URL: undefined, RISK_MANAGEMENT_PHONE: DEFAULT_RISK_MANAGEMENT_PHONE })))
      .toThrow(/these settings: PUBLIC_URL, RISK_MANAGEMENT_PHONE\.\n {2}PUBLIC_URL is not set: .*\n {2}RISK_MANAGEMENT_PHONE is the development sample 503-494-0000/);
    expect(loadConfig(production({ RISK_MANAGEMENT_PHONE: '503-494-0001' })).riskManagementPhone).toBe('503-494-0001');
  });

  it('names every missing setting in one message, the JWT secret included', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain('these settings: JWT_SECRET, PUBLIC_URL, RISK_MANAGEMENT_PHONE, RISK_MANAGEMENT_EMAIL.');
    for (const name of Object.keys(PRODUCTION_REQUIRED_SETTINGS)) expect(message).toMatch(new RegExp(`^  ${name} is not set: `, 'm'));
  });

  it('runs with the values given, sends mail from the office mailbox unless MAIL_FROM says otherwise, and reports no sample', () => {
    const config = loadConfig(production());
    expect(config).toMatchObject({
      publicUrl: OFFICE.PUBLIC_URL, riskManagementPhone: OFFICE.RISK_MANAGEMENT_PHONE, riskManagementEmail: OFFICE.RISK_MANAGEMENT_EMAIL,
      mailFrom: `Risk Management <${OFFICE.RISK_MANAGEMENT_EMAIL}>`, officeSamples: [],
    });
    expect(JSON.stringify(config)).not.toContain(DEFAULT_RISK_MANAGEMENT_PHONE);
    expect(JSON.stringify(config)).not.toContain(DEFAULT_RISK_MANAGEMENT_EMAIL);
    expect(loadConfig(production({ MAIL_FROM: 'COI Desk <coi@university.example>' })).mailFrom).toBe('COI Desk <coi@university.example>');
  });
});

describe('configuration outside production', () => {
  it('keeps the office\'s development samples and says which are samples', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      riskManagementPhone: DEFAULT_RISK_MANAGEMENT_PHONE, riskManagementEmail: DEFAULT_RISK_MANAGEMENT_EMAIL,
      mailFrom: `Risk Management <${DEFAULT_RISK_MANAGEMENT_EMAIL}>`, publicUrl: 'http://127.0.0.1:3030',
    });
    expect(config.officeSamples).toEqual(['PUBLIC_URL', 'RISK_MANAGEMENT_PHONE', 'RISK_MANAGEMENT_EMAIL']);
    expect(loadConfig({ RISK_MANAGEMENT_PHONE: '503-494-7700' }).officeSamples).toEqual(['PUBLIC_URL', 'RISK_MANAGEMENT_EMAIL']);
    // Typed in, the sample is still the sample: the first-certificate checklist keeps asking for the office's own.
    expect(loadConfig({ RISK_MANAGEMENT_PHONE: DEFAULT_RISK_MANAGEMENT_PHONE }).officeSamples).toContain('RISK_MANAGEMENT_PHONE');
  });

  it('keeps the development defaults', () => {
    for (const NODE_ENV of [undefined, 'development', 'test']) {
      const config = loadConfig({ NODE_ENV });
      expect(config.jwtSecret).toBe(DEVELOPMENT_JWT_SECRET);
      expect(config.production).toBe(false);
      expect(config.seedDevAccounts).toBe(true);
    }
    expect(loadConfig({ JWT_SECRET: 'short' }).jwtSecret).toBe('short');
  });

  it('seeds the development accounts unless SEED_DEV_ACCOUNTS=false', () => {
    expect(seedDevAccountsSetting({})).toBe(true);
    expect(seedDevAccountsSetting({ SEED_DEV_ACCOUNTS: 'true' })).toBe(true);
    expect(seedDevAccountsSetting({ SEED_DEV_ACCOUNTS: 'false' })).toBe(false);
    expect(seedDevAccountsSetting({ SEED_DEV_ACCOUNTS: '0' })).toBe(false);
    expect(() => seedDevAccountsSetting({ SEED_DEV_ACCOUNTS: 'yes please' })).toThrow(/must be true or false/);
  });
});

describe('seeding a production database', () => {
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/coi_test_${process.pid}_prodseed`;
  const databaseUrl = url.toString();
  afterAll(() => dropDatabase(databaseUrl));

  it('creates the reference data and no development accounts, however often it runs', async () => {
    const lines: string[] = [];
    const devAccounts = loadConfig(production()).seedDevAccounts;
    await prepareDatabase(databaseUrl, (line) => lines.push(line), { devAccounts, samplePolicyYears: false });
    await prepareDatabase(databaseUrl, (line) => lines.push(line), { devAccounts, samplePolicyYears: false });
    expect(lines).toContain('seeded (reference data only, no development accounts)');
    expect(lines).toContain('No policy years on record: certificates are refused until the real ones are entered under Manage > Policies.');

    const orm = await createOrm(databaseUrl, { poolMax: 1 });
    try {
      const em = orm.em.fork();
      expect(await em.count(UserSchema, {})).toBe(0);
      expect(await em.count(AdminSchema, {})).toBe(0);
      expect(await em.count(EmailTemplateSchema, {})).toBe(SEED_EMAIL_TEMPLATES.length + EXTRA_EMAIL_TEMPLATES.length);
      expect(await em.count(PolicyYearSchema, {})).toBe(0); // none made up: the office enters its own
      expect(await samplePolicyYearsRefusal(em as never, true)).toBeNull();
      expect(await em.findOne(CounterSchema, { name: 'request' })).not.toBeNull();
    } finally {
      await orm.close();
    }
  });

  it('warns when development accounts are already there (a database seeded before this release)', async () => {
    await prepareDatabase(databaseUrl, () => {}, { devAccounts: true });
    const lines: string[] = [];
    await prepareDatabase(databaseUrl, (line) => lines.push(line), { devAccounts: false });
    expect(lines.join('\n')).toMatch(new RegExp(`WARNING: development accounts \\(${DEV_ADMIN.email}, ${DEV_REQUESTER.email}\\) exist`));
  });

  it('finds the sample policy years an earlier development seed left: the migrate log says so, a production start refuses, and the removal takes exactly them', async () => {
    const orm = await createOrm(databaseUrl, { poolMax: 1 });
    try {
      const em = orm.em.fork();
      await em.nativeDelete(PolicyYearSchema, {});
      for (const year of seedPolicyYears()) em.create(PolicyYearSchema, year);
      // Entered by the office: a real year, and one whose number looks like a sample's but whose limits are its own.
      const real = em.create(PolicyYearSchema, { ...samplePolicyYear(2040), policyNumber: 'PL-2040-41-REAL' });
      const lookalike = em.create(PolicyYearSchema, { ...samplePolicyYear(2041), limitClaim: '3000000.00' });
      await em.flush();
      const samples = seedPolicyYears();

      const lines: string[] = [];
      await prepareDatabase(databaseUrl, (line) => lines.push(line), { devAccounts: false, samplePolicyYears: false });
      const warning = lines.find((line) => line.startsWith('WARNING: This database holds'));
      expect(warning).toContain(`holds ${samples.length} sample policy years from a development seed (${samples[0].policyNumber} … ${samples.at(-1)!.policyNumber})`);
      expect(warning).toContain('remove-sample-policy-years');
      expect(await em.fork().count(PolicyYearSchema, {})).toBe(samples.length + 2); // the seed added nothing

      const refusal = await samplePolicyYearsRefusal(em.fork() as never, true);
      expect(refusal).toMatch(/^Refusing to start with NODE_ENV=production: This database holds \d+ sample policy years/);
      expect(refusal).toContain('node dist/admin.js remove-sample-policy-years');
      expect(await samplePolicyYearsRefusal(em.fork() as never, false)).toBeNull(); // development runs on them

      const removed = await removeSamplePolicyYears(em.fork() as never);
      expect(removed.map((y) => y.policyNumber)).toEqual(samples.map((y) => y.policyNumber));
      const left = await em.fork().find(PolicyYearSchema, {}, { orderBy: { startDate: 'asc' } });
      expect(left.map((y) => y.id)).toEqual([real.id, lookalike.id]);
      expect(await findSamplePolicyYears(em.fork() as never)).toEqual([]);
      expect(await samplePolicyYearsRefusal(em.fork() as never, true)).toBeNull();
    } finally {
      await orm.close();
    }
  });
});

describe('per-user quotas', () => {
  it('default to the domain\'s figures, take whole numbers ≥ 1, and refuse anything else by name', () => {
    expect(loadConfig({}).quotas).toEqual({ openDrafts: 25, messagesPerHour: 30, uploadBytesPerDay: 250 * 1024 * 1024, uploadsAtOnce: 2 });
    expect(loadConfig({ OPEN_DRAFTS_QUOTA: '40', UPLOAD_MB_PER_DAY_QUOTA: '1', UPLOADS_AT_ONCE: '3' }).quotas)
      .toMatchObject({ openDrafts: 40, uploadBytesPerDay: 1024 * 1024, uploadsAtOnce: 3 });
    expect(() => loadConfig({ UPLOADS_AT_ONCE: '0' })).toThrow('UPLOADS_AT_ONCE must be a whole number of at least 1 (got "0")');
    expect(() => loadConfig({ MESSAGES_PER_HOUR_QUOTA: '0' })).toThrow('MESSAGES_PER_HOUR_QUOTA must be a whole number of at least 1 (got "0")');
    expect(() => loadConfig({ OPEN_DRAFTS_QUOTA: 'lots' })).toThrow(ConfigError);
  });
});

describe('the worker\'s workflow cache', () => {
  it('holds 250 workflows by default (each costs 0.8–1.7 MiB of RSS), takes a whole number ≥ 1 and refuses anything else by name', () => {
    expect(loadConfig({}).maxCachedWorkflows).toBe(250);
    expect(loadConfig({ WORKER_MAX_CACHED_WORKFLOWS: '1000' }).maxCachedWorkflows).toBe(1000);
    expect(() => loadConfig({ WORKER_MAX_CACHED_WORKFLOWS: 'many' })).toThrow('WORKER_MAX_CACHED_WORKFLOWS must be a whole number of at least 1 (got "many")');
  });
});
