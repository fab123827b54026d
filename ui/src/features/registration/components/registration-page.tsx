import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { cleanProfile, formatPhone, MESSAGES, PASSWORD_HELP, validateProfile, type RegistrationFields } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { TextField } from '../../../components/ui/form-field';
import { Loading } from '../../../components/ui/loading';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { paths } from '../../../lib/paths';
import { queryKeys } from '../../../lib/query-keys';
import { useFirstFetch } from '../../../lib/use-first-fetch';
import { getExternalUser, useRegisterExternalUser, useUpdateExternalUser } from '../api/register';
import { Captcha } from '../../../components/captcha';

type Fields = RegistrationFields & { confirmPassword: string; currentPassword: string };
const EMPTY: Fields = { lastName: '', firstName: '', middleInitial: '', company: '', phone: '', email: '', password: '', confirmPassword: '', currentPassword: '' };
type Status = 'loading' | 'pending' | 'submitting' | 'success' | 'error' | 'duplicate' | 'refused';
/** register: /login/register; profile: Edit Profile (/profile/{id}/edit); admin: Edit External Requester. */
export type ProfileMode = 'register' | 'profile' | 'admin';

const HEADINGS: Record<ProfileMode, string> = { register: 'Registration', profile: 'Edit Profile', admin: 'Edit External Requester' };
const SUCCESS: Record<ProfileMode, string> = { register: MESSAGES.registered, profile: MESSAGES.profileUpdated, admin: MESSAGES.externalUserUpdated };

/**
 * The registration form of spec 1 §2, §5 and spec 2 §8.3. Registering (title Create New Login, heading
 * Registration): Submit stays disabled until the captcha is solved. The same form, without password and captcha,
 * edits the profile (the external user) or an external requester (an administrator). Values are cleaned before
 * sending. Changing one's own email on Edit Profile asks for the current password.
 */
export function RegistrationPage({ mode = 'register' }: { mode?: ProfileMode }) {
  const { id } = useParams();
  const { revalidate } = useAuth();
  const registering = mode === 'register';
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Fields, string>>>({});
  const [status, setStatus] = useState<Status>(registering ? 'pending' : 'loading');
  const register = useRegisterExternalUser();
  const update = useUpdateExternalUser(id ?? '');
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  /** An address change waits for its confirmation link; shown under the field and after saving. */
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const [inForce, setInForce] = useState('');
  /** A refusal with its own words (too many emails today): shown as the server says it. */
  const [refusal, setRefusal] = useState('');

  // The external user, read once per screen (useFirstFetch): a refetch must not overwrite what is being typed.
  const source = useFirstFetch({
    queryKey: queryKeys.externalUser(id ?? ''),
    queryFn: ({ signal }) => getExternalUser(id!, signal),
    enabled: !registering && !!id,
  });
  // Each answer (a new object per id) fills the form once: adjusting state while rendering, React renders again.
  const [filledFrom, setFilledFrom] = useState<typeof source | null>(null);
  if (source.status !== 'loading' && filledFrom !== source) {
    setFilledFrom(source);
    if (source.status === 'error') setStatus('error');
    else {
      const user = source.data;
      setFields({
        ...EMPTY, lastName: user.lastName, firstName: user.firstName, middleInitial: user.middleInitial ?? '',
        company: user.company ?? '', phone: user.phone ?? '', email: user.email,
      });
      setPendingEmail(user.pendingEmail ?? null);
      setInForce(user.email);
      setStatus('pending');
    }
  }

  // Edit Profile: a new address (not the one in force, not the one already waiting) needs the current password.
  const typedEmail = fields.email.trim().toLowerCase();
  const asksPassword = mode === 'profile' && !!inForce && typedEmail !== inForce && typedEmail !== (pendingEmail ?? '');

  const set = (name: keyof Fields) => (event: { target: { value: string } }) =>
    setFields((f) => ({ ...f, [name]: name === 'phone' ? formatPhone(event.target.value) : event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const { confirmPassword, currentPassword, ...rest } = fields;
    const clean = cleanProfile(rest);
    const found: Partial<Record<keyof Fields, string>> = validateProfile(clean, registering);
    if (asksPassword && !currentPassword) found.currentPassword = MESSAGES.currentPasswordForEmail;
    if (registering) {
      if (!confirmPassword) found.confirmPassword = MESSAGES.required;
      else if (confirmPassword !== fields.password) found.confirmPassword = MESSAGES.passwordsDontMatch;
    }
    setErrors(found);
    if (Object.keys(found).length || (registering && !captcha)) return;
    setStatus('submitting');
    try {
      if (registering) {
        await register.mutateAsync({ ...clean, altcha: captcha! });
        setPendingEmail(clean.email);
      } else {
        const { password: _password, ...profile } = clean;
        void _password;
        const saved = await update.mutateAsync(asksPassword ? { ...profile, currentPassword } : profile);
        setFields((f) => ({ ...f, currentPassword: '' }));
        setPendingEmail(saved.pendingEmail ?? null);
        setInForce(saved.email);
        if (mode === 'profile') void revalidate();
      }
      setStatus('success');
    } catch (error) {
      // A captcha is good for one try: a new one for the next.
      setCaptcha(null);
      setCaptchaKey((k) => k + 1);
      if (error instanceof ApiError && error.code === 409) setStatus('duplicate');
      else if (error instanceof ApiError && error.code === 429) {
        setRefusal(error.message);
        setStatus('refused');
      }
      else if (error instanceof ApiError && error.code === 400 && Object.keys(error.errors).length && !error.errors.altcha) {
        setErrors(error.errors as Partial<Record<keyof Fields, string>>);
        setStatus('pending');
      } else setStatus('error');
    }
  }

  let body;
  if (status === 'loading') body = <Loading />;
  else if (status === 'success') {
    body = (
      <>
        <Alert kind="success">{SUCCESS[mode]}</Alert>
        {pendingEmail && (
          <Alert kind="info">
            {registering
              ? `We sent a confirmation link to ${pendingEmail}. Please open it to confirm your email address.`
              : `We sent a confirmation link to ${pendingEmail}. Until it is used, ${inForce} stays the email address of this account.`}
          </Alert>
        )}
        {registering && <p><Link className="button" to={paths.login.getHref()}>Go to Login</Link></p>}
        {mode === 'profile' && <p><Link className="button" to={paths.home.getHref()}>Go to the Dashboard</Link></p>}
        {mode === 'admin' && <p><Link className="button" to={paths.manage.registrants.getHref()}>Back to Manage External Users</Link></p>}
      </>
    );
  } else if (status === 'duplicate' || status === 'error' || status === 'refused') {
    body = (
      <>
        {status === 'refused' && <Alert kind="error">{refusal}</Alert>}
        {status === 'refused' ? null : status === 'duplicate' ? (
          <Alert kind="error">
            {MESSAGES.emailInUse}{' '}
            {registering
              ? <>If it is yours, you can <Link to={paths.forgotPassword.getHref()}>reset your password</Link>.</>
              : 'Please use a different email address.'}
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
          <TextField name="email" label="Email" type="email" required maxLength={200} value={fields.email} onChange={set('email')} error={errors.email} autoComplete="email"
            hint={!registering && pendingEmail ? `Waiting for confirmation: ${pendingEmail}` : mode === 'admin' ? 'A new address takes effect when the link sent to it is used.' : undefined} />
          {asksPassword && (
            <TextField name="currentPassword" label="Current Password" type="password" required value={fields.currentPassword} onChange={set('currentPassword')}
              error={errors.currentPassword} autoComplete="current-password" hint="Your password, to confirm that you are changing your email address." />
          )}
          {registering && (
            <>
              <TextField name="password" label="Password" type="password" required hint={PASSWORD_HELP} value={fields.password} onChange={set('password')} error={errors.password} autoComplete="new-password" />
              <TextField name="confirmPassword" label="Re-type Password" type="password" required value={fields.confirmPassword} onChange={set('confirmPassword')} error={errors.confirmPassword} autoComplete="new-password" />
            </>
          )}
        </div>
        {registering && <Captcha key={captchaKey} onChange={setCaptcha} />}
        <div className="button-row">
          {registering ? (
            <>
              <button type="submit" className="button" disabled={!captcha || status === 'submitting'}>Register</button>
              <Link to={paths.login.getHref()}>Back to Login</Link>
            </>
          ) : (
            <button type="submit" className="button" disabled={status === 'submitting'}>Update</button>
          )}
        </div>
      </form>
    );
  }

  return (
    <section className="page">
      {registering && <title>Create New Login</title>}
      <h1 id="registration-heading">{HEADINGS[mode]}</h1>
      {body}
    </section>
  );
}
