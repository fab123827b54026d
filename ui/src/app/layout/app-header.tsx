import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { PRODUCT_TITLE } from '../../../../domain';
import { useAuth } from '../../lib/auth';
import { paths } from '../../lib/paths';
import { MainNav } from './main-nav';
import { SkipLink } from './skip-link';

/** Header bar on every page: title, menu, and Log Out everywhere but the login page. */
export function AppHeader() {
  const { session, logout } = useAuth();
  const user = session.status === 'authenticated' ? session.user : null;
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      // The Manage submenu handles its own Escape first; a second Escape closes the narrow-screen menu.
      if (event.key !== 'Escape' || document.querySelector('#manage-menu')) return;
      setMenuOpen(false);
      if (document.getElementById('main-nav')?.contains(document.activeElement)) toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <>
      <SkipLink />
      <header className="app-header">
        <div className="app-header__inner">
          <Link to={user ? paths.home.getHref() : paths.login.getHref()} className="app-header__title">{PRODUCT_TITLE}</Link>
          <button ref={toggle} type="button" className="app-header__menu-toggle" aria-expanded={menuOpen} aria-controls="main-nav"
            onClick={() => setMenuOpen((open) => !open)}>
            Menu
          </button>
          <nav id="main-nav" aria-label="Main" className={`nav${menuOpen ? ' is-open' : ''}`}>
            <MainNav user={user} />
            {user && (
              <div className="nav__account">
                <span className="nav__user">{user.firstName} {user.lastName}</span>
                <button type="button" className="button button--ghost" onClick={() => void logout()}>Log Out</button>
              </div>
            )}
          </nav>
        </div>
      </header>
    </>
  );
}
