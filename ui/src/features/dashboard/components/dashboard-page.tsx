import { useUser } from '../../../lib/auth';
import { AdminDashboard } from './admin-dashboard';
import { RequesterDashboard } from './requester-dashboard';

/** `/` and `/requests`: the admin work queue for administrators, the requester's own lists otherwise. */
export function DashboardPage() {
  const user = useUser();
  return user.isAdmin ? <AdminDashboard /> : <RequesterDashboard />;
}
