/**
 * One realistic call per route of the API (every route is checked for every kind of caller), keyed "METHOD /api/v1/path/{param}" as the OpenAPI
 * document names it. Bodies pass the route's schema where the access decision is made inside the handler (so a
 * refusal there is the access rule speaking, not validation), and are refused by a later rule for callers who may
 * use the route, so the matrix changes nothing it depends on. Routes that remove a row get a row made for the call.
 */
import type { Fixtures } from './access-fixtures';
import { MATRIX_PASSWORD, throwaway } from './access-fixtures';
import type { Harness } from './portal-harness';
import { kysely } from '../../db/kysely';

export interface RouteCall { method: string; url: string; payload?: unknown; headers?: Record<string, string> }
type Builder = (h: Harness, fx: Fixtures) => RouteCall | Promise<RouteCall>;

const V1 = '/api/v1';

/** A webhook endpoint of the confirmed requester, with one delivery of a draft of theirs (made for it: the fuzz may have removed the fixture's). */
async function webhookEndpoint(h: Harness, fx: Fixtures): Promise<{ endpointId: number; deliveryId: number }> {
  const requestId = await throwaway.draft(h, fx);
  const db = kysely(h.orm.em.fork());
  const endpoint = await db.insertInto('webhook_endpoints')
    .values({ owner_id: fx.sessions.confirmed!.user.id as number, url: 'https://hooks.example/matrix', events: ['letter.issued'], secret: 'whsec_bWF0cml4bWF0cml4bWF0cml4bWF0cml4' })
    .returning('id').executeTakeFirstOrThrow();
  const delivery = await db.insertInto('webhook_deliveries')
    .values({ endpoint_id: endpoint.id, event_type: 'letter.issued', request_id: requestId, data: '{}', workflow_started_at: new Date() })
    .returning('id').executeTakeFirstOrThrow();
  return { endpointId: endpoint.id, deliveryId: Number(delivery.id) };
}
const get = (url: string): Builder => () => ({ method: 'GET', url: `${V1}${url}` });
const send = (method: string, url: string, payload: unknown = {}): Builder => () => ({ method, url: `${V1}${url}`, payload });

/** A multipart body as the browser's form sends it. */
export function multipart(fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer; field?: string }): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----matrix0123456789';
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`), file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const ROUTE_CALLS: Record<string, Builder> = {
  'GET /api/v1/health': get('/health'),
  'GET /api/v1/health/ready': get('/health/ready'),
  'GET /api/v1/captcha-challenge': get('/captcha-challenge'),
  // Anyone may sign in (a wrong password's 401 is the answer to the credentials, not an access rule).
  'POST /api/v1/authentication': (_h, fx) => send('POST', '/authentication', { strategy: 'local', email: fx.sessions.confirmed!.user.email, password: MATRIX_PASSWORD })(_h, fx),
  'DELETE /api/v1/authentication': send('DELETE', '/authentication', undefined),
  'POST /api/v1/users': send('POST', '/users', {}),
  'POST /api/v1/password-reset': send('POST', '/password-reset', { email: 'nobody@clinic.example' }),
  'GET /api/v1/password-reset/{id}': get('/password-reset/not-a-real-link'),
  'PATCH /api/v1/password-reset/{id}': send('PATCH', '/password-reset/not-a-real-link', { password: 'New-Pass-123', confirmPassword: 'New-Pass-123' }),
  'POST /api/v1/email-confirmations': send('POST', '/email-confirmations', {}),
  'GET /api/v1/email-confirmations/{token}': get('/email-confirmations/not-a-real-link'),
  'PATCH /api/v1/email-confirmations/{token}': send('PATCH', '/email-confirmations/not-a-real-link', {}),

  'GET /api/v1/requests': get('/requests'),
  'POST /api/v1/requests': send('POST', '/requests', { requestType: 'certificate' }),
  'GET /api/v1/requests/{id}': (_h, fx) => get(`/requests/${fx.requestId}`)(_h, fx),
  'PATCH /api/v1/requests/{id}': (_h, fx) => send('PATCH', `/requests/${fx.requestId}`, { lastName: 'Nguyen' })(_h, fx),
  'PUT /api/v1/requests/{id}': (_h, fx) => send('PUT', `/requests/${fx.requestId}`, {})(_h, fx),
  'DELETE /api/v1/requests/{id}': async (h, fx) => ({ method: 'DELETE', url: `${V1}/requests/${await throwaway.draft(h, fx)}` }),
  'GET /api/v1/admin-dashboard': get('/admin-dashboard'),
  'GET /api/v1/events': get('/events'),

  'POST /api/v1/upload': (_h, fx) => ({ method: 'POST', url: `${V1}/upload`, ...multipart({ requestId: String(fx.requestId) }, { name: 'matrix.exe', type: 'application/x-msdownload', bytes: Buffer.from('MZ not a document') }) }),
  'GET /api/v1/documents': (_h, fx) => get(`/documents?requestId=${fx.requestId}`)(_h, fx),
  'POST /api/v1/documents': (_h, fx) => send('POST', '/documents', { requestId: fx.requestId, filename: 'x.pdf', description: 'x', storedName: `r${fx.requestId + 1}-00000000-0000-0000-0000-000000000000.pdf` })(_h, fx),
  'GET /api/v1/documents/{id}': (_h, fx) => get(`/documents/${fx.documentId}`)(_h, fx),
  'PATCH /api/v1/documents/{id}': (_h, fx) => send('PATCH', `/documents/${fx.documentId}`, { description: 'Signed release' })(_h, fx),
  'DELETE /api/v1/documents/{id}': async (h, fx) => ({ method: 'DELETE', url: `${V1}/documents/${await throwaway.document(h, fx)}` }),
  'GET /api/v1/documents/{requestId}/{name}': (_h, fx) => get(`/documents/${fx.requestId}/${fx.storedName}`)(_h, fx),

  'GET /api/v1/discussions': (_h, fx) => get(`/discussions?requestId=${fx.requestId}`)(_h, fx),
  'POST /api/v1/discussions': (_h, fx) => send('POST', '/discussions', { requestId: fx.requestId, message: 'Hello', discussionId: 'NOSUCHTHREAD' })(_h, fx),
  'GET /api/v1/discussions/{id}': (_h, fx) => get(`/discussions/${fx.discussionId}`)(_h, fx),
  'PATCH /api/v1/discussions/{id}': (_h, fx) => send('PATCH', `/discussions/${fx.discussionId}`, { deletedAt: new Date().toISOString() })(_h, fx),

  'GET /api/v1/request-activity': (_h, fx) => get(`/request-activity?requestId=${fx.requestId}`)(_h, fx),
  'GET /api/v1/request-activity/{id}': (_h, fx) => get(`/request-activity/${fx.activityId}`)(_h, fx),
  'POST /api/v1/send-email': (_h, fx) => send('POST', '/send-email', { requestId: fx.requestId, templateTitle: 'Not a template' })(_h, fx),
  'POST /api/v1/generate-pdfs': (_h, fx) => send('POST', '/generate-pdfs', { requestId: fx.requestId })(_h, fx),
  'GET /api/v1/requests/{id}/certificates': (_h, fx) => get(`/requests/${fx.requestId}/certificates`)(_h, fx),
  'POST /api/v1/requests/{id}/certificates/{code}/revoke': (_h, fx) => send('POST', `/requests/${fx.requestId}/certificates/ABCD-EFGH-JKMNP/revoke`, { reason: 'Issued in error' })(_h, fx),

  'GET /api/v1/users': get('/users'),
  'GET /api/v1/users/{id}': (_h, fx) => get(`/users/${fx.ownUserId}`)(_h, fx),
  'PATCH /api/v1/users/{id}': (_h, fx) => send('PATCH', `/users/${fx.ownUserId}`, { phone: 'not a phone' })(_h, fx),
  'PUT /api/v1/users/{id}': (_h, fx) => send('PUT', `/users/${fx.ownUserId}`, {})(_h, fx),
  'PATCH /api/v1/users/{id}/password': (_h, fx) => send('PATCH', `/users/${fx.ownUserId}/password`, { currentPassword: 'Wrong-Pass1', password: 'Newer-Pass12', confirmPassword: 'Newer-Pass12' })(_h, fx),
  'GET /api/v1/search-registrants': get('/search-registrants?lastName=Requester'),

  'GET /api/v1/admins': get('/admins'),
  'POST /api/v1/admins': send('POST', '/admins', {}),
  'GET /api/v1/admins/{id}': (_h, fx) => get(`/admins/${fx.adminRowId}`)(_h, fx),
  'PATCH /api/v1/admins/{id}': (_h, fx) => send('PATCH', `/admins/${fx.adminRowId}`, { email: 'not an email' })(_h, fx),
  'DELETE /api/v1/admins/{id}': async (h) => ({ method: 'DELETE', url: `${V1}/admins/${await throwaway.admin(h)}` }),

  'GET /api/v1/people': get('/people?lastName=Smith&firstName=Pat'),
  'POST /api/v1/people': send('POST', '/people', {}),
  'GET /api/v1/people/{id}': (_h, fx) => get(`/people/${fx.personId}`)(_h, fx),
  'PATCH /api/v1/people/{id}': (_h, fx) => send('PATCH', `/people/${fx.personId}`, { birthDate: 'not a date' })(_h, fx),

  'GET /api/v1/search-requests': get('/search-requests?clinLastName=Nguyen'),
  'GET /api/v1/faqs': get('/faqs'),
  'POST /api/v1/faqs': send('POST', '/faqs', {}),
  'GET /api/v1/faqs/{id}': (_h, fx) => get(`/faqs/${fx.faqId}`)(_h, fx),
  'PUT /api/v1/faqs/{id}': (_h, fx) => send('PUT', `/faqs/${fx.faqId}`, {})(_h, fx),
  'PATCH /api/v1/faqs/{id}': (_h, fx) => send('PATCH', `/faqs/${fx.faqId}`, { question: '' })(_h, fx),
  'DELETE /api/v1/faqs/{id}': async (h) => ({ method: 'DELETE', url: `${V1}/faqs/${await throwaway.faq(h)}` }),
  'GET /api/v1/policies': get('/policies'),
  'POST /api/v1/policies': send('POST', '/policies', {}),
  'GET /api/v1/policies/{id}': (_h, fx) => get(`/policies/${fx.policyId}`)(_h, fx),
  'PATCH /api/v1/policies/{id}': (_h, fx) => send('PATCH', `/policies/${fx.policyId}`, { startDate: 'not a date' })(_h, fx),
  'DELETE /api/v1/policies/{id}': async (h) => ({ method: 'DELETE', url: `${V1}/policies/${await throwaway.policy(h)}` }),
  'GET /api/v1/email-templates': get('/email-templates'),
  'GET /api/v1/email-templates/{id}': (_h, fx) => get(`/email-templates/${fx.templateId}`)(_h, fx),
  'PATCH /api/v1/email-templates/{id}': (_h, fx) => send('PATCH', `/email-templates/${fx.templateId}`, { body: '{{#if}}' })(_h, fx),
  'POST /api/v1/email-templates/preview': send('POST', '/email-templates/preview', { subject: 'Hello {{nope}}' }),
  'GET /api/v1/cs-stars': get('/cs-stars?$limit=1'),
  // Rosters: an empty file is refused (nothing created); the fixture's roster holds one invalid row, which a fix of no
  // cells leaves invalid and "Submit all valid" leaves alone.
  'GET /api/v1/roster-templates': get('/roster-templates?kind=credentialing&format=csv'),
  'GET /api/v1/rosters': get('/rosters'),
  'POST /api/v1/rosters': () => ({ method: 'POST', url: `${V1}/rosters?kind=credentialing`, ...multipart({}, { name: 'roster.csv', type: 'text/csv', bytes: Buffer.from('') }) }),
  'GET /api/v1/rosters/{id}': (_h, fx) => get(`/rosters/${fx.rosterId}`)(_h, fx),
  'PATCH /api/v1/rosters/{id}/rows/{rowId}': (_h, fx) => send('PATCH', `/rosters/${fx.rosterId}/rows/${fx.rosterRowId}`, { values: {} })(_h, fx),
  'POST /api/v1/rosters/{id}/submit': (_h, fx) => send('POST', `/rosters/${fx.rosterId}/submit`, undefined)(_h, fx),
  'POST /api/v1/cs-stars': () => ({ method: 'POST', url: `${V1}/cs-stars`, ...multipart({ limit: '10' }, { name: 'claims.csv', type: 'text/csv', bytes: Buffer.from('not,a,claims,file\n') }) }),
  'GET /api/v1/cs-stars/{id}': (_h, fx) => get(`/cs-stars/${fx.claimId}`)(_h, fx),
  'GET /api/v1/claim-history': (_h, fx) => get(`/claim-history?requestId=${fx.requestId}&lastName=Matrix`)(_h, fx),
  'POST /api/v1/claim-history': (_h, fx) => send('POST', '/claim-history', { requestId: fx.requestId, claimIds: [2147483000] })(_h, fx),
  'DELETE /api/v1/claim-history': () => ({ method: 'DELETE', url: `${V1}/claim-history?requestId=2147483000` }),
  'GET /api/v1/claim-history/{id}': (_h, fx) => get(`/claim-history/${fx.claimHistoryId}`)(_h, fx),
  'GET /api/v1/export-requests': get('/export-requests'),
  'POST /api/v1/export-requests': send('POST', '/export-requests', { filename: 'not_an_export_name' }),
  'GET /api/v1/export-requests/{id}': (_h, fx) => get(`/export-requests/${fx.exportId}`)(_h, fx),
  'GET /api/v1/export-requests/{id}/file': (_h, fx) => get(`/export-requests/${fx.exportId}/file`)(_h, fx),
  'GET /api/v1/security-log': get('/security-log'),
  'GET /api/v1/email-problems': get('/email-problems'),
  'GET /api/v1/verify/{code}': get('/verify/0000-0000-00000'),
  'POST /api/v1/verify/pdf': () => ({ method: 'POST', url: `${V1}/verify/pdf`, ...multipart({}, { name: 'certificate.pdf', type: 'application/pdf', bytes: Buffer.from('%PDF-1.4\n%%EOF\n') }) }),
  'GET /api/v1/reports': get('/reports?from=2026-01-01&to=2026-03-31'),
  'GET /api/v1/reports.xlsx': get('/reports.xlsx?from=2026-01-01&to=2026-03-31'),

  // Instant certificates: writes are refused by their schema (an empty body) or find no row; the simulator only reads.
  'GET /api/v1/instant-rules': get('/instant-rules'),
  'POST /api/v1/instant-rules': send('POST', '/instant-rules', {}),
  'POST /api/v1/instant-rules/simulate': send('POST', '/instant-rules/simulate', {
    kinds: ['Event'], conditions: { combinator: 'and', rules: [{ field: 'eventType', operator: '=', value: 'Camp' }] },
  }),
  'GET /api/v1/instant-rules/{id}': get('/instant-rules/2147483000'),
  'PUT /api/v1/instant-rules/{id}': send('PUT', '/instant-rules/2147483000', {}),
  'PUT /api/v1/instant-rules/{id}/enabled': send('PUT', '/instant-rules/2147483000/enabled', {}),
  'GET /api/v1/instant-rules/{id}/versions': get('/instant-rules/2147483000/versions'),
  'PUT /api/v1/instant-settings': send('PUT', '/instant-settings', {}),
  'GET /api/v1/instant-checks': get('/instant-checks'),
  'POST /api/v1/instant-checks/{id}/confirm': send('POST', '/instant-checks/2147483000/confirm', undefined),
  'GET /api/v1/requests/{id}/instant-decision': (_h, fx) => get(`/requests/${fx.requestId}/instant-decision`)(_h, fx),
  'GET /api/v1/instant-holds': get('/instant-holds'),
  'PUT /api/v1/users/{id}/instant-hold': (_h, fx) => send('PUT', `/users/${fx.ownUserId}/instant-hold`, {})(_h, fx),

  // API keys: a valid body, since who may hold keys is decided after the body is read (a confirmed requester makes one).
  'GET /api/v1/api-keys': get('/api-keys'),
  'POST /api/v1/api-keys': send('POST', '/api-keys', { name: 'Matrix call', scopes: ['requests:read'] }),
  'DELETE /api/v1/api-keys/{id}': async (h, fx) => ({ method: 'DELETE', url: `${V1}/api-keys/${await throwaway.apiKey(h, fx)}` }),
  'GET /api/v1/admin/api-keys': get('/admin/api-keys'),
  // Webhooks: a registration refused by the address rules (http, loopback) for the callers who may register.
  'GET /api/v1/webhook-endpoints': get('/webhook-endpoints'),
  'POST /api/v1/webhook-endpoints': send('POST', '/webhook-endpoints', { url: 'http://127.0.0.1/hook', events: ['letter.issued'] }),
  'DELETE /api/v1/webhook-endpoints/{id}': async (h, fx) => ({ method: 'DELETE', url: `${V1}/webhook-endpoints/${(await webhookEndpoint(h, fx)).endpointId}` }),
  'POST /api/v1/webhook-endpoints/{id}/rotate-secret': async (h, fx) => ({ method: 'POST', url: `${V1}/webhook-endpoints/${(await webhookEndpoint(h, fx)).endpointId}/rotate-secret` }),
  'GET /api/v1/webhook-endpoints/{id}/deliveries': async (h, fx) => get(`/webhook-endpoints/${(await webhookEndpoint(h, fx)).endpointId}/deliveries`)(h, fx),
  'POST /api/v1/webhook-deliveries/{id}/resend': async (h, fx) => ({ method: 'POST', url: `${V1}/webhook-deliveries/${(await webhookEndpoint(h, fx)).deliveryId}/resend` }),
  // Renewal season: calls that change nothing (no run exists; a body the schema refuses; an unknown token).
  'GET /api/v1/renewals/candidates': get('/renewals/candidates'),
  'PUT /api/v1/requests/{id}/renewal-preference': (_h, fx) => send('PUT', `/requests/${fx.requestId}/renewal-preference`, { preference: 'sometimes' })(_h, fx),
  'POST /api/v1/renewal-runs': send('POST', '/renewal-runs', { mode: 'renew' }),
  'GET /api/v1/renewal-runs': get('/renewal-runs'),
  'GET /api/v1/renewal-runs/{id}': get('/renewal-runs/999999'),
  'POST /api/v1/renewal-runs/{id}/{action}': send('POST', '/renewal-runs/999999/pause'),
  'GET /api/v1/renewal-runs/{id}/items': get('/renewal-runs/999999/items'),
  'GET /api/v1/renewal-runs/{id}/result.xlsx': get('/renewal-runs/999999/result.xlsx'),
  'GET /api/v1/renewal-answers/{token}': get(`/renewal-answers/${'x'.repeat(32)}`),
  'POST /api/v1/renewal-answers/{token}': send('POST', `/renewal-answers/${'x'.repeat(32)}`, { answer: 'yes' }),
};

