import { CERTIFICATE_TYPES } from '../../../../domain';

interface KindsFieldProps {
  kinds: readonly string[];
  onChange: (kinds: string[]) => void;
  error?: string;
}

/** The certificate types a rule covers (claim-history letters are never covered), as checkboxes. */
export function KindsField({ kinds, onChange, error }: KindsFieldProps) {
  const toggle = (kind: string, on: boolean) =>
    onChange(CERTIFICATE_TYPES.filter((k) => (k === kind ? on : kinds.includes(k))));
  return (
    <fieldset className={`instant-kinds${error ? ' field--invalid' : ''}`} aria-describedby={error ? 'rule-kinds-error' : undefined}>
      <legend className="field__label">Certificate types <span className="field__required" aria-hidden="true">*</span></legend>
      <div className="instant-kinds__list">
        {CERTIFICATE_TYPES.map((kind) => (
          <label key={kind} className="checkbox">
            <input type="checkbox" name="kinds" value={kind} checked={kinds.includes(kind)} aria-invalid={error ? true : undefined}
              onChange={(e) => toggle(kind, e.target.checked)} />
            {kind}
          </label>
        ))}
      </div>
      {error && <p id="rule-kinds-error" className="error-text">{error}</p>}
    </fieldset>
  );
}
