/**
 * University single sign-on against the real API and PostgreSQL: an IdP key and certificate generated here
 * (selfsigned), answers signed with xml-crypto (devtools/dev-idp/saml-response.ts), posted to the consumer endpoint
 * the way a browser does. Accepted: user created, token handed back in the URL hash, second sign-in updates the user,
 * admin flag from the admin list. Refused with the code the login page explains: tampered, unsigned, signed by another
 * key, expired, for another audience or recipient, replayed (also two posts racing), unsolicited, missing attributes.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminSchema, UserSchema } from '../../db/entities';
import { SSO_ERRORS, SAML_ATTRIBUTES } from '../../domain/single-sign-on';
import { signedResponse, signedResponseXml, type AssertedPerson, type ResponseOptions } from '../../devtools/dev-idp/saml-response';
import { serviceProviderUrls } from '../../api/auth/saml/service-provider';
import { startDevIdp } from '../../devtools/dev-idp/dev-idp-server';
import { MESSAGES } from '../../domain';
import { resetLinkToken, resetSecretHash } from '../../services/accounts/password-reset-secret';
import { call, createExternalUser, login } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

const IDP_ENTITY_ID = 'https://idp.university.test/metadata';
const IDP_ENTRY_POINT = 'https://idp.university.test/sso';

let h: Harness;
let idpKeys: { private: string; cert: string };
let foreignKeys: { private: string; cert: string };

beforeAll(async () => {
  [idpKeys, foreignKeys] = await Promise.all([1, 2].map(() => generate([{ name: 'commonName', value: 'test IdP' }], { keySize: 2048, algorithm: 'sha256' })));
  h = await startHarness({
    worker: false,
    env: { SAML_IDP_ENTRY_POINT: IDP_ENTRY_POINT, SAML_IDP_CERT: idpKeys.cert, SAML_IDP_ENTITY_ID: IDP_ENTITY_ID, PUBLIC_URL: 'https://portal.university.test' },
  });
});
afterAll(async () => { await h?.stop(); });

const sp = () => serviceProviderUrls(h.config);
const unique = () => randomBytes(4).toString('hex');
const employee = (over: Partial<AssertedPerson> = {}): AssertedPerson => {
  const id = unique();
  return { employeeId: `7${parseInt(id, 16) % 100000}`, email: `pat.${id}@ohsu.example`, firstName: 'Pat', lastName: `Rivera${id}`, affiliation: ['employee'], ...over };
};

/** The browser's cookie from its last GET of the login route (the SAML request is bound to it). */
let jar = '';

/** What the browser does on the login button: GET the login route; the IdP receives our AuthnRequest. */
async function startSignIn(): Promise<string> {
  const res = await h.app.inject({ method: 'GET', url: '/saml/OHSU/login' });
  expect(res.statusCode).toBe(302);
  jar = String(res.headers['set-cookie'] ?? '').split(';')[0];
  expect(jar).toMatch(/^coi_sso_request=/);
  expect(String(res.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Lax/);
  const location = new URL(res.headers.location as string);
  expect(`${location.origin}${location.pathname}`).toBe(IDP_ENTRY_POINT);
  const xml = inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  expect(xml).toContain(`AssertionConsumerServiceURL="${sp().acsUrl}"`);
  return /\bID="([^"]+)"/.exec(xml)![1];
}

function answer(inResponseTo: string, person: AssertedPerson, over: Partial<ResponseOptions> = {}): ResponseOptions {
  return {
    idpEntityId: IDP_ENTITY_ID, spEntityId: sp().entityId, acsUrl: sp().acsUrl, inResponseTo, person,
    privateKey: idpKeys.private, certificate: idpKeys.cert, ...over,
  };
}

/** The IdP's auto-posted form, as the browser sends it (with the browser's cookie, as a same-site IdP would). */
async function post(samlResponse: string, cookie = jar) {
  const res = await h.app.inject({
    method: 'POST', url: '/saml/OHSU/acs',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '' }).toString(),
  });
  expect(res.statusCode).toBe(303);
  const location = res.headers.location as string;
  const hash = new URLSearchParams(location.split('#')[1] ?? '');
  return { location, token: hash.get('access_token'), error: hash.get('error') };
}

async function signIn(person: AssertedPerson, over: Partial<ResponseOptions> = {}) {
  return post(signedResponse(answer(await startSignIn(), person, over)));
}

const userByEmail = (email: string) => h.orm.em.fork().findOne(UserSchema, { email });

describe('single sign-on (SAML)', () => {
  it('publishes SP metadata naming the consumer URL and asking for signed assertions', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/saml/OHSU/metadata' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`entityID="${sp().entityId}"`);
    expect(res.body).toContain(`Location="${sp().acsUrl}"`);
    expect(res.body).toContain('WantAssertionsSigned="true"');
  });

  it('accepts a signed assertion: creates the user, hands the token back in the URL hash, and the token signs in', async () => {
    const person = employee({ middleInitial: 'q' });
    const before = Date.now();
    const result = await signIn(person);
    expect(result.error).toBeNull();
    expect(result.location).toMatch(/^\/login#access_token=/);
    const user = await userByEmail(person.email);
    expect(user).toMatchObject({
      entityId: person.employeeId, firstName: 'Pat', lastName: person.lastName, middleInitial: 'Q', personType: 'Employee',
      affiliation: 'OHSU', isExternal: false,
    });
    expect(user!.lastLogin!.getTime()).toBeGreaterThanOrEqual(before); // this sign-in's, however long it took
    const me = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken: result.token });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: person.email, isExternal: false, isAdmin: false, personType: 'Employee' });
  });

  it('updates the user on the next sign-in (new name, email changed at the university, now a student)', async () => {
    const person = employee();
    await signIn(person);
    const first = await userByEmail(person.email);
    const changed = { ...person, email: `renamed.${unique()}@ohsu.example`, lastName: 'Okafor', affiliation: ['student'] };
    const again = await signIn(changed);
    expect(again.error).toBeNull();
    const user = await h.orm.em.fork().findOneOrFail(UserSchema, { id: first!.id });
    expect(user).toMatchObject({ email: changed.email, lastName: 'Okafor', personType: 'Student', entityId: person.employeeId });
    expect(await userByEmail(person.email)).toBeNull();
  });

  it('gives the admin flag to a person whose email is in the admin list', async () => {
    const person = employee();
    const em = h.orm.em.fork();
    em.create(AdminSchema, { email: person.email, firstName: person.firstName, lastName: person.lastName });
    await em.flush();
    const { token } = await signIn(person);
    const me = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken: token });
    expect(me.body.user.isAdmin).toBe(true);
  });

  it('refuses a tampered assertion (a signed answer whose email was changed afterwards)', async () => {
    const person = employee();
    const xml = signedResponseXml(answer(await startSignIn(), person));
    const forged = xml.replace(person.email, 'boss@ohsu.example');
    expect(forged).not.toBe(xml);
    const result = await post(Buffer.from(forged).toString('base64'));
    expect(result).toMatchObject({ location: '/login#error=signature', token: null });
    expect(await userByEmail('boss@ohsu.example')).toBeNull();
  });

  it('refuses an unsigned assertion and one signed by another key', async () => {
    const unsigned = employee();
    expect(await signIn(unsigned, { unsigned: true })).toMatchObject({ error: 'signature', token: null });
    const foreign = employee();
    expect(await signIn(foreign, { privateKey: foreignKeys.private, certificate: foreignKeys.cert })).toMatchObject({ error: 'signature', token: null });
    expect(await userByEmail(unsigned.email)).toBeNull();
    expect(await userByEmail(foreign.email)).toBeNull();
  });

  it('refuses an assertion from another issuer, even signed with the trusted key', async () => {
    const person = employee();
    expect(await signIn(person, { idpEntityId: 'https://evil.test/idp' })).toMatchObject({ error: 'signature' });
    expect(await userByEmail(person.email)).toBeNull();
  });

  it('refuses an expired assertion and one not valid yet', async () => {
    const late = employee();
    expect(await signIn(late, { issuedAt: new Date(Date.now() - 20 * 60_000), validForMs: 5 * 60_000 })).toMatchObject({ error: 'expired' });
    const early = employee();
    expect(await signIn(early, { issuedAt: new Date(Date.now() + 10 * 60_000) })).toMatchObject({ error: 'expired' });
    expect(await userByEmail(late.email)).toBeNull();
    expect(await userByEmail(early.email)).toBeNull();
  });

  it('refuses an assertion for another audience, and one whose Recipient is another consumer URL', async () => {
    const audience = employee();
    expect(await signIn(audience, { spEntityId: 'https://other-app.university.test/saml' })).toMatchObject({ error: 'audience' });
    const recipient = employee();
    expect(await signIn(recipient, { acsUrl: 'https://other-app.university.test/acs' })).toMatchObject({ error: 'audience' });
    expect(await userByEmail(audience.email)).toBeNull();
    expect(await userByEmail(recipient.email)).toBeNull();
  });

  it('refuses a replayed answer, an answer to a request we never made, and lets only one of two racing posts in', async () => {
    const person = employee();
    const samlResponse = signedResponse(answer(await startSignIn(), person));
    expect((await post(samlResponse)).error).toBeNull();
    expect(await post(samlResponse)).toMatchObject({ error: 'replayed', token: null });

    expect(await post(signedResponse(answer('_never-requested', employee())))).toMatchObject({ error: 'replayed' });

    // The assertion id is remembered too: what stops the second of two posts racing on two API processes (both
    // past the request check) is the same id met again, here under a fresh request.
    const assertionId = `_assertion-${unique()}`;
    expect((await signIn(employee(), { assertionId })).error).toBeNull();
    expect(await signIn(employee(), { assertionId })).toMatchObject({ error: 'replayed', token: null });

    const racing = signedResponse(answer(await startSignIn(), employee()));
    const results = await Promise.all([post(racing), post(racing), post(racing)]);
    expect(results.filter((r) => r.token).length).toBe(1);
    expect(results.filter((r) => r.error === 'replayed').length).toBe(2);
  });

  it('refuses an assertion without the attributes a user needs, and a deactivated user', async () => {
    const noAffiliation = employee({ affiliation: ['affiliate'] });
    expect(await signIn(noAffiliation)).toMatchObject({ error: 'attributes' });
    expect(await userByEmail(noAffiliation.email)).toBeNull();

    const person = employee();
    await signIn(person);
    const em = h.orm.em.fork();
    const user = await em.findOneOrFail(UserSchema, { email: person.email });
    user.deletedAt = new Date();
    await em.flush();
    expect(await signIn(person)).toMatchObject({ error: 'inactiveUser', token: null });
  });

  it('never takes over an external account with an unconfirmed address: the internal user is created apart', async () => {
    const person = employee();
    await createExternalUser(h, person.email, 'Squatter-Pass1', { confirmed: false });
    const squatter = await login(h, person.email, 'Squatter-Pass1');
    const result = await signIn(person);
    expect(result.error).toBeNull();
    const me = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken: result.token });
    expect(me.body.user).toMatchObject({ email: person.email, isExternal: false, emailConfirmed: true });
    expect(me.body.user.id).not.toBe(squatter.user.id);
    // The external account is as it was: its password and token still work, and it stays external and unconfirmed.
    expect((await login(h, person.email, 'Squatter-Pass1')).user).toMatchObject({ id: squatter.user.id, isExternal: true, emailConfirmed: false });
    expect((await call(h, squatter, 'GET', '/api/v1/requests')).status).toBe(200);
  });

  it('links an external account whose address is confirmed, and ends its password and every token it held', async () => {
    const person = employee();
    await createExternalUser(h, person.email, 'Linked-Pass1');
    const before = await login(h, person.email, 'Linked-Pass1');
    // A reset link mailed before the link would hand the account a password again.
    const resetId = randomUUID();
    await h.orm.em.fork().getConnection().execute(
      `insert into password_resets (id, created_at, user_id, secret_hash, expires_at) values (?, now(), ?, ?, now() + interval '1 hour')`,
      [resetId, before.user.id, resetSecretHash(h.config.jwtSecret, resetId)]);
    const result = await signIn(person);
    const me = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken: result.token });
    expect(me.body.user).toMatchObject({ id: before.user.id, isExternal: false, personType: 'Employee' });
    expect((await call(h, before, 'GET', '/api/v1/requests')).status).toBe(401);
    const password = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'local', email: person.email, password: 'Linked-Pass1' });
    expect(password.status).toBe(401);
    expect(password.body).toMatchObject({ message: MESSAGES.useSingleSignOn, data: { reason: 'useSingleSignOn' } });
    const reset = await call(h, null, 'PATCH', `/api/v1/password-reset/${resetLinkToken(h.config.jwtSecret, resetId)}`, { password: 'Taken-Over1', confirmPassword: 'Taken-Over1' });
    expect(reset.status).toBe(400);
    expect(reset.body.message).toBe(MESSAGES.resetTokenInvalid);
  });

  it('accepts an answer only in the browser that started the sign-in (login CSRF)', async () => {
    // The attacker starts a sign-in in their own browser and signs in at the IdP as themself…
    const attacker = employee();
    const theirs = signedResponse(answer(await startSignIn(), attacker));
    const attackerJar = jar;
    // …then makes the victim's browser (which started a sign-in of its own) post that answer.
    await startSignIn();
    expect(jar).not.toBe(attackerJar);
    expect(await post(theirs)).toMatchObject({ error: 'otherBrowser', token: null });

    // A cross-site POST carries no SameSite=Lax cookie: the consumer URL hands over to /complete, where it is checked.
    const person = employee();
    const handOver = await post(signedResponse(answer(await startSignIn(), person)), '');
    expect(handOver.location).toMatch(/^\/saml\/OHSU\/complete\?ticket=/);
    const complete = (cookie: string) => h.app.inject({ method: 'GET', url: handOver.location, headers: cookie ? { cookie } : {} });
    expect((await complete('')).headers.location).toBe('/login#error=otherBrowser');
    expect((await complete(attackerJar)).headers.location).toBe('/login#error=otherBrowser');
    const done = await complete(jar);
    expect(done.headers.location).toMatch(/^\/login#access_token=/);
    expect(String(done.headers['set-cookie'])).toMatch(/coi_sso_request=;.*Max-Age=0/);
  });

  it('explains every refusal code in words and names the attributes it reads once', () => {
    for (const code of ['signature', 'expired', 'audience', 'replayed', 'attributes', 'inactiveUser']) {
      expect(SSO_ERRORS[code as keyof typeof SSO_ERRORS]).toMatch(/\w+ \w+/);
    }
    expect(SSO_ERRORS.inactiveUser).toBe('User account has been deactivated.');
    expect(Object.keys(SAML_ATTRIBUTES)).toEqual(expect.arrayContaining(['employeeId', 'email', 'firstName', 'lastName', 'affiliation']));
  });
});

describe('single sign-on without a usable identity provider', () => {
  it.each([
    ['none is configured', {}, 'notConfigured'],
    ['its metadata cannot be read', { SAML_IDP_METADATA_URL: 'http://127.0.0.1:9/metadata' }, 'providerUnavailable'],
    // Without the IdP's entity id no assertion's issuer could be checked: the IdP is not used at all.
    ['nobody knows its entity id', { SAML_IDP_ENTRY_POINT: IDP_ENTRY_POINT, SAML_IDP_CERT: 'MIICdGVzdA==' }, 'providerUnavailable'],
  ])('sends the browser back to the login page when %s', async (_label, env, code) => {
    const other = await startHarness({ worker: false, env });
    try {
      const res = await other.app.inject({ method: 'GET', url: '/saml/OHSU/login' });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/login#error=${code}`);
    } finally {
      await other.stop();
    }
  });

  it('sends the browser back when the metadata is of another entity than SAML_IDP_ENTITY_ID', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-saml-other-idp-'));
    const idp = await startDevIdp({ orm: h.orm, dataDir, serviceProvider: () => sp() });
    const other = await startHarness({ worker: false, env: { SAML_IDP_METADATA_URL: idp.metadataUrl, SAML_IDP_ENTITY_ID: IDP_ENTITY_ID } });
    try {
      expect(idp.entityId).not.toBe(IDP_ENTITY_ID);
      const res = await other.app.inject({ method: 'GET', url: '/saml/OHSU/login' });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/login#error=providerUnavailable');
    } finally {
      await other.stop();
      await idp.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
