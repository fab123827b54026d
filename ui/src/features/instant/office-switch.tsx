import { Alert } from '../../components/ui/alert';
import { displayDateTime } from '../../lib/format';
import { useOfficeSwitch, type InstantSettings } from './instant-api';

/** Who last changed the switch, and when (nobody yet: the office's first look at the page). */
const changedText = (settings: InstantSettings) => (settings.updatedBy
  ? `Changed by ${settings.updatedBy} on ${displayDateTime(settings.updatedAt)}.` : 'Never changed.');

/** The office-wide switch: while it is off, no rule issues anything and every request waits for a person. */
export function OfficeSwitch({ settings }: { settings: InstantSettings }) {
  const change = useOfficeSwitch();
  return (
    <section className="card instant-switch" aria-labelledby="instant-switch-heading">
      <h2 id="instant-switch-heading">Office switch</h2>
      <div className="field field--checkbox">
        <input id="instant-office-switch" type="checkbox" checked={settings.enabled} disabled={change.isPending}
          aria-describedby="instant-switch-state" onChange={(e) => change.mutate(e.target.checked)} />
        <label htmlFor="instant-office-switch">Issue certificates instantly under the rules switched on below</label>
      </div>
      <p id="instant-switch-state" className="muted">
        <strong>{settings.enabled ? 'On' : 'Off'}</strong>
        {settings.enabled ? ': a request a rule covers is approved on submit. ' : ': every request waits for a person. '}
        {changedText(settings)}
      </p>
      {change.isError && <Alert kind="error">{change.error.message}</Alert>}
    </section>
  );
}
