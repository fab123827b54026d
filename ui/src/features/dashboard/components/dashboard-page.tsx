import { EmailConfirmationBanner } from './email-confirmation-banner';
import { useUser } from '../../../lib/auth';
import { AdminDashboard } from './admin-dashboard';
import { RequesterDashboard } from './requester-dashboard';

/**
 * `/` and `/requests`: the admin work queue for administrators, the requester's own lists otherwise. Both are in
 * this screen's chunk (about 1.5 KiB gzip each): a chunk per kind of user would cost one more round trip after the
 * session check on every load.
 */
export function DashboardPage() {
  const user = useUser();
  return (
    <>
      <EmailConfirmationBanner user={user} />
      {user.isAdmin ? <AdminDashboard /> : <RequesterDashboard />}
    </>
  );
}
