import { DASHBOARD_FIELDS, type RequestStatus } from '../../../../../domain';
import { api } from '../../../lib/api-client';
import type { Query } from '../../../lib/query-string';
import type { Paginated, RequestRecord } from '../../../types/api';

/** Rows per dashboard table page. */
export const PAGE_SIZE = 15;

/** Which requests one dashboard table lists (the server adds the caller's visibility: requesters see their own). */
export interface RequestListFilter {
  requestType?: 'credentialing' | 'certificate';
  /** one of these statuses (a dashboard group) */
  statuses: readonly RequestStatus[];
  /** a "Filter By Request Type" label, or '' for every type */
  requestTypeLabel: string;
}

/** The query of GET /requests for a filter: one status as an exact match, several as `$or`, newest update first. */
export function requestListQuery(filter: RequestListFilter, skip: number): Query {
  const { statuses } = filter;
  return {
    requestType: filter.requestType,
    ...(statuses.length === 1 ? { status: statuses[0] } : { $or: statuses.map((status) => ({ status })) }),
    requestTypeLabel: filter.requestTypeLabel || undefined,
    $select: [...DASHBOARD_FIELDS],
    $sort: { updatedAt: -1 },
    $limit: PAGE_SIZE,
    $skip: skip,
  };
}

/** One page of a dashboard table. */
export const getRequestPage = (filter: RequestListFilter, skip: number, signal?: AbortSignal): Promise<Paginated<RequestRecord>> =>
  api.get<Paginated<RequestRecord>>('/requests', { query: requestListQuery(filter, skip), signal });
