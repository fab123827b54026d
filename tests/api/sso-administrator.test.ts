/**
 * The administrator the university vouches for: a directory person on the admin list signs in through single sign-on
 * (the development IdP, driven over HTTP by devtools/portal-client.ts as the production shape's test and bench do) and
 * is an administrator; the internal account it gets has no password, so production keeps its rights too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serviceProviderUrls } from '../../api/auth/saml/service-provider';
import { AdminSchema, PersonSchema, UserSchema } from '../../db/entities';
import { createOrm, type Orm } from '../../db/orm';
import { holdsAdministratorRights } from '../../domain';
import { startDevIdp, type DevIdp } from '../../devtools/dev-idp/dev-idp-server';
import { api, signInWithSingleSignOn } from '../../devtools/portal-client';
import { fileDatabaseUrl } from '../support/file-database';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let idp: DevIdp;
let idpOrm: Orm;
let idpDir: string;
const EMAIL = `chief.${Date.now()}@ohsu.example`;

beforeAll(async () => {
  idpDir = await mkdtemp(path.join(os.tmpdir(), 'coi-dev-idp-'));
  idpOrm = await createOrm(fileDatabaseUrl(), { poolMax: 2 });
  idp = await startDevIdp({ orm: idpOrm, dataDir: idpDir, serviceProvider: () => serviceProviderUrls(h.config) });
  h = await startHarness({ worker: false, listen: true, env: { SAML_IDP_METADATA_URL: idp.metadataUrl } });
  const em = h.orm.em.fork();
  em.create(PersonSchema, {
    employeeId: `CHIEF${String(Date.now()).slice(-6)}`, email: EMAIL, firstName: 'Chief', lastName: 'Officer', title: 'Risk Management',
    employmentStatus: 'A', personType: 'Employee',
  });
  em.create(AdminSchema, { email: EMAIL, firstName: 'Chief', lastName: 'Officer' });
  await em.flush();
});
afterAll(async () => {
  await h?.stop();
  await idp?.close();
  await idpOrm?.close();
  if (idpDir) await rm(idpDir, { recursive: true, force: true });
});

it('a directory person on the admin list signs in through single sign-on as an administrator, with no password', async () => {
  const base = h.baseUrl!; // the harness listens (listen: true)
  const session = await signInWithSingleSignOn(base, EMAIL);
  expect((await api(base, session, 'GET', '/admin-dashboard')).status).toBe(200);
  const user = await h.orm.em.fork().findOneOrFail(UserSchema, { email: EMAIL }, { populate: ['passwordHash'] });
  expect(user).toMatchObject({ isExternal: false, passwordHash: null });
  expect(user.emailConfirmedAt).not.toBeNull();
  // What production decides for this account (the harness runs outside production).
  expect(holdsAdministratorRights({ onAdminList: true, emailConfirmed: true, isExternal: user.isExternal, hasPassword: !!user.passwordHash }, { production: true })).toBe(true);
});
