import { api } from '../../../lib/api-client';
import { listData, type ActivityRecord, type Paginated } from '../../../types/api';

/** Audit trail of one request, newest first. */
export const getRequestActivity = (requestId: number, signal?: AbortSignal): Promise<ActivityRecord[]> =>
  api.get<Paginated<ActivityRecord>>('/request-activity', { query: { requestId, $sort: { date: -1 } }, signal }).then(listData);
