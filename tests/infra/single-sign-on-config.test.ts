/**
 * Single sign-on settings: production reads the IdP from the environment (metadata URL, or entry point and
 * certificate; half of the second pair is refused at start), and the development identity provider, which signs
 * anyone in, refuses to start with NODE_ENV=production whoever starts it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { DevIdpRefused, startDevIdp } from '../../devtools/dev-idp/dev-idp-server';

const production = (env: Record<string, string> = {}) => ({
  NODE_ENV: 'production', JWT_SECRET: randomBytes(36).toString('base64'),
  PUBLIC_URL: 'https://coi.university.example', RISK_MANAGEMENT_PHONE: '503-494-1234', RISK_MANAGEMENT_EMAIL: 'riskmanagement@university.example', ...env,
});

describe('single sign-on settings', () => {
  it('reads the IdP from the metadata URL, or from entry point and certificate', () => {
    const issuer = { SAML_IDP_ENTITY_ID: 'https://idp.university.example/idp/shibboleth' };
    expect(loadConfig(production({ SAML_IDP_METADATA_URL: 'https://idp.university.example/idp/shibboleth', ...issuer })).saml)
      .toMatchObject({ idpMetadataUrl: 'https://idp.university.example/idp/shibboleth', idpEntryPoint: null, spEntityId: null, idpEntityId: issuer.SAML_IDP_ENTITY_ID });
    expect(loadConfig(production({ SAML_IDP_ENTRY_POINT: 'https://idp.example/sso', SAML_IDP_CERT: 'MIIC…', SAML_SP_ENTITY_ID: 'https://portal.example/sp', ...issuer })).saml)
      .toMatchObject({ idpEntryPoint: 'https://idp.example/sso', idpCert: 'MIIC…', spEntityId: 'https://portal.example/sp' });
    expect(loadConfig(production()).saml.idpMetadataUrl).toBeNull(); // not configured: /saml/… answers "not configured"
  });

  it('refuses an entry point without a certificate and the other way round', () => {
    expect(() => loadConfig(production({ SAML_IDP_ENTRY_POINT: 'https://idp.example/sso' }))).toThrow(ConfigError);
    expect(() => loadConfig(production({ SAML_IDP_CERT: 'MIIC…' }))).toThrow(/SAML_IDP_METADATA_URL, or both SAML_IDP_ENTRY_POINT and SAML_IDP_CERT/);
  });
});

describe('single sign-on settings in production (the only way to administrator rights there)', () => {
  const issuer = { SAML_IDP_ENTITY_ID: 'https://idp.university.example/idp/shibboleth' };

  it('refuses metadata read over http, naming the setting and the ways out', () => {
    const start = () => loadConfig(production({ SAML_IDP_METADATA_URL: 'http://idp.university.example/idp/shibboleth', ...issuer }));
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(/^SAML_IDP_METADATA_URL must be an https: address with NODE_ENV=production \(got "http:\/\/idp\.university\.example\/idp\/shibboleth"\)/);
    expect(start).toThrow(/pin the IdP instead with SAML_IDP_ENTRY_POINT, SAML_IDP_CERT and SAML_IDP_ENTITY_ID/);
    expect(() => loadConfig(production({ SAML_IDP_METADATA_URL: 'idp.university.example/metadata', ...issuer }))).toThrow(/^SAML_IDP_METADATA_URL is not an address/);
  });

  it('requires the IdP\'s entity id, so that every assertion\'s issuer is checked', () => {
    for (const idp of <Record<string, string>[]>[
      { SAML_IDP_METADATA_URL: 'https://idp.university.example/idp/shibboleth' },
      { SAML_IDP_ENTRY_POINT: 'https://idp.example/sso', SAML_IDP_CERT: 'MIIC…' },
    ]) {
      expect(() => loadConfig(production(idp)), JSON.stringify(idp)).toThrow(/^SAML_IDP_ENTITY_ID is not set: with NODE_ENV=production single sign-on does not start/);
    }
  });

  it('development keeps the local stand-in IdP: metadata over http, its entity id taken from the metadata', () => {
    const env = { JWT_SECRET: 'x'.repeat(40), SAML_IDP_METADATA_URL: 'http://127.0.0.1:8026/metadata' };
    expect(loadConfig(env).saml).toMatchObject({ idpMetadataUrl: 'http://127.0.0.1:8026/metadata', idpEntityId: null });
  });
});

describe('the development identity provider', () => {
  it('refuses to start with NODE_ENV=production, before making a key or listening', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'coi-dev-idp-prod-'));
    try {
      const start = startDevIdp({
        orm: {} as Orm, dataDir: dir, env: { NODE_ENV: 'production' },
        serviceProvider: () => ({ entityId: 'https://portal.example/sp', acsUrl: 'https://portal.example/acs' }),
      });
      await expect(start).rejects.toThrow(DevIdpRefused);
      await expect(start).rejects.toThrow(/never runs with NODE_ENV=production/);
      expect(existsSync(path.join(dir, 'dev-idp'))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
