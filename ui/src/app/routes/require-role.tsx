import { Outlet } from 'react-router-dom';
import { ForbiddenPage } from '../../components/errors/forbidden-page';
import { useUser } from '../../lib/auth';
import type { User } from '../../types/api';

/** Screens for one kind of user: admins for /manage and /search, external users for /profile (spec 1 §2). */
export function RequireRole({ allow }: { allow: (user: User) => boolean }) {
  return allow(useUser()) ? <Outlet /> : <ForbiddenPage />;
}

export const isAdmin = (user: User) => user.isAdmin;
export const isExternal = (user: User) => user.isExternal;
