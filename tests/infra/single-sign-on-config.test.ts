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
    expect(loadConfig(production({ SAML_IDP_METADATA_URL: 'https://idp.university.example/idp/shibboleth' })).saml)
      .toMatchObject({ idpMetadataUrl: 'https://idp.university.example/idp/shibboleth', idpEntryPoint: null, spEntityId: null });
    expect(loadConfig(production({ SAML_IDP_ENTRY_POINT: 'https://idp.example/sso', SAML_IDP_CERT: 'MIIC…', SAML_SP_ENTITY_ID: 'https://portal.example/sp' })).saml)
      .toMatchObject({ idpEntryPoint: 'https://idp.example/sso', idpCert: 'MIIC…', spEntityId: 'https://portal.example/sp' });
    expect(loadConfig(production()).saml.idpMetadataUrl).toBeNull(); // not configured: /saml/… answers "not configured"
  });

  it('refuses an entry point without a certificate and the other way round', () => {
    expect(() => loadConfig(production({ SAML_IDP_ENTRY_POINT: 'https://idp.example/sso' }))).toThrow(ConfigError);
    expect(() => loadConfig(production({ SAML_IDP_CERT: 'MIIC…' }))).toThrow(/SAML_IDP_METADATA_URL, or both SAML_IDP_ENTRY_POINT and SAML_IDP_CERT/);
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
