import { api } from '../../../lib/api-client';
import type { AdminDashboardData } from '../../../types/api';
import { PAGE_SIZE } from './get-requests';

/** Counts, the stale letters' first page and queue counts, after the "Filter By Request Type" label (if any). */
export const getAdminDashboard = (requestTypeLabel: string, signal?: AbortSignal): Promise<AdminDashboardData> =>
  api.get<AdminDashboardData>('/admin-dashboard', { query: { $limit: PAGE_SIZE, requestTypeLabel: requestTypeLabel || undefined }, signal });
