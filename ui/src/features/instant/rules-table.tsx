import { useState } from 'react';
import { INSTANT_MESSAGES } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { DataTable, type Column } from '../../components/ui/data-table';
import { displayDateTime } from '../../lib/format';
import { useRuleSwitch, type InstantRule } from './instant-api';

interface RulesTableProps {
  rules: readonly InstantRule[];
  onEdit: (rule: InstantRule) => void;
  onVersions: (rule: InstantRule) => void;
}

const checkText = (n: number) => (n === 0 ? 'None' : n === 1 ? 'Every one' : `1 in ${n}`);

/**
 * The office's rules, newest first: what each covers, its version, its switch, what it issued, its limits. A rule
 * the portal switched off by itself (it could not be evaluated) says why, in the row and above the table.
 */
export function RulesTable({ rules, onEdit, onVersions }: RulesTableProps) {
  const toggle = useRuleSwitch();
  const [refused, setRefused] = useState<string | null>(null);
  const broken = rules.filter((r) => r.problem);

  const change = (rule: InstantRule, enabled: boolean) => {
    setRefused(null);
    toggle.mutate({ id: rule.id, enabled }, { onError: (error) => setRefused(`${rule.name}: ${error.message}`) });
  };

  const columns: Column<InstantRule>[] = [
    {
      header: 'Rule', cell: (r) => (
        <>
          <strong>{r.name}</strong>
          <div className="muted">Saved {displayDateTime(r.updatedAt)}{r.updatedBy ? ` by ${r.updatedBy}` : ''}</div>
          {r.problem && <p className="error-text instant-problem">{INSTANT_MESSAGES.switchedOff(r.problem)}</p>}
        </>
      ),
    },
    { header: 'Certificate types', cell: (r) => r.kinds.join(', ') },
    { header: 'Version', cell: (r) => `v${r.version}` },
    {
      header: 'On', cell: (r) => (
        <input type="checkbox" checked={r.enabled} disabled={toggle.isPending} aria-label={`${r.name} switched on`}
          onChange={(e) => change(r, e.target.checked)} />
      ),
    },
    { header: 'Issued today / in all', cell: (r) => `${r.issuedToday} / ${r.issuedTotal}` },
    { header: 'Daily cap', cell: (r) => r.dailyCap },
    { header: 'Checked after issue', cell: (r) => checkText(r.checkEvery) },
    {
      header: 'Action', className: 'cell--action', cell: (r) => (
        <div className="button-row button-row--tight">
          <button type="button" className="button button--small button--secondary" aria-label={`Edit ${r.name}`} onClick={() => onEdit(r)}>Edit</button>
          <button type="button" className="button button--small button--secondary" aria-label={`Versions of ${r.name}`} onClick={() => onVersions(r)}>Versions</button>
        </div>
      ),
    },
  ];

  return (
    <>
      {broken.length > 0 && (
        <Alert kind="error">
          {broken.length === 1
            ? `"${broken[0].name}" was switched off: it could not be evaluated. Edit it, save a version that can be, then switch it on again.`
            : `${broken.length} rules were switched off: they could not be evaluated. Edit each, save a version that can be, then switch it on again.`}
        </Alert>
      )}
      {refused && <Alert kind="error">{refused}</Alert>}
      {rules.length
        ? <DataTable columns={columns} rows={rules} rowKey={(r) => r.id} labelledBy="instant-rules-heading" />
        : <p className="empty">No rules yet. Every request waits for a person.</p>}
    </>
  );
}
