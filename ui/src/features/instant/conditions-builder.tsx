/**
 * A rule's conditions, edited with react-querybuilder: its JSON is what the rule stores and what the evaluator in
 * domain/instant-rules.ts judges. The fields offered are the ones every chosen certificate type has (RULE_FIELDS),
 * each with its comparisons (RULE_OPERATORS, in RULE_OPERATOR_LABELS' words) and its own value editor.
 */
import { useMemo } from 'react';
import { QueryBuilder, type Field, type RuleGroupType, type Translations } from 'react-querybuilder';
import { CERTIFICATE_TYPES, RULE_FIELDS, RULE_OPERATOR_LABELS, RULE_OPERATORS, ruleFieldOf, type RuleField } from '../../../../domain';
import { LabelledAction, LabelledSelector } from './builder-controls';
import { defaultValueOf, RuleValueEditor } from './rule-value-editor';

const COMBINATORS = [{ name: 'and', label: 'All of these hold' }, { name: 'or', label: 'Any of these holds' }];

const TRANSLATIONS: Partial<Translations> = {
  addRule: { label: 'Add condition', title: 'Add condition' },
  addGroup: { label: 'Add group', title: 'Add group' },
  removeRule: { label: 'Remove', title: 'Remove condition' },
  removeGroup: { label: 'Remove group', title: 'Remove group' },
  combinators: { title: 'Match' },
  fields: { title: 'Field' },
  operators: { title: 'Comparison' },
};

const CONTROLS = { valueSelector: LabelledSelector, actionElement: LabelledAction, valueEditor: RuleValueEditor };

const asField = (f: RuleField, note = ''): Field => ({
  name: f.name, value: f.name, label: `${f.label}${note}`,
  operators: RULE_OPERATORS[f.type].map((o) => ({ name: o, value: o, label: RULE_OPERATOR_LABELS[o] })),
  ...(f.options ? { values: f.options.map((o) => ({ name: o, value: o, label: o })) } : {}),
});

const namedFields = (group: RuleGroupType, into = new Set<string>()): Set<string> => {
  for (const r of group.rules) {
    if (typeof r === 'string') continue;
    if ('rules' in r) namedFields(r, into); else into.add(r.field);
  }
  return into;
};

/**
 * The fields every chosen type has (none chosen yet: the ones every certificate type has). A field the rule already
 * names that is not among them stays listed, marked, so its row shows what it says; saving it is refused by name.
 */
export function fieldsFor(kinds: readonly string[], query: RuleGroupType): Field[] {
  const types: readonly string[] = kinds.length ? kinds : CERTIFICATE_TYPES;
  const offered = RULE_FIELDS.filter((f) => types.every((k) => (f.kinds as readonly string[]).includes(k)));
  const names = new Set(offered.map((f) => f.name));
  const stray = [...namedFields(query)].filter((n) => !names.has(n)).map((n) => ruleFieldOf(n)).filter((f): f is RuleField => !!f);
  return [...offered.map((f) => asField(f)), ...stray.map((f) => asField(f, ' (not in every type chosen)'))];
}

interface ConditionsBuilderProps {
  kinds: readonly string[];
  query: RuleGroupType;
  onChange: (query: RuleGroupType) => void;
  error?: string;
}

export function ConditionsBuilder({ kinds, query, onChange, error }: ConditionsBuilderProps) {
  const fields = useMemo(() => fieldsFor(kinds, query), [kinds, query]);
  return (
    <fieldset className={`form-section instant-conditions${error ? ' field--invalid' : ''}`} aria-describedby={error ? 'rule-conditions-error' : 'rule-conditions-hint'}>
      <legend className="form-section__title">Conditions</legend>
      <p id="rule-conditions-hint" className="field__hint">
        A request is issued at once only when these hold on it as submitted. The fields offered are those every chosen certificate type has.
      </p>
      <QueryBuilder fields={fields} query={query} onQueryChange={onChange} combinators={COMBINATORS} translations={TRANSLATIONS}
        controlElements={CONTROLS} getDefaultValue={defaultValueOf} resetOnOperatorChange listsAsArrays />
      {error && <p id="rule-conditions-error" className="error-text">{error}</p>}
    </fieldset>
  );
}
