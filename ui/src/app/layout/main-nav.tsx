import { NavLink } from 'react-router-dom';
import { paths } from '../../lib/paths';
import type { User } from '../../types/api';
import { ManageMenu } from './manage-menu';

const linkClass = ({ isActive }: { isActive: boolean }) => `nav__link${isActive ? ' is-active' : ''}`;

/** Menus by role (spec 1 §2): everyone Dashboard and FAQs; admins Search and Manage; external users their profile. */
export function MainNav({ user }: { user: User | null }) {
  if (!user) {
    return (
      <ul className="nav__list">
        <li className="nav__item"><NavLink to={paths.login.getHref()} className={linkClass}>Login</NavLink></li>
      </ul>
    );
  }
  return (
    <ul className="nav__list">
      <li className="nav__item"><NavLink to={paths.home.getHref()} end className={linkClass}>Dashboard</NavLink></li>
      <li className="nav__item"><NavLink to={paths.faqs.getHref()} className={linkClass}>FAQs</NavLink></li>
      {!user.isAdmin && <li className="nav__item"><NavLink to={paths.rosters.getHref()} className={linkClass}>Rosters</NavLink></li>}
      {user.isAdmin && (
        <>
          <li className="nav__item"><NavLink to={paths.search.getHref()} className={linkClass}>Search</NavLink></li>
          <ManageMenu />
        </>
      )}
      {user.isExternal && (
        <>
          <li className="nav__item"><NavLink to={paths.profileEdit.getHref(user.id)} className={linkClass}>Edit Profile</NavLink></li>
          <li className="nav__item"><NavLink to={paths.password.getHref()} className={linkClass}>New Password</NavLink></li>
          <li className="nav__item"><NavLink to={paths.apiKeys.getHref()} className={linkClass}>API Keys</NavLink></li>
          <li className="nav__item"><NavLink to={paths.webhooks.getHref()} className={linkClass}>Webhooks</NavLink></li>
        </>
      )}
    </ul>
  );
}
