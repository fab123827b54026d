/** Canned request rows and a GET /requests that filters and pages them the way the API does (status, $or, $skip). */
import type { RequestRecord } from '../../../ui/src/types/api';
import type { FakeApi } from './fake-api';

let nextId = 1000;

export function row(fields: Partial<RequestRecord> & Pick<RequestRecord, 'status'>): RequestRecord {
  const id = nextId++;
  return {
    id, requestNumber: 50_000 + id, requestType: 'credentialing', requesterId: 11, lastName: `Clinician${id}`, firstName: 'Sam',
    submitDate: '2026-11-20T15:00:00.000Z', createdAt: '2026-11-20T15:00:00.000Z', updatedAt: '2026-11-20T15:00:00.000Z', version: 1,
    ...fields,
  };
}

interface ListQuery { status?: string; $or?: Array<{ status: string }>; requestType?: string; $skip?: number; $limit?: number }

/** Answers GET /requests from `rows` (a live array: tests add rows and then send an event). */
export function serveRequests(api: FakeApi, rows: RequestRecord[]) {
  api.on('GET', '/requests', ({ query }) => {
    const q = (query ?? {}) as ListQuery;
    const statuses = q.status ? [q.status] : (q.$or ?? []).map((s) => s.status);
    const matching = rows.filter((r) => statuses.includes(r.status) && (!q.requestType || r.requestType === q.requestType));
    const skip = q.$skip ?? 0;
    const limit = q.$limit ?? 15;
    return { total: matching.length, limit, skip, data: matching.slice(skip, skip + limit) };
  });
}
