import { useState, type FormEvent } from 'react';
import { MESSAGES } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { TextField } from '../../../components/ui/form-field';
import { Link } from 'react-router-dom';
import { ApiError } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';

interface LocalLoginFormProps {
  onLogin: (email: string, password: string) => Promise<unknown>;
}

function failureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return MESSAGES.loginFailed;
  if (error.reason === 'inactiveUser') return MESSAGES.inactiveUser;
  if (error.reason === 'useSingleSignOn') return MESSAGES.useSingleSignOn;
  return error.code === 401 || error.code === 400 ? MESSAGES.loginFailed : error.message;
}

/** External requesters: email and password (spec 1 §5 Login: both required). */
export function LocalLoginForm({ onLogin }: LocalLoginFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing = {
      email: email.trim() ? undefined : MESSAGES.required,
      password: password ? undefined : MESSAGES.required,
    };
    setErrors(missing);
    setFailure(null);
    if (missing.email || missing.password) return;
    setBusy(true);
    try {
      await onLogin(email.trim().toLowerCase(), password);
    } catch (error) {
      setFailure(failureMessage(error));
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
        <div className="button-row">
          <button type="submit" className="button" disabled={busy}>Log In</button>
        </div>
        <p><Link to={paths.forgotPassword.getHref()}>Forgot Password?</Link></p>
        <p>New here? <Link to={paths.register.getHref()}>Create New Login</Link></p>
      </form>
    </section>
  );
}
