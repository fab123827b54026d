import { Suspense, type ReactNode } from 'react';
import { Loading } from '../../components/ui/loading';

/**
 * Where a lazily loaded screen (lazy-page.ts) waits for its chunk: the same role="status" Loading text as data
 * loads, inside <main>, so screen readers hear it and axe finds a landmark around it. Router navigations run in a
 * transition, so after the first screen the previous page stays up until the next one's chunk has arrived.
 */
export const PageSuspense = ({ children }: { children: ReactNode }) => <Suspense fallback={<Loading />}>{children}</Suspense>;
