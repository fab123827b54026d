import { describeCondition, type RuleCondition, type RuleGroup } from '../../../../domain';
import { displayDateTime } from '../../lib/format';
import type { RuleVersion } from './instant-api';

const isGroup = (r: RuleCondition | RuleGroup): r is RuleGroup => Array.isArray((r as RuleGroup).rules);

/** A rule's conditions read aloud: "All of these hold: · Requester type is internal · …", groups nested. */
export function ConditionsInWords({ group }: { group: RuleGroup }) {
  const lead = `${group.not ? 'Not so: ' : ''}${group.combinator === 'or' ? 'Any of these holds' : 'All of these hold'}`;
  return (
    <>
      <span>{lead}:</span>
      <ul className="instant-words">
        {group.rules.map((r, i) => <li key={r.id ?? i}>{isGroup(r) ? <ConditionsInWords group={r} /> : describeCondition(r)}</li>)}
      </ul>
    </>
  );
}

const checkText = (n: number) => (n === 0 ? 'none' : n === 1 ? 'every one' : `one in ${n}`);

/** One saved version, read-only. */
export function VersionDetails({ version }: { version: RuleVersion }) {
  return (
    <dl className="details details--compact instant-version">
      <div><dt>Name</dt><dd>{version.name}</dd></div>
      <div><dt>Saved</dt><dd>{displayDateTime(version.savedAt)}{version.savedBy ? ` by ${version.savedBy}` : ''}</dd></div>
      <div><dt>Certificate types</dt><dd>{version.kinds.join(', ')}</dd></div>
      <div><dt>Checked after issue</dt><dd>{checkText(version.checkEvery)}</dd></div>
      <div><dt>Daily cap</dt><dd>{version.dailyCap}</dd></div>
      <div><dt>Conditions</dt><dd><ConditionsInWords group={version.conditions} /></dd></div>
    </dl>
  );
}
