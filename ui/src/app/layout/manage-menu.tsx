import { useEffect, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { MANAGE_MENU } from '../../lib/paths';

/** Admin Manage submenu: opens on click, closes on Escape (focus back on its button), outside click or navigation. */
export function ManageMenu() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLLIElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();

  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      // The focused submenu link disappears with the menu: keep the keyboard user where they were.
      if (ref.current?.contains(document.activeElement)) button.current?.focus();
    };
    const onClick = (event: MouseEvent) => { if (!ref.current?.contains(event.target as Node)) setOpen(false); };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  return (
    <li className={`nav__item nav__item--menu${pathname.startsWith('/manage') ? ' is-active' : ''}`} ref={ref}>
      <button ref={button} type="button" className="nav__link nav__menu-button" aria-expanded={open} aria-controls="manage-menu"
        onClick={() => setOpen((value) => !value)}>
        Manage <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul id="manage-menu" className="nav__submenu">
          {MANAGE_MENU.map((item) => (
            <li key={item.href}><NavLink to={item.href} className="nav__sublink">{item.label}</NavLink></li>
          ))}
        </ul>
      )}
    </li>
  );
}
