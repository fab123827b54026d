import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { ForbiddenPage } from '../../components/errors/forbidden-page';
import { useUser } from '../../lib/auth';

/** Edit Profile is the signed-in user's own (spec 1 §2): another user's id is the Forbidden page, not a failed load. */
export function OwnProfile({ children }: { children: ReactNode }) {
  const { id } = useParams();
  return id === String(useUser().id) ? children : <ForbiddenPage />;
}
