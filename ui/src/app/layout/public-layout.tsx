import { Outlet } from 'react-router-dom';
import { AppHeader } from './app-header';

/** Layout of the login screens: header without Log Out, no session needed. */
export function PublicLayout() {
  return (
    <>
      <AppHeader />
      <main className="app-main"><Outlet /></main>
    </>
  );
}
