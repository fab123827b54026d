import { useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { MESSAGES, PASSWORD_HELP, PASSWORD_RULE } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { TextField } from '../../../components/ui/form-field';
import { Loading } from '../../../components/ui/loading';
import { ApiError } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { checkResetToken, useResetPassword } from '../api/passwords';
import { officeEmail, officePhone } from '../../../lib/office';

/** Where to get that support (spec 1 §1: the phone number appears in reset-password messages). */
const contactLine = () => `Call ${officePhone()} or write to ${officeEmail()}.`;

type Fields = { password: string; confirmPassword: string };

/** /login/password-reset/{id}: a new password with the emailed token (spec 1 §5 Reset password, spec 2 §8.3). */
export function ResetPasswordPage() {
  const { id = '' } = useParams();
  const [validity, setValidity] = useState<'checking' | 'valid' | 'invalid' | 'error'>('checking');
  const [fields, setFields] = useState<Fields>({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Partial<Fields>>({});
  const [state, setState] = useState<'idle' | 'success' | 'error'>('idle');
  const reset = useResetPassword();

  useEffect(() => {
    let live = true;
    checkResetToken(id).then(
      (result) => live && setValidity(result.isValid ? 'valid' : 'invalid'),
      () => live && setValidity('error'),
    );
    return () => { live = false; };
  }, [id]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Partial<Fields> = {};
    if (!fields.password) found.password = MESSAGES.required;
    else if (!PASSWORD_RULE.test(fields.password)) found.password = MESSAGES.passwordRequirements;
    if (!fields.confirmPassword) found.confirmPassword = MESSAGES.required;
    else if (fields.password && fields.confirmPassword !== fields.password) found.confirmPassword = MESSAGES.confirmationMismatch;
    setErrors(found);
    if (Object.keys(found).length) return;
    setState('idle');
    try {
      await reset.mutateAsync({ token: id, body: fields });
      setState('success');
    } catch (error) {
      if (error instanceof ApiError && error.message === MESSAGES.resetTokenInvalid) setValidity('invalid');
      else if (error instanceof ApiError && error.code === 400 && Object.keys(error.errors).length) {
        setErrors(error.errors as Partial<Fields>);
        setState('idle');
        return;
      }
      setState('error');
    }
  }

  let body;
  if (validity === 'checking') body = <Loading />;
  else if (validity === 'invalid') {
    body = (
      <>
        <Alert kind="error">{MESSAGES.resetTokenInvalid}</Alert>
        <p><Link to={paths.forgotPassword.getHref()}>Request a new link</Link></p>
      </>
    );
  } else if (validity === 'error') body = <Alert kind="error">{MESSAGES.resetFailed} {contactLine()}</Alert>;
  else if (state === 'success') {
    body = (
      <>
        <Alert kind="success">{MESSAGES.resetSucceeded}</Alert>
        <p><Link className="button" to={paths.login.getHref()}>Go to Login</Link></p>
      </>
    );
  } else {
    body = (
      <form onSubmit={submit} noValidate className="card">
        {state === 'error' && <Alert kind="error">{MESSAGES.resetFailed} {contactLine()}</Alert>}
        <TextField name="password" label="New Password" type="password" autoComplete="new-password" required hint={PASSWORD_HELP}
          value={fields.password} onChange={(e) => setFields((f) => ({ ...f, password: e.target.value }))} error={errors.password} />
        <TextField name="confirmPassword" label="Confirm New Password" type="password" autoComplete="new-password" required
          value={fields.confirmPassword} onChange={(e) => setFields((f) => ({ ...f, confirmPassword: e.target.value }))} error={errors.confirmPassword} />
        <div className="button-row">
          <button type="submit" className="button" disabled={reset.isPending}>Reset Password</button>
        </div>
      </form>
    );
  }

  return (
    <section className="page page--narrow">
      <h1>Reset Password</h1>
      {body}
    </section>
  );
}
