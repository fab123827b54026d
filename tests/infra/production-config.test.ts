/**
 * Production shape of the settings and the seed: with NODE_ENV=production the configuration refuses a missing,
 * short or committed JWT secret and any request for the development accounts, and preparing a database seeds the
 * reference data only. Outside production nothing changes for `npm start` and the tests.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ConfigError, DEVELOPMENT_JWT_SECRET, loadConfig, seedDevAccountsSetting } from '../../config/app-config';
import { dropDatabase } from '../../db/database';
import { createOrm } from '../../db/orm';
import { prepareDatabase } from '../../db/prepare-database';
import { AdminSchema, CounterSchema, EmailTemplateSchema, PolicyYearSchema, UserSchema } from '../../db/entities';
import { DEV_ADMIN, DEV_REQUESTER, SEED_EMAIL_TEMPLATES, EXTRA_EMAIL_TEMPLATES } from '../../db/seed-data';

const GOOD_SECRET = randomBytes(36).toString('base64');
const production = (env: Record<string, string | undefined> = {}) => ({ NODE_ENV: 'production', JWT_SECRET: GOOD_SECRET, ...env });

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

  it('refuses SEED_DEV_ACCOUNTS=true', () => {
    expect(() => loadConfig(production({ SEED_DEV_ACCOUNTS: 'true' }))).toThrow(/SEED_DEV_ACCOUNTS=true is refused with NODE_ENV=production/);
    expect(loadConfig(production({ SEED_DEV_ACCOUNTS: 'false' })).seedDevAccounts).toBe(false);
  });
});

describe('configuration outside production', () => {
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
    await prepareDatabase(databaseUrl, (line) => lines.push(line), { devAccounts });
    await prepareDatabase(databaseUrl, (line) => lines.push(line), { devAccounts });
    expect(lines).toContain('seeded (reference data only, no development accounts)');

    const orm = await createOrm(databaseUrl, { poolMax: 1 });
    try {
      const em = orm.em.fork();
      expect(await em.count(UserSchema, {})).toBe(0);
      expect(await em.count(AdminSchema, {})).toBe(0);
      expect(await em.count(EmailTemplateSchema, {})).toBe(SEED_EMAIL_TEMPLATES.length + EXTRA_EMAIL_TEMPLATES.length);
      expect(await em.count(PolicyYearSchema, {})).toBeGreaterThan(0);
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
