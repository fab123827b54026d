/**
 * The access matrix: every route and method of the API × every kind of caller, with the answer
 * the table says. "allowed" means the access rule let the call through: any answer but 401 and 403 (the call itself
 * may still be refused later, e.g. 400 for its body; tests/support/route-calls.ts makes it so where it would change
 * something) and never a 5xx. The table must name exactly the routes the OpenAPI document lists: a new route fails
 * here until someone decides who may call it.
 *
 * Personas: anonymous (no token); an external requester whose email is unconfirmed; a confirmed one (owns the request
 * the calls use); an internal employee; a student; an administrator; a deactivated user (token issued before); the
 * confirmed requester's API key with every scope, which reaches only the routes of api/sessions/api-key-routes.ts
 * (`KEY`), as its owner would, and is refused 403 everywhere else that needs a sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtures, PERSONAS, type Fixtures, type Persona } from '../support/access-fixtures';
import { ROUTE_CALLS } from '../support/route-calls';
import { API_KEY_ROUTES } from '../../api/sessions/api-key-routes';
import { startHarness, type Harness } from '../support/portal-harness';

type Expected = 'allowed' | 401 | 403;
type Rule = Record<Persona, Expected>;

const rule = (allowed: Persona[], deniedSignedIn: 403 = 403): Rule => Object.fromEntries(PERSONAS.map((p) => [p,
  allowed.includes(p) ? 'allowed' : p === 'anonymous' || p === 'deactivated' ? 401 : deniedSignedIn])) as Rule;

/** Anyone, signed in or not (a deactivated user's stale token is ignored, as a browser without one would be). */
const PUBLIC: Rule = Object.fromEntries(PERSONAS.map((p) => [p, 'allowed'])) as Rule;
/** Every signed-in, active user. */
const SIGNED_IN = rule(['unconfirmed', 'confirmed', 'employee', 'student', 'admin']);
/** Administrators only. */
const ADMIN = rule(['admin']);
/** Internal users: staff, students and administrators (the people directory). */
const INTERNAL = rule(['employee', 'student', 'admin']);
/** The request's requester (the confirmed external requester) and administrators. */
const OWNER_OR_ADMIN = rule(['confirmed', 'admin']);
/** The request's requester only: administrators too are refused (spec 1 §6: one's own drafts). */
const OWNER = rule(['confirmed']);
/** A rule that an API key with the scope for the route also passes, as its owner (the confirmed requester) does. */
const KEY = (allowed: Rule): Rule => ({ ...allowed, apiKey: 'allowed' });
/** External accounts, confirmed or not (webhooks report their own requests). */
const EXTERNAL = rule(['unconfirmed', 'confirmed']);
const EXTERNAL_OR_ADMIN = rule(['unconfirmed', 'confirmed', 'admin']);

const MATRIX: Record<string, Rule> = {
  'GET /api/v1/health': PUBLIC,
  'GET /api/v1/health/ready': PUBLIC,
  'GET /api/v1/captcha-challenge': PUBLIC,
  'POST /api/v1/authentication': PUBLIC,
  'DELETE /api/v1/authentication': SIGNED_IN,
  'POST /api/v1/users': PUBLIC,
  'POST /api/v1/password-reset': PUBLIC,
  'GET /api/v1/password-reset/{id}': PUBLIC,
  'PATCH /api/v1/password-reset/{id}': PUBLIC,
  'POST /api/v1/email-confirmations': SIGNED_IN,
  'GET /api/v1/email-confirmations/{token}': PUBLIC,
  'PATCH /api/v1/email-confirmations/{token}': PUBLIC,

  'GET /api/v1/requests': KEY(SIGNED_IN),
  'POST /api/v1/requests': KEY(SIGNED_IN),
  'GET /api/v1/requests/{id}': KEY(OWNER_OR_ADMIN),
  'PATCH /api/v1/requests/{id}': KEY(OWNER_OR_ADMIN),
  'PUT /api/v1/requests/{id}': SIGNED_IN, // 405 for everyone signed in: PATCH is the way
  'DELETE /api/v1/requests/{id}': OWNER,
  'GET /api/v1/admin-dashboard': ADMIN,
  'GET /api/v1/events': SIGNED_IN, // each stream carries only what its user may see (tests/api/request-events.test.ts)

  'POST /api/v1/upload': OWNER_OR_ADMIN,
  'GET /api/v1/documents': KEY(OWNER_OR_ADMIN),
  'POST /api/v1/documents': OWNER_OR_ADMIN,
  'GET /api/v1/documents/{id}': KEY(OWNER_OR_ADMIN),
  'PATCH /api/v1/documents/{id}': ADMIN, // rename, describe, attach to the approval email
  'DELETE /api/v1/documents/{id}': OWNER_OR_ADMIN,
  'GET /api/v1/documents/{requestId}/{name}': KEY(OWNER_OR_ADMIN),

  'GET /api/v1/discussions': OWNER_OR_ADMIN,
  'POST /api/v1/discussions': OWNER_OR_ADMIN,
  'GET /api/v1/discussions/{id}': OWNER_OR_ADMIN,
  'PATCH /api/v1/discussions/{id}': ADMIN,

  'GET /api/v1/request-activity': ADMIN,
  'GET /api/v1/request-activity/{id}': ADMIN,
  'POST /api/v1/send-email': ADMIN,
  'POST /api/v1/generate-pdfs': ADMIN,
  'GET /api/v1/requests/{id}/certificates': KEY(OWNER_OR_ADMIN),
  'POST /api/v1/requests/{id}/certificates/{code}/revoke': ADMIN,

  'GET /api/v1/users': ADMIN,
  'GET /api/v1/users/{id}': OWNER_OR_ADMIN, // an external user reads their own profile
  'PATCH /api/v1/users/{id}': OWNER_OR_ADMIN,
  'PUT /api/v1/users/{id}': ADMIN, // 405 for administrators
  'PATCH /api/v1/users/{id}/password': OWNER,
  'GET /api/v1/search-registrants': ADMIN,

  'GET /api/v1/admins': ADMIN,
  'POST /api/v1/admins': ADMIN,
  'GET /api/v1/admins/{id}': ADMIN,
  'PATCH /api/v1/admins/{id}': ADMIN,
  'DELETE /api/v1/admins/{id}': ADMIN,

  'GET /api/v1/people': INTERNAL,
  'POST /api/v1/people': ADMIN,
  'GET /api/v1/people/{id}': INTERNAL,
  'PATCH /api/v1/people/{id}': ADMIN,

  'GET /api/v1/search-requests': ADMIN,
  'GET /api/v1/faqs': SIGNED_IN,
  'POST /api/v1/faqs': ADMIN,
  'GET /api/v1/faqs/{id}': SIGNED_IN,
  'PUT /api/v1/faqs/{id}': ADMIN,
  'PATCH /api/v1/faqs/{id}': ADMIN,
  'DELETE /api/v1/faqs/{id}': ADMIN,
  'GET /api/v1/policies': ADMIN,
  'POST /api/v1/policies': ADMIN,
  'GET /api/v1/policies/{id}': ADMIN,
  'PATCH /api/v1/policies/{id}': ADMIN,
  'DELETE /api/v1/policies/{id}': ADMIN,
  'GET /api/v1/email-templates': ADMIN,
  'GET /api/v1/email-templates/{id}': ADMIN,
  'PATCH /api/v1/email-templates/{id}': ADMIN,
  'POST /api/v1/email-templates/preview': ADMIN,
  'GET /api/v1/cs-stars': ADMIN,
  'POST /api/v1/cs-stars': ADMIN,
  'GET /api/v1/cs-stars/{id}': ADMIN,
  'GET /api/v1/roster-templates': SIGNED_IN,
  'GET /api/v1/rosters': SIGNED_IN, // each caller's own
  'POST /api/v1/rosters': SIGNED_IN, // rows become the uploader's own drafts
  'GET /api/v1/rosters/{id}': OWNER_OR_ADMIN,
  'PATCH /api/v1/rosters/{id}/rows/{rowId}': OWNER,
  'POST /api/v1/rosters/{id}/submit': OWNER,
  'GET /api/v1/claim-history': ADMIN,
  'POST /api/v1/claim-history': ADMIN,
  'DELETE /api/v1/claim-history': ADMIN,
  'GET /api/v1/claim-history/{id}': ADMIN,
  'GET /api/v1/export-requests': ADMIN,
  'POST /api/v1/export-requests': ADMIN,
  'GET /api/v1/export-requests/{id}': ADMIN,
  'GET /api/v1/export-requests/{id}/file': ADMIN,
  'GET /api/v1/security-log': ADMIN,
  'GET /api/v1/email-problems': ADMIN,
  'GET /api/v1/verify/{code}': PUBLIC,
  'POST /api/v1/verify/pdf': PUBLIC,
  'GET /api/v1/reports': ADMIN,
  'GET /api/v1/reports.xlsx': ADMIN,

  'GET /api/v1/instant-rules': ADMIN,
  'POST /api/v1/instant-rules': ADMIN,
  'POST /api/v1/instant-rules/simulate': ADMIN, // a requester never learns a rule's conditions, nor what it would issue
  'GET /api/v1/instant-rules/{id}': ADMIN,
  'PUT /api/v1/instant-rules/{id}': ADMIN,
  'PUT /api/v1/instant-rules/{id}/enabled': ADMIN,
  'GET /api/v1/instant-rules/{id}/versions': ADMIN,
  'PUT /api/v1/instant-settings': ADMIN,
  'GET /api/v1/instant-checks': ADMIN,
  'POST /api/v1/instant-checks/{id}/confirm': ADMIN,
  'GET /api/v1/requests/{id}/instant-decision': ADMIN,
  'GET /api/v1/instant-holds': ADMIN,
  'PUT /api/v1/users/{id}/instant-hold': ADMIN,

  'GET /api/v1/api-keys': OWNER, // a confirmed external account's own keys
  'POST /api/v1/api-keys': OWNER,
  'DELETE /api/v1/api-keys/{id}': OWNER_OR_ADMIN,
  'GET /api/v1/admin/api-keys': ADMIN,
  // Webhooks are an external account's (its own requests only); administrators read every endpoint and delivery.
  'GET /api/v1/webhook-endpoints': EXTERNAL_OR_ADMIN,
  'POST /api/v1/webhook-endpoints': EXTERNAL,
  'DELETE /api/v1/webhook-endpoints/{id}': OWNER,
  'POST /api/v1/webhook-endpoints/{id}/rotate-secret': OWNER,
  'GET /api/v1/webhook-endpoints/{id}/deliveries': OWNER_OR_ADMIN,
  'POST /api/v1/webhook-deliveries/{id}/resend': OWNER,
  // Renewal season is the office's; a requester answers its question by the token in the email, signed in or not.
  'GET /api/v1/renewals/candidates': ADMIN,
  'PUT /api/v1/requests/{id}/renewal-preference': ADMIN,
  'POST /api/v1/renewal-runs': ADMIN,
  'GET /api/v1/renewal-runs': ADMIN,
  'GET /api/v1/renewal-runs/{id}': ADMIN,
  'POST /api/v1/renewal-runs/{id}/{action}': ADMIN,
  'GET /api/v1/renewal-runs/{id}/items': ADMIN,
  'GET /api/v1/renewal-runs/{id}/result.xlsx': ADMIN,
  'GET /api/v1/renewal-answers/{token}': PUBLIC,
  'POST /api/v1/renewal-answers/{token}': PUBLIC,
};

/** Signing out ends the session: it runs after every other route. */
const LAST = 'DELETE /api/v1/authentication';

let h: Harness;
let fx: Fixtures;
let documented: string[];

beforeAll(async () => {
  // The table's calls never wait on a workflow; a command that would is answered 503 at once (still "allowed").
  // The key persona calls every route in a minute or two: more than a key's calls a minute.
  h = await startHarness({ worker: false, listen: true, env: { WORKFLOW_ANSWER_TIMEOUT_MS: '1000', API_KEY_CALLS_PER_MINUTE: '100000' } });
  fx = await createFixtures(h);
  const doc = (await h.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
  documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
});
afterAll(async () => { await h?.stop(); });

/** The status a persona gets. The live event stream never ends: its status is read from the headers, then dropped. */
async function statusOf(key: string, persona: Persona): Promise<number> {
  const request = await ROUTE_CALLS[key](h, fx);
  const token = fx.sessions[persona]?.token;
  const headers = { ...(request.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
  if (key === 'GET /api/v1/events') {
    const abort = new AbortController();
    const res = await fetch(`${h.baseUrl}${request.url}`, { headers, signal: abort.signal });
    abort.abort();
    return res.status;
  }
  const res = await h.app.inject({ method: request.method as never, url: request.url, headers, ...(request.payload !== undefined ? { payload: request.payload as never } : {}) });
  return res.statusCode;
}

describe('the access matrix', () => {
  it('names exactly the routes the API serves', () => {
    expect(Object.keys(MATRIX).sort()).toEqual([...documented].sort());
    expect(Object.keys(ROUTE_CALLS).sort()).toEqual(Object.keys(MATRIX).sort());
    // The routes a key passes here are exactly the routes the door lets keys call.
    const keyRoutes = Object.keys(MATRIX).filter((k) => MATRIX[k].apiKey === 'allowed' && MATRIX[k].anonymous !== 'allowed');
    expect(keyRoutes.sort()).toEqual(Object.keys(API_KEY_ROUTES).map((k) => k.replace(/:(\w+)/g, '{$1}')).sort());
  });

  it('answers every route × caller as the table says', async () => {
    const wrong: string[] = [];
    const keys = [...Object.keys(MATRIX).filter((k) => k !== LAST).sort(), LAST];
    let cells = 0;
    for (const key of keys) {
      for (const persona of PERSONAS) {
        const status = await statusOf(key, persona);
        cells += 1;
        const expected = MATRIX[key][persona];
        const ok = expected === 'allowed' ? status !== 401 && status !== 403 && status < 500 : status === expected;
        if (!ok) wrong.push(`${key} as ${persona}: ${status}, expected ${expected}`);
      }
    }
    console.log(`[access matrix] ${keys.length} routes × ${PERSONAS.length} callers = ${cells} cells, ${wrong.length} wrong`);
    expect(wrong).toEqual([]);
  });
});
