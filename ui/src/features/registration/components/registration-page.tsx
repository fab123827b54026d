import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { cleanProfile, formatPhone, MESSAGES, PASSWORD_HELP, validateProfile, type RegistrationFields } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { TextField } from '../../../components/ui/form-field';
import { ApiError } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { registerExternalUser } from '../api/register';
import { Captcha } from './captcha';

type Fields = RegistrationFields & { confirmPassword: string };
const EMPTY: Fields = { lastName: '', firstName: '', middleInitial: '', company: '', phone: '', email: '', password: '', confirmPassword: '' };
type Status = 'pending' | 'submitting' | 'success' | 'error' | 'duplicate';

/**
 * /login/register (title Create New Login, heading Registration): external requesters register (spec 1 §5,
 * spec 2 §8.3). Submit stays disabled until the captcha is solved; the values are cleaned before sending.
 */
export function RegistrationPage() {
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Fields, string>>>({});
  const [status, setStatus] = useState<Status>('pending');
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);

  const set = (name: keyof Fields) => (event: { target: { value: string } }) =>
    setFields((f) => ({ ...f, [name]: name === 'phone' ? formatPhone(event.target.value) : event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const { confirmPassword, ...rest } = fields;
    const clean = cleanProfile(rest);
    const found: Partial<Record<keyof Fields, string>> = validateProfile(clean, true);
    if (!confirmPassword) found.confirmPassword = MESSAGES.required;
    else if (confirmPassword !== fields.password) found.confirmPassword = MESSAGES.passwordsDontMatch;
    setErrors(found);
    if (Object.keys(found).length || !captcha) return;
    setStatus('submitting');
    try {
      await registerExternalUser({ ...clean, altcha: captcha });
      setStatus('success');
    } catch (error) {
      // A captcha is good for one try: a new one for the next.
      setCaptcha(null);
      setCaptchaKey((k) => k + 1);
      if (error instanceof ApiError && error.code === 409) setStatus('duplicate');
      else if (error instanceof ApiError && error.code === 400 && Object.keys(error.errors).length && !error.errors.altcha) {
        setErrors(error.errors as Partial<Record<keyof Fields, string>>);
        setStatus('pending');
      } else setStatus('error');
    }
  }

  let body;
  if (status === 'success') {
    body = (
      <>
        <Alert kind="success">{MESSAGES.registered}</Alert>
        <p><Link className="button" to={paths.login.getHref()}>Go to Login</Link></p>
      </>
    );
  } else if (status === 'duplicate' || status === 'error') {
    body = (
      <>
        {status === 'duplicate' ? (
          <Alert kind="error">
            {MESSAGES.emailInUse} If it is yours, you can <Link to={paths.forgotPassword.getHref()}>reset your password</Link>.
          </Alert>
        ) : (
          <Alert kind="error">{MESSAGES.registrationFailed}. Please try again, or contact the Risk Management team if the problem continues.</Alert>
        )}
        <p><button type="button" className="button button--secondary" onClick={() => setStatus('pending')}>Back to Form</button></p>
      </>
    );
  } else {
    body = (
      <form onSubmit={submit} noValidate className="card" aria-labelledby="registration-heading">
        <div className="form-grid">
          <TextField name="lastName" label="Last Name" required maxLength={200} value={fields.lastName} onChange={set('lastName')} error={errors.lastName} />
          <TextField name="firstName" label="First Name" required maxLength={200} value={fields.firstName} onChange={set('firstName')} error={errors.firstName} />
          <TextField name="middleInitial" label="Middle Initial" maxLength={2} value={fields.middleInitial} onChange={set('middleInitial')} error={errors.middleInitial} />
          <TextField name="company" label="Company" required maxLength={200} value={fields.company} onChange={set('company')} error={errors.company} autoComplete="organization" />
          <TextField name="phone" label="Phone" type="tel" required maxLength={12} placeholder="503-123-1234" value={fields.phone} onChange={set('phone')} error={errors.phone} autoComplete="tel-national" />
          <TextField name="email" label="Email" type="email" required maxLength={200} value={fields.email} onChange={set('email')} error={errors.email} autoComplete="email" />
          <TextField name="password" label="Password" type="password" required hint={PASSWORD_HELP} value={fields.password} onChange={set('password')} error={errors.password} autoComplete="new-password" />
          <TextField name="confirmPassword" label="Re-type Password" type="password" required value={fields.confirmPassword} onChange={set('confirmPassword')} error={errors.confirmPassword} autoComplete="new-password" />
        </div>
        <Captcha key={captchaKey} onChange={setCaptcha} />
        <div className="button-row">
          <button type="submit" className="button" disabled={!captcha || status === 'submitting'}>Register</button>
          <Link to={paths.login.getHref()}>Back to Login</Link>
        </div>
      </form>
    );
  }

  return (
    <section className="page">
      <title>Create New Login</title>
      <h1 id="registration-heading">Registration</h1>
      {body}
    </section>
  );
}
