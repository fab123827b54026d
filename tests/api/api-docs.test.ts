/** The OpenAPI document at /api/docs/json is built from the route schemas; Swagger UI is served at /api/docs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let doc: any;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  const res = await h.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => { await h?.stop(); });

/** Every route of the API, as OpenAPI path → methods. */
const ROUTES: Record<string, string[]> = {
  '/api/v1/health': ['get'],
  '/api/v1/health/ready': ['get'],
  '/api/v1/people': ['get', 'post'],
  '/api/v1/security-log': ['get'],
  '/api/v1/email-problems': ['get'],
  '/api/v1/reports': ['get'],
  '/api/v1/reports.xlsx': ['get'],
  '/api/v1/authentication': ['post', 'delete'],
  '/api/v1/requests': ['get', 'post'],
  '/api/v1/requests/{id}': ['get', 'patch', 'put', 'delete'],
  '/api/v1/admin-dashboard': ['get'],
  '/api/v1/upload': ['post'],
  '/api/v1/documents': ['get', 'post'],
  '/api/v1/documents/{requestId}/{name}': ['get'],
  '/api/v1/documents/{id}': ['get', 'delete', 'patch'],
  '/api/v1/discussions': ['get', 'post'],
  '/api/v1/discussions/{id}': ['get', 'patch'],
  '/api/v1/request-activity': ['get'],
  '/api/v1/request-activity/{id}': ['get'],
  '/api/v1/send-email': ['post'],
  '/api/v1/generate-pdfs': ['post'],
  '/api/v1/requests/{id}/certificates': ['get'],
  '/api/v1/requests/{id}/certificates/{code}/revoke': ['post'],
  '/api/v1/users/{id}/password': ['patch'],
  '/api/v1/password-reset': ['post'],
  '/api/v1/password-reset/{id}': ['get', 'patch'],
  '/api/v1/email-confirmations': ['post'],
  '/api/v1/email-confirmations/{token}': ['get', 'patch'],
  '/api/v1/admins': ['get', 'post'],
  '/api/v1/admins/{id}': ['get', 'patch', 'delete'],
  '/api/v1/search-registrants': ['get'],
  '/api/v1/captcha-challenge': ['get'],
  '/api/v1/users': ['get', 'post'],
  '/api/v1/users/{id}': ['get', 'patch', 'put'],
  // the administrators' desk
  '/api/v1/search-requests': ['get'],
  '/api/v1/faqs': ['get', 'post'],
  '/api/v1/faqs/{id}': ['get', 'put', 'patch', 'delete'],
  '/api/v1/policies': ['get', 'post'],
  '/api/v1/policies/{id}': ['get', 'patch', 'delete'],
  '/api/v1/email-templates': ['get'],
  '/api/v1/email-templates/{id}': ['get', 'patch'],
  '/api/v1/email-templates/preview': ['post'],
  '/api/v1/cs-stars': ['get', 'post'],
  '/api/v1/cs-stars/{id}': ['get'],
  '/api/v1/roster-templates': ['get'],
  '/api/v1/rosters': ['get', 'post'],
  '/api/v1/rosters/{id}': ['get'],
  '/api/v1/rosters/{id}/rows/{rowId}': ['patch'],
  '/api/v1/rosters/{id}/submit': ['post'],
  '/api/v1/claim-history': ['get', 'post', 'delete'],
  '/api/v1/claim-history/{id}': ['get'],
  '/api/v1/export-requests': ['get', 'post'],
  '/api/v1/export-requests/{id}': ['get'],
  '/api/v1/export-requests/{id}/file': ['get'],
  // requests that look after themselves
  '/api/v1/people/{id}': ['get', 'patch'],
  '/api/v1/events': ['get'],
  // the public check of an issued certificate or letter
  '/api/v1/verify/{code}': ['get'],
  '/api/v1/verify/pdf': ['post'],
  // instant certificates: the office's rules, their simulator, the check after issue
  '/api/v1/instant-rules': ['get', 'post'],
  '/api/v1/instant-rules/simulate': ['post'],
  '/api/v1/instant-rules/{id}': ['get', 'put'],
  '/api/v1/instant-rules/{id}/enabled': ['put'],
  '/api/v1/instant-rules/{id}/versions': ['get'],
  '/api/v1/instant-settings': ['put'],
  // an account's signed webhooks
  '/api/v1/webhook-endpoints': ['get', 'post'],
  '/api/v1/webhook-endpoints/{id}': ['delete'],
  '/api/v1/webhook-endpoints/{id}/rotate-secret': ['post'],
  '/api/v1/webhook-endpoints/{id}/deliveries': ['get'],
  '/api/v1/webhook-deliveries/{id}/resend': ['post'],
  // renewal season: the office's list, marks and runs; the requester's answer by the email's token
  '/api/v1/renewals/candidates': ['get'],
  '/api/v1/requests/{id}/renewal-preference': ['put'],
  '/api/v1/renewal-runs': ['get', 'post'],
  '/api/v1/renewal-runs/{id}': ['get'],
  '/api/v1/renewal-runs/{id}/{action}': ['post'],
  '/api/v1/renewal-runs/{id}/items': ['get'],
  '/api/v1/renewal-runs/{id}/result.xlsx': ['get'],
  '/api/v1/renewal-answers/{token}': ['get', 'post'],
  '/api/v1/instant-checks': ['get'],
  '/api/v1/instant-checks/{id}/confirm': ['post'],
  '/api/v1/requests/{id}/instant-decision': ['get'],
  '/api/v1/users/{id}/instant-hold': ['put'],
  '/api/v1/instant-holds': ['get'],
  // organisations' systems: their API keys
  '/api/v1/api-keys': ['get', 'post'],
  '/api/v1/api-keys/{id}': ['delete'],
  '/api/v1/admin/api-keys': ['get'],
};

const jsonSchema = (operation: any, status: string) => operation.responses[status].content['application/json'].schema;
const propertiesOf = (schema: any): string[] => Object.keys(schema.properties ?? {});

describe('GET /api/docs/json', () => {
  it('is an OpenAPI 3 document listing every route of the API, and nothing else', () => {
    expect(doc.openapi).toMatch(/^3\./);
    for (const [path, methods] of Object.entries(ROUTES)) {
      expect(Object.keys(doc.paths[path] ?? {}).sort(), path).toEqual([...methods].sort());
    }
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it('marks bearer authentication, and only sign-in and health as public', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/v1/authentication'].post.security).toEqual([]);
    expect(doc.paths['/api/v1/health'].get.security).toEqual([]);
    expect(doc.paths['/api/v1/verify/{code}'].get.security).toEqual([]);
    expect(doc.paths['/api/v1/verify/pdf'].post.security).toEqual([]);
    expect(doc.paths['/api/v1/requests/{id}'].patch.security).toBeUndefined();
  });

  it('documents responses without internal fields', () => {
    const document = jsonSchema(doc.paths['/api/v1/documents'].post, '201');
    expect(propertiesOf(document)).toEqual(expect.arrayContaining(['id', 'requestId', 'name', 'mimeType', 'size']));
    expect(propertiesOf(document)).not.toContain('storedName');
    expect(propertiesOf(document)).not.toContain('idempotencyKey');
    const list = jsonSchema(doc.paths['/api/v1/documents'].get, '200');
    expect(propertiesOf(list.properties.data.items)).not.toContain('storedName');
    // the upload handle is on the upload answer and the documents body only
    expect(propertiesOf(jsonSchema(doc.paths['/api/v1/upload'].post, '201'))).toContain('storedName');
    expect(propertiesOf(doc.paths['/api/v1/documents'].post.requestBody.content['application/json'].schema)).toContain('storedName');

    const request = jsonSchema(doc.paths['/api/v1/requests/{id}'].patch, '200');
    expect(propertiesOf(request)).toContain('version');
    expect(propertiesOf(request)).not.toContain('lastCommandId');
    const activity = jsonSchema(doc.paths['/api/v1/request-activity'].get, '200').properties.data.items;
    expect(propertiesOf(activity)).toContain('effectId');
    expect(propertiesOf(activity)).not.toContain('idempotencyKey');
  });

  it("documents the live stream's event (contract/request-events.schema.ts) as its 200 schema", () => {
    const event = doc.paths['/api/v1/events'].get.responses['200'].content['text/event-stream'].schema;
    expect(propertiesOf(event).sort()).toEqual(['kind', 'requestId']);
    expect(event.properties.kind.enum).toEqual(['created', 'status', 'message', 'activity', 'resync']);
  });

  it('documents the spec error shape for error statuses', () => {
    const conflict = jsonSchema(doc.paths['/api/v1/requests/{id}'].patch, '409');
    expect(propertiesOf(conflict).sort()).toEqual(['className', 'code', 'data', 'errors', 'message', 'name']);
    expect(Object.keys(doc.paths['/api/v1/send-email'].post.responses)).toEqual(expect.arrayContaining(['202', '400', '401', '403', '404']));
  });
});

describe('API keys in the document', () => {
  it('gives an example of each call\'s body and answer', () => {
    const media = (operation: any, status?: string) => JSON.stringify(status ? operation.responses[status].content['application/json'] : operation.requestBody.content['application/json']);
    const create = doc.paths['/api/v1/api-keys'].post;
    expect(media(create)).toContain('"example":{"name":"Credentialing system"');
    expect(media(create, '201')).toMatch(/"key":"coi_[a-z2-7]{8}_/);
    expect(media(doc.paths['/api/v1/api-keys'].get, '200')).toContain('"example":[{');
    expect(media(doc.paths['/api/v1/api-keys/{id}'].delete, '200')).toContain('"example":{');
    expect(media(doc.paths['/api/v1/admin/api-keys'].get, '200')).toContain('credentialing@clinic.example');
    expect(doc.components.securitySchemes.bearerAuth.description).toContain('coi_');
  });
});

describe('GET /api/docs', () => {
  it('serves Swagger UI', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/docs' });
    const page = res.statusCode === 302
      ? await h.app.inject({ method: 'GET', url: new URL(res.headers.location as string, 'http://x/api/docs/').pathname })
      : res;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('swagger');
  });
});
