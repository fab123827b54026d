import { Outlet } from 'react-router-dom';
import { AppHeader } from './app-header';
import { PageSuspense } from './page-suspense';
import { MAIN_CONTENT_ID } from './skip-link';

/** Layout of the login screens: header without Log Out, no session needed. */
export function PublicLayout() {
  return (
    <>
      <AppHeader />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="app-main"><PageSuspense><Outlet /></PageSuspense></main>
    </>
  );
}
