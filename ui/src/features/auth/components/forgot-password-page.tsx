import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { isEmailAddress, MESSAGES } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { TextField } from '../../../components/ui/form-field';
import { paths } from '../../../lib/paths';
import { useForgotPassword } from '../api/passwords';
import { officeEmail, officePhone } from '../../../lib/office';

/** /login/forgot-password: the answer never says whether the address is registered (spec 2 §8.3). */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const send = useForgotPassword();

  function submit(event: FormEvent) {
    event.preventDefault();
    const value = email.trim().toLowerCase();
    const problem = !value ? MESSAGES.required : !isEmailAddress(value) ? MESSAGES.invalidEmail : undefined;
    setError(problem);
    if (problem) return;
    send.mutate(value);
  }

  return (
    <section className="page page--narrow">
      <h1>Forgot Password?</h1>
      {send.isSuccess ? (
        <Alert kind="success">{MESSAGES.forgotPasswordSent(send.variables)}</Alert>
      ) : (
        <form onSubmit={submit} noValidate className="card">
          <p>Enter the email address you registered with. We will email you a link to choose a new password.</p>
          {send.isError && <Alert kind="error">{MESSAGES.forgotPasswordFailed} at {officePhone()} or <a href={`mailto:${officeEmail()}`}>{officeEmail()}</a>.</Alert>}
          <TextField name="email" label="Email" type="email" autoComplete="email" required
            value={email} onChange={(e) => setEmail(e.target.value)} error={error} />
          <div className="button-row">
            <button type="submit" className="button" disabled={send.isPending}>Send Reset Link</button>
          </div>
        </form>
      )}
      <p><Link to={paths.login.getHref()}>Back to Login</Link></p>
    </section>
  );
}
