import { paths } from '../../../lib/paths';

/**
 * Employees and students sign in through the university single sign-on (spec 1 §2 Login): a plain link to the API's
 * /saml/{product}/login, which sends the browser to the university's sign-in page; the answer comes back to the
 * login page with the token in the URL hash (spec 2 §7.2).
 */
export function SsoCard() {
  return (
    <section className="card" aria-labelledby="sso-heading">
      <h2 id="sso-heading">Employees and Students</h2>
      <p>Sign in with your university account through the university single sign-on.</p>
      <p>
        <a className="button" href={paths.samlLogin.getHref()}>
          {/* one flex item, so the text wraps between words and never inside "sign-on" */}
          <span>Sign in with university <span className="nowrap">single sign-on</span></span>
        </a>
      </p>
    </section>
  );
}
