import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { MESSAGES, PASSWORD_HELP, PASSWORD_RULE } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { TextField } from '../../../components/ui/form-field';
import { ApiError } from '../../../lib/api-client';
import { useAuth, useUser } from '../../../lib/auth';
import { paths } from '../../../lib/paths';
import { changePassword } from '../api/passwords';

type Fields = { currentPassword: string; password: string; confirmPassword: string };
const EMPTY: Fields = { currentPassword: '', password: '', confirmPassword: '' };

/** The rules of spec 1 §5 Change password, in the order the user meets them; the server checks them again. */
function validate(fields: Fields): Partial<Fields> {
  const errors: Partial<Fields> = {};
  if (!fields.currentPassword) errors.currentPassword = MESSAGES.required;
  if (!fields.password) errors.password = MESSAGES.required;
  else if (!PASSWORD_RULE.test(fields.password)) errors.password = MESSAGES.passwordRequirements;
  else if (fields.password === fields.currentPassword) errors.password = MESSAGES.samePassword;
  if (!fields.confirmPassword) errors.confirmPassword = MESSAGES.required;
  else if (fields.password && fields.confirmPassword !== fields.password) errors.confirmPassword = MESSAGES.passwordsDontMatch;
  return errors;
}

/** /password: change password; forced after expiry (external users, 180 days) or when the must-change flag is set. */
export function ChangePasswordPage() {
  const user = useUser();
  const { replaceSession } = useAuth();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<Partial<Fields>>({});
  const [state, setState] = useState<'idle' | 'submitting' | 'success' | 'error'>('idle');
  const expired = user.isPswdExpired;
  const forced = expired || user.mustChangePassword;

  const set = (name: keyof Fields) => (event: { target: { value: string } }) => setFields((f) => ({ ...f, [name]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(fields);
    setErrors(found);
    if (Object.keys(found).length) return;
    setState('submitting');
    try {
      const result = await changePassword(user.id, fields);
      replaceSession(result.accessToken, result.user);
      setFields(EMPTY);
      setState('success');
    } catch (error) {
      if (error instanceof ApiError && error.code === 400 && Object.keys(error.errors).length) {
        setErrors(error.errors as Partial<Fields>);
        setState('idle');
      } else {
        setState('error');
      }
    }
  }

  return (
    <section className="page page--narrow">
      <h1>{expired ? MESSAGES.passwordExpiredHeading : 'Change Password'}</h1>
      {expired && <p>{MESSAGES.passwordExpiredHelp}</p>}
      {!expired && user.mustChangePassword && <p>{MESSAGES.mustChangePasswordHelp}</p>}
      {state === 'success' ? (
        <>
          <Alert kind="success">{MESSAGES.passwordChanged}</Alert>
          <p><Link className="button" to={paths.home.getHref()}>Go to the Dashboard</Link></p>
        </>
      ) : (
        <form onSubmit={submit} noValidate className="card">
          {state === 'error' && <Alert kind="error">{MESSAGES.oops}. Please try again.</Alert>}
          <TextField name="currentPassword" label="Current Password" type="password" autoComplete="current-password" required
            value={fields.currentPassword} onChange={set('currentPassword')} error={errors.currentPassword} />
          <TextField name="password" label="New Password" type="password" autoComplete="new-password" required hint={PASSWORD_HELP}
            value={fields.password} onChange={set('password')} error={errors.password} />
          <TextField name="confirmPassword" label="Re-type New Password" type="password" autoComplete="new-password" required
            value={fields.confirmPassword} onChange={set('confirmPassword')} error={errors.confirmPassword} />
          <div className="button-row">
            <button type="submit" className="button" disabled={state === 'submitting'}>Change Password</button>
            {!forced && <Link className="button button--secondary" to={paths.home.getHref()}>Cancel</Link>}
          </div>
        </form>
      )}
    </section>
  );
}
