import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { PRODUCT_TITLE } from '../../../../domain';
import { useAuth } from '../../lib/auth';
import { paths } from '../../lib/paths';
import { MainNav } from './main-nav';

/** Header bar on every page: title, menu, and Log Out everywhere but the login page. */
export function AppHeader() {
  const { session, logout } = useAuth();
  const user = session.status === 'authenticated' ? session.user : null;
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();

  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => { if (event.key === 'Escape') setMenuOpen(false); };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Link to={user ? paths.home.getHref() : paths.login.getHref()} className="app-header__title">{PRODUCT_TITLE}</Link>
        <button type="button" className="app-header__menu-toggle" aria-expanded={menuOpen} aria-controls="main-nav"
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
  );
}
