import { api } from '../../../lib/api-client';
import type { AdminDashboardData } from '../../../types/api';

export const getAdminDashboard = (signal?: AbortSignal): Promise<AdminDashboardData> =>
  api.get<AdminDashboardData>('/admin-dashboard', { signal });
