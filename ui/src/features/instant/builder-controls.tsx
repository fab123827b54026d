/**
 * react-querybuilder's selectors and buttons with names a screen reader can tell apart: its own controls carry only a
 * `title` ("Field", "Remove rule"), the same on every row. Each control here is named by what it is and where:
 * "Field of condition 2", "Remove condition 3.1", "Add condition to group 3". The control is known by its testID.
 */
import { toOptions, useSelectElementChangeHandler, useValueSelector, type ActionProps, type ValueSelectorProps } from 'react-querybuilder';

/** 1-based position of a rule or group in the query: "2", "3.1"; '' for the whole query. */
export const positionOf = (path: readonly number[]) => path.map((i) => i + 1).join('.');

const NAMES: Record<string, (position: string) => string> = {
  fields: (p) => `Field of condition ${p}`,
  operators: (p) => `Comparison of condition ${p}`,
  combinators: (p) => (p ? `Match of group ${p}` : 'Match'),
  'add-rule': (p) => (p ? `Add condition to group ${p}` : 'Add condition'),
  'add-group': (p) => (p ? `Add group to group ${p}` : 'Add group'),
  'remove-rule': (p) => `Remove condition ${p}`,
  'remove-group': (p) => `Remove group ${p}`,
};

const nameOf = (testID: string | undefined, path: readonly number[], fallback: string | undefined) =>
  (testID && NAMES[testID] ? NAMES[testID](positionOf(path)) : fallback);

export function LabelledSelector(props: ValueSelectorProps) {
  const { onChange, val } = useValueSelector(props);
  const handleChange = useSelectElementChangeHandler({ multiple: props.multiple, onChange });
  return (
    <select className={`field__control field__control--select ${props.className ?? ''}`} value={val} multiple={!!props.multiple}
      aria-label={nameOf(props.testID, props.path, props.title)} disabled={props.disabled} onChange={handleChange}>
      {toOptions(props.options)}
    </select>
  );
}

export function LabelledAction(props: ActionProps) {
  return (
    <button type="button" className={`button button--small button--secondary ${props.className ?? ''}`} disabled={props.disabled}
      aria-label={nameOf(props.testID, props.path, props.title)} onClick={(e) => props.handleOnClick(e)}>
      {props.label}
    </button>
  );
}
