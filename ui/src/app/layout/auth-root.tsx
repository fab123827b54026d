import { Outlet } from 'react-router-dom';
import { AuthProvider } from '../../lib/auth';

/** Root route: the session provider sits inside the router so it can redirect. */
export function AuthRoot() {
  return (
    <AuthProvider>
      <Outlet />
    </AuthProvider>
  );
}
