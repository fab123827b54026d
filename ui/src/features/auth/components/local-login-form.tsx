import { lazy, Suspense, useState, type FormEvent } from 'react';
import { MESSAGES } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { Loading } from '../../../components/ui/loading';
import { TextField } from '../../../components/ui/form-field';
import { Link } from 'react-router-dom';
import { ApiError } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';

// The widget (about 35 KB gzip) loads only when the API asks for the check: most sign-ins never need it.
const Captcha = lazy(() => import('../../../components/captcha').then((m) => ({
  default: ({ email, onChange }: { email: string; onChange: (payload: string | null) => void }) =>
    <m.Captcha challengeUrl={m.signInCheckUrl(email)} onChange={onChange} />,
})));

interface LocalLoginFormProps {
  onLogin: (email: string, password: string, altcha?: string) => Promise<unknown>;
}

function failureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return MESSAGES.loginFailed;
  if (error.reason === 'inactiveUser') return MESSAGES.inactiveUser;
  if (error.reason === 'useSingleSignOn') return MESSAGES.useSingleSignOn;
  if (error.reason === 'checkRequired') return error.message;
  return error.code === 401 || error.code === 400 ? MESSAGES.loginFailed : error.message;
}

/**
 * External requesters: email and password (spec 1 §5 Login: both required). When many sign-ins failed from the
 * user's network, or on the account, the API asks for a solved proof-of-work check (data.reason 'checkRequired'): the
 * form then shows the ALTCHA widget, whose challenge is made for the email typed (its work rises with the failures),
 * and Log In waits for it. A check is good for one try, so each failure brings a fresh one.
 */
export function LocalLoginForm({ onLogin }: LocalLoginFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [checkAsked, setCheckAsked] = useState(false);
  const [check, setCheck] = useState<string | null>(null);
  const [checkKey, setCheckKey] = useState(0);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing = {
      email: email.trim() ? undefined : MESSAGES.required,
      password: password ? undefined : MESSAGES.required,
    };
    setErrors(missing);
    setFailure(null);
    if (missing.email || missing.password || (checkAsked && !check)) return;
    setBusy(true);
    try {
      await onLogin(email.trim().toLowerCase(), password, check ?? undefined);
    } catch (error) {
      setFailure(failureMessage(error));
      if (checkAsked || (error instanceof ApiError && error.reason === 'checkRequired')) {
        setCheckAsked(true);
        setCheck(null);
        setCheckKey((k) => k + 1);
      }
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="external-heading">
      <h2 id="external-heading">External Requesters</h2>
      <form onSubmit={submit} noValidate>
        {failure && <Alert kind="error">{failure}</Alert>}
        <TextField name="email" label="Email" type="email" autoComplete="username" required
          value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} />
        <TextField name="password" label="Password" type="password" autoComplete="current-password" required
          value={password} onChange={(e) => setPassword(e.target.value)} error={errors.password} />
        {checkAsked && <Suspense fallback={<Loading />}><Captcha key={checkKey} email={email.trim().toLowerCase()} onChange={setCheck} /></Suspense>}
        <div className="button-row">
          <button type="submit" className="button" disabled={busy || (checkAsked && !check)}>Log In</button>
        </div>
        <p><Link to={paths.forgotPassword.getHref()}>Forgot Password?</Link></p>
        <p>New here? <Link to={paths.register.getHref()}>Create New Login</Link></p>
      </form>
    </section>
  );
}
