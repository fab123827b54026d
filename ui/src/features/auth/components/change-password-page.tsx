import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { MESSAGES, PASSWORD_HELP, PASSWORD_RULE } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { TextField } from '../../../components/ui/form-field';
import { ApiError } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { paths } from '../../../lib/paths';
import { useChangePassword } from '../api/passwords';

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

const fieldErrorsOf = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.code === 400 && Object.keys(error.errors).length > 0;

/** /password: change password; forced after expiry (external users, 180 days) or when the must-change flag is set. */
export function ChangePasswordPage() {
  const user = useUser();
  const change = useChangePassword(user.id);
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<Partial<Fields>>({});
  const expired = user.isPswdExpired;
  const forced = expired || user.mustChangePassword;

  const set = (name: keyof Fields) => (event: { target: { value: string } }) => setFields((f) => ({ ...f, [name]: event.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(fields);
    setErrors(found);
    if (Object.keys(found).length) return;
    change.mutate(fields, {
      onSuccess: () => setFields(EMPTY),
      onError: (error) => { if (fieldErrorsOf(error)) setErrors(error.errors as Partial<Fields>); },
    });
  }
  // Field errors from the server go under their fields; anything else is said above the form: the server's own words
  // when it says to wait (too many wrong current passwords, or the portal busy hashing), else the generic apology.
  const failed = change.isError && !fieldErrorsOf(change.error);
  const waitMessage = change.error instanceof ApiError && (change.error.code === 429 || change.error.code === 503) ? change.error.message : null;

  return (
    <section className="page page--narrow">
      <h1>{expired ? MESSAGES.passwordExpiredHeading : 'Change Password'}</h1>
      {expired && <p>{MESSAGES.passwordExpiredHelp}</p>}
      {!expired && user.mustChangePassword && <p>{MESSAGES.mustChangePasswordHelp}</p>}
      {change.isSuccess ? (
        <>
          <Alert kind="success">{MESSAGES.passwordChanged}</Alert>
          <p><Link className="button" to={paths.home.getHref()}>Go to the Dashboard</Link></p>
        </>
      ) : (
        <form onSubmit={submit} noValidate className="card">
          {failed && <Alert kind="error">{waitMessage ?? `${MESSAGES.oops}. Please try again.`}</Alert>}
          <TextField name="currentPassword" label="Current Password" type="password" autoComplete="current-password" required
            value={fields.currentPassword} onChange={set('currentPassword')} error={errors.currentPassword} />
          <TextField name="password" label="New Password" type="password" autoComplete="new-password" required hint={PASSWORD_HELP}
            value={fields.password} onChange={set('password')} error={errors.password} />
          <TextField name="confirmPassword" label="Re-type New Password" type="password" autoComplete="new-password" required
            value={fields.confirmPassword} onChange={set('confirmPassword')} error={errors.confirmPassword} />
          <div className="button-row">
            <button type="submit" className="button" disabled={change.isPending}>Change Password</button>
            {!forced && <Link className="button button--secondary" to={paths.home.getHref()}>Cancel</Link>}
          </div>
        </form>
      )}
    </section>
  );
}
