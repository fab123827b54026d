/**
 * A small HTTP client of the portal's API, as a browser uses it, for the production shape's test and bench (they talk
 * to separate processes through the proxy, not to an app in the same process): calls with a bearer token, sign-in,
 * a complete claim-history draft with its signed release, and the accounts an operator would have put in.
 */
import pg from 'pg';
import { hashPassword } from '../services/accounts/password-hash';
import { PRODUCT_NAME } from '../domain/reference-lists';

export type Session = { token: string };
interface Account { email: string; password: string }

/** A one-page PDF, the signed release every claim-history draft carries. */
const SIGNED_RELEASE_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

export async function api(base: string, session: Session | null, method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}/api/v1${url}`, {
    method, headers: { ...(session ? { authorization: `Bearer ${session.token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export async function signIn(base: string, who: Account): Promise<Session> {
  const res = await api(base, null, 'POST', '/authentication', { strategy: 'local', ...who });
  if (res.status >= 300) throw new Error(`sign-in of ${who.email}: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.accessToken };
}

/** A complete claim-history draft with its signed release, through `base`; its id. */
export async function claimHistoryDraft(base: string, session: Session): Promise<number> {
  const created = await api(base, session, 'POST', '/requests', {
    requestType: 'credentialing', lastName: 'Nguyen', firstName: 'Avery', birthDate: '1980-04-12T11:00:00.000Z',
    dateFrom: '2020-01-01T11:00:00.000Z', dateTo: '2024-12-31T11:00:00.000Z',
    providerType: 'Current Employee/Fellow/Resident', reason: 'Future employment', releaseAuthorized: true,
  });
  if (created.status !== 201) throw new Error(`draft: ${created.status} ${JSON.stringify(created.body)}`);
  const form = new FormData();
  form.append('requestId', String(created.body.id));
  form.append('file', new Blob([SIGNED_RELEASE_PDF], { type: 'application/pdf' }), 'release.pdf');
  const up = await fetch(`${base}/api/v1/upload`, { method: 'POST', headers: { authorization: `Bearer ${session.token}` }, body: form });
  if (up.status !== 201) throw new Error(`upload: ${up.status}`);
  const { storedName } = await up.json() as { storedName: string };
  const doc = await api(base, session, 'POST', '/documents', { requestId: created.body.id, filename: 'Signed release.pdf', description: 'Signed release', storedName });
  if (doc.status !== 201) throw new Error(`document: ${doc.status} ${JSON.stringify(doc.body)}`);
  return created.body.id as number;
}

/**
 * No development accounts exist in production: a confirmed external requester, put in the portal's database as an
 * operator would. Administrators are internal accounts that sign in through single sign-on
 * ({@link signInWithSingleSignOn}); a password account is never one in production.
 */
export async function putAccounts(databaseUrl: string, requester: Account): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`insert into users (email, first_name, last_name, phone, company, affiliation, is_external, password_hash, pswd_reset_at, email_confirmed_at, created_at, updated_at)
      values ($1, 'Shape', 'Tester', '503-555-0100', 'Shape Clinic', 'external', true, $2, now(), now(), now(), now()) on conflict do nothing`, [requester.email, await hashPassword(requester.password)]);
  } finally {
    await client.end();
  }
}

const attribute = (html: string, name: string) => {
  const value = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
  if (value === undefined) throw new Error(`single sign-on: no ${name} in ${html.slice(0, 300)}`);
  return value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
};

/**
 * Signs in through the identity provider's stand-in as a browser would, over HTTP: the portal's login redirect (and
 * its binding cookie), the stand-in's pick of the directory person with `email`, its signed answer posted back to
 * the same API. The session of an internal user, created on its first sign-in.
 */
export async function signInWithSingleSignOn(base: string, email: string): Promise<Session> {
  const start = await fetch(`${base}/saml/${PRODUCT_NAME}/login`, { redirect: 'manual' });
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0];
  const idp = new URL(start.headers.get('location') ?? '');
  idp.searchParams.set('q', email);
  const picker = await (await fetch(idp)).text();
  const form = new URLSearchParams({ SAMLRequest: attribute(picker, 'SAMLRequest'), RelayState: attribute(picker, 'RelayState'), person: attribute(picker, 'person') });
  const answer = await (await fetch(new URL('/sso', idp), { method: 'POST', body: form })).text();
  const acs = await fetch(`${base}/saml/${PRODUCT_NAME}/acs`, {
    method: 'POST', redirect: 'manual', headers: { cookie },
    body: new URLSearchParams({ SAMLResponse: attribute(answer, 'SAMLResponse'), RelayState: attribute(answer, 'RelayState') }),
  });
  const token = /#access_token=([^&]+)/.exec(acs.headers.get('location') ?? '')?.[1];
  if (!token) throw new Error(`single sign-on of ${email}: ${acs.status} ${acs.headers.get('location')}`);
  return { token: decodeURIComponent(token) };
}
