import { paths } from '../../../lib/paths';
import { UI_TEXT } from '../../../lib/ui-text';

/** Employees and students sign in through the university single sign-on. */
export function SsoCard() {
  return (
    <section className="card" aria-labelledby="sso-heading">
      <h2 id="sso-heading">Employees and Students</h2>
      <p>Sign in with your university account.</p>
      <p><a className="button" href={paths.samlLogin.getHref()}>Employee / Student Log In</a></p>
      <p className="muted">{UI_TEXT.ssoLaterRelease}</p>
    </section>
  );
}
