import { lazyPage } from '../../../app/lazy-page';
import { useUser } from '../../../lib/auth';

// Each kind of user downloads only its own dashboard.
const AdminDashboard = lazyPage(() => import('./admin-dashboard'), 'AdminDashboard');
const RequesterDashboard = lazyPage(() => import('./requester-dashboard'), 'RequesterDashboard');

/** `/` and `/requests`: the admin work queue for administrators, the requester's own lists otherwise. */
export function DashboardPage() {
  const user = useUser();
  return user.isAdmin ? <AdminDashboard /> : <RequesterDashboard />;
}
