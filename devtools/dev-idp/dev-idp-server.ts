/**
 * The development identity provider: stands in for the university's SAML IdP so a newcomer signs in as an
 * employee or student with no outside system. `npm start` runs it on http://127.0.0.1:8026 (DEV_IDP_PORT) and points
 * the API at its metadata. Never with NODE_ENV=production: `startDevIdp` refuses.
 *   GET  /metadata       IdP metadata: entity id, signing certificate, HTTP-Redirect sign-on location
 *   GET  /sso            takes the portal's AuthnRequest (SAMLRequest, RelayState); lists directory people to pick
 *   POST /sso            the pick: answers with a signed SAML Response posted to the portal's consumer URL
 *   GET  /auto-post.js   submits that form (the page also has a Continue button)
 * Nothing at the IdP checks a password: it is a development tool, bound to the loopback interface by default.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { PersonSchema, type Person } from '../../db/entities';
import type { Orm } from '../../db/orm';
import { escapeHtml } from '../outbox-server';
import { loadOrCreateIdpKeys } from './idp-keys';
import { signedResponse, type AssertedPerson } from './saml-response';

interface DevIdpOptions {
  orm: Orm;
  /** where the key and certificate live (a `dev-idp` folder is made in it) */
  dataDir: string;
  /** the portal as service provider: read at each sign-in (tests learn the portal's port after starting the IdP) */
  serviceProvider: () => { entityId: string; acsUrl: string };
  port?: number;
  host?: string;
  env?: NodeJS.ProcessEnv;
}

export interface DevIdp {
  url: string;
  metadataUrl: string;
  entityId: string;
  certificate: string;
  close(): Promise<void>;
}

export class DevIdpRefused extends Error {
  override name = 'DevIdpRefused';
}

const PAGE_SIZE = 25;
const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#f4f6f8}
main{max-width:60rem;margin:0 auto;padding:1.5rem}h1{font-size:1.5rem;margin:.2rem 0 1rem}
.note{background:#fff4d6;border:1px solid #c99a00;padding:.6rem .9rem;border-radius:4px}
form.search{display:flex;gap:.5rem;flex-wrap:wrap;align-items:end;margin:1rem 0}label{display:block;font-weight:600}
input[type=search]{font:inherit;padding:.4rem .5rem;min-width:16rem;border:1px solid #555;border-radius:4px}
button{font:inherit;padding:.4rem .9rem;border-radius:4px;border:1px solid #0b4f8a;background:#0b5cad;color:#fff;cursor:pointer}
button:focus-visible,input:focus-visible{outline:3px solid #e07b00;outline-offset:2px}
ul.people{list-style:none;padding:0;margin:0;display:grid;gap:.5rem}
ul.people li{background:#fff;border:1px solid #ccd3da;border-radius:4px;padding:.6rem .9rem;display:flex;flex-wrap:wrap;
justify-content:space-between;align-items:center;gap:.5rem}.who{overflow-wrap:anywhere}.muted{color:#4a4a4a}`;

function page(title: string, body: string, scripts = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style>${scripts}</head><body><main>${body}</main></body></html>`;
}

interface AuthnRequest { id: string; issuer: string | null }

/** The AuthnRequest of the HTTP-Redirect binding: base64 of raw DEFLATE. */
function readAuthnRequest(samlRequest: string | null): AuthnRequest | null {
  if (!samlRequest) return null;
  try {
    const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
    const root = new DOMParser({ errorHandler: { warning: () => {}, error: () => {} } }).parseFromString(xml, 'text/xml').documentElement;
    if (!root || root.localName !== 'AuthnRequest' || !root.getAttribute('ID')) return null;
    const issuer = root.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Issuer')[0]?.textContent?.trim() ?? null;
    return { id: root.getAttribute('ID')!, issuer };
  } catch {
    return null;
  }
}

const asserted = (person: Person): AssertedPerson => ({
  employeeId: person.employeeId,
  email: person.email ?? '',
  firstName: person.firstName,
  lastName: person.lastName,
  middleInitial: person.middleInitial ?? null,
  affiliation: [person.personType === 'Student' ? 'student' : 'employee'],
});

async function readForm(request: http.IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > 64 * 1024) throw new Error('form too large');
  }
  return new URLSearchParams(body);
}

export async function startDevIdp(options: DevIdpOptions): Promise<DevIdp> {
  const env = options.env ?? process.env;
  if (env.NODE_ENV === 'production') {
    throw new DevIdpRefused('The development identity provider never runs with NODE_ENV=production: it signs anyone in. Configure the university IdP (SAML_IDP_METADATA_URL).');
  }
  const keys = await loadOrCreateIdpKeys(path.join(options.dataDir, 'dev-idp'));
  const certificateBody = keys.certificate.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, '');
  const state = { url: '' };
  const entityId = () => `${state.url}/metadata`;

  const metadata = () => '<?xml version="1.0"?>' +
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${escapeHtml(entityId())}">` +
    '<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">' +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${escapeHtml(state.url)}/sso"/>` +
    '</md:IDPSSODescriptor></md:EntityDescriptor>';

  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

  async function pickPage(samlRequest: string, relayState: string, query: string): Promise<string> {
    const em = options.orm.em.fork();
    const words = query.trim();
    const like = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const where = {
      email: { $ne: null }, employmentStatus: 'A',
      ...(words ? { $or: [{ lastName: { $ilike: like } }, { firstName: { $ilike: like } }, { email: { $ilike: like } }, { employeeId: { $ilike: like } }] } : {}),
    };
    const people = await em.find(PersonSchema, where, { orderBy: { lastName: 'asc', firstName: 'asc', id: 'asc' }, limit: PAGE_SIZE });
    const rows = people.map((person) => {
      const name = `${person.firstName} ${person.lastName}`;
      // Namesakes are common in a directory: the button is described by the person's line (type, id, email).
      return `<li><div class="who" id="person-${person.id}">` +
        `<strong>${escapeHtml(name)}</strong> <span class="muted">(${escapeHtml(person.personType)}, ${escapeHtml(person.employeeId)})</span><br>` +
        `<span class="muted">${escapeHtml(person.email)}</span></div>` +
        `<form method="post" action="/sso">${hidden('SAMLRequest', samlRequest)}${hidden('RelayState', relayState)}${hidden('person', String(person.id))}` +
        `<button type="submit" aria-describedby="person-${person.id}">Sign in as ${escapeHtml(name)}</button></form></li>`;
    }).join('');
    return page('Development sign-in', '<h1>Development sign-in</h1>' +
      '<p class="note">This page stands in for the university single sign-on while developing: pick a person of the seeded ' +
      'directory to sign in as them. It never runs in production.</p>' +
      `<form class="search" method="get" action="/sso" role="search">${hidden('SAMLRequest', samlRequest)}${hidden('RelayState', relayState)}` +
      `<div><label for="q">Name, email or employee id</label><input id="q" type="search" name="q" value="${escapeHtml(words)}"></div>` +
      '<button type="submit">Search</button></form>' +
      (people.length
        ? `<h2>${words ? 'Matching people' : 'Directory'} <span class="muted">(first ${PAGE_SIZE})</span></h2><ul class="people">${rows}</ul>`
        : '<p>No one in the directory matches.</p>'));
  }

  const server = http.createServer((request, response) => {
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, {
        'content-type': `${type}; charset=utf-8`,
        'cache-control': 'no-store',
        'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; form-action 'self' ${new URL(options.serviceProvider().acsUrl).origin}; frame-ancestors 'none'`,
        'x-content-type-options': 'nosniff',
      });
      response.end(body);
    };
    const fail = (status: number, message: string) => send(status, 'text/html', page('Development sign-in', `<h1>Development sign-in</h1><p>${escapeHtml(message)}</p>`));
    void (async () => {
      const url = new URL(request.url ?? '/', state.url);
      if (request.method === 'GET' && url.pathname === '/metadata') return send(200, 'application/samlmetadata+xml', metadata());
      if (request.method === 'GET' && url.pathname === '/auto-post.js') return send(200, 'text/javascript', 'document.getElementById("saml-post").submit();');
      // The address npm start prints: opened directly, begin where the portal's button would (our SP's login route).
      if (request.method === 'GET' && url.pathname === '/') {
        response.writeHead(302, { location: options.serviceProvider().acsUrl.replace(/\/acs$/, '/login'), 'cache-control': 'no-store' });
        return response.end();
      }
      if (url.pathname !== '/sso') return fail(404, 'Not found.');
      const form = request.method === 'POST' ? await readForm(request) : url.searchParams;
      const samlRequest = form.get('SAMLRequest') ?? '';
      const relayState = form.get('RelayState') ?? '';
      const authn = readAuthnRequest(samlRequest);
      const sp = options.serviceProvider();
      if (!authn) return fail(400, 'This page is reached from the portal\'s single sign-on: no valid SAMLRequest came with it.');
      if (authn.issuer !== sp.entityId) return fail(400, `Unknown service provider ${authn.issuer ?? '(none)'}: this IdP answers ${sp.entityId} only.`);
      if (request.method === 'GET') return send(200, 'text/html', await pickPage(samlRequest, relayState, url.searchParams.get('q') ?? ''));
      if (request.method !== 'POST') return fail(405, 'Method not allowed.');
      const person = await options.orm.em.fork().findOne(PersonSchema, { id: Number(form.get('person')) || 0 });
      if (!person?.email) return fail(400, 'That person is not in the directory.');
      const samlResponse = signedResponse({
        idpEntityId: entityId(), spEntityId: sp.entityId, acsUrl: sp.acsUrl, inResponseTo: authn.id, person: asserted(person),
        privateKey: keys.privateKey, certificate: keys.certificate,
      });
      return send(200, 'text/html', page('Signing in…',
        `<h1>Signing in as ${escapeHtml(person.firstName)} ${escapeHtml(person.lastName)}…</h1>` +
        `<form id="saml-post" method="post" action="${escapeHtml(sp.acsUrl)}">${hidden('SAMLResponse', samlResponse)}${hidden('RelayState', relayState)}` +
        '<button type="submit">Continue to the portal</button></form>',
        '<script src="/auto-post.js" defer></script>'));
    })().catch((error: Error) => fail(500, `The development IdP failed: ${error.message}`));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  state.url = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    url: state.url,
    metadataUrl: `${state.url}/metadata`,
    entityId: entityId(),
    certificate: keys.certificate,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
