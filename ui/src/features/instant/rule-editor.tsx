import { useEffect, useRef, type FormEvent } from 'react';
import { Alert } from '../../components/ui/alert';
import { TextField } from '../../components/ui/form-field';
import { ConditionsBuilder } from './conditions-builder';
import type { InstantRule } from './instant-api';
import { KindsField } from './kinds-field';
import { SimulationPanel } from './simulation-panel';
import { useRuleForm } from './use-rule-form';

interface RuleEditorProps {
  /** null: a new rule */
  rule: InstantRule | null;
  onSaved: (rule: InstantRule) => void;
  onCancel: () => void;
}

/** Writes a rule: its name, the types it covers, its conditions and limits; simulated before it is trusted. */
export function RuleEditor({ rule, onSaved, onCancel }: RuleEditorProps) {
  const form = useRuleForm(rule);
  const { values, set, errors } = form;
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from the list: the keyboard continues in the editor, not at the button that opened it.
  useEffect(() => { heading.current?.focus(); }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const saved = await form.submit();
    if (saved) onSaved(saved);
  }

  return (
    <section className="card instant-editor" aria-labelledby="rule-editor-heading">
      <h2 id="rule-editor-heading" ref={heading} tabIndex={-1}>{rule ? `Edit rule: ${rule.name} (v${rule.version})` : 'New rule'}</h2>
      {rule
        ? <p className="muted">Saving makes version {rule.version + 1}; requests already decided keep the version that decided them.</p>
        : <Alert kind="info">A new rule starts switched off. Simulate it, save it, then switch it on in the list.</Alert>}
      <form onSubmit={submit} noValidate aria-label={rule ? `Edit rule ${rule.name}` : 'New rule'}>
        <TextField name="ruleName" label="Name" required maxLength={100} value={values.name} error={errors.name}
          onChange={(e) => set.name(e.target.value)} />
        <KindsField kinds={values.kinds} onChange={set.kinds} error={errors.kinds} />
        <div className="form-grid">
          <TextField name="checkEvery" label="Check after issue: one in" inputMode="numeric" value={values.checkEvery} error={errors.checkEvery}
            hint="Every Nth certificate this rule issues goes to Check after issue (0: none)." onChange={(e) => set.checkEvery(e.target.value)} />
          <TextField name="dailyCap" label="Daily cap" inputMode="numeric" value={values.dailyCap} error={errors.dailyCap}
            hint="At most this many a day (office time); the rest wait for a person." onChange={(e) => set.dailyCap(e.target.value)} />
        </div>
        <ConditionsBuilder kinds={values.kinds} query={values.conditions} onChange={set.conditions} error={errors.conditions} />
        {form.failure && <Alert kind="error">{form.failure}</Alert>}
        <div className="button-row">
          <button type="submit" className="button" disabled={form.saving}>{rule ? 'Save New Version' : 'Save Rule'}</button>
          <button type="button" className="button button--secondary" onClick={onCancel}>Cancel</button>
        </div>
      </form>
      <SimulationPanel body={form.body} />
    </section>
  );
}
