import { api } from '../../../lib/api-client';
import { listData, type Paginated, type RequestRecord } from '../../../types/api';

/** The caller's requests (the server limits requesters to their own), newest update first. */
export const getRequests = (signal?: AbortSignal): Promise<RequestRecord[]> =>
  api.get<Paginated<RequestRecord>>('/requests', { query: { $sort: { updatedAt: -1 } }, signal }).then(listData);
