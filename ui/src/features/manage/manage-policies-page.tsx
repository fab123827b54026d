import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DESK_MESSAGES, dayToServerIso, formatUsd, validatePolicy } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { DataTable, type Column } from '../../components/ui/data-table';
import { TextField } from '../../components/ui/form-field';
import { Loading } from '../../components/ui/loading';
import { Modal } from '../../components/ui/modal';
import { displayDate } from '../../lib/format';
import { queryKeys } from '../../lib/query-keys';
import { useEditor } from '../../components/ui/use-editor';
import { getPolicies, useCreatePolicy, useDeletePolicy, useUpdatePolicy, type Policy } from './policies-api';

const EMPTY = { startDate: '', endDate: '', policyNumber: '', limitClaim: '', annualAggregate: '' };
const GENERIC = DESK_MESSAGES.exportFailed;

/** `/manage/policies` (spec 1 §5): policy years; dates mm/dd/yyyy stored at 11:00 UTC, money in USD, no overlaps. */
export function ManagePoliciesPage() {
  const policies = useQuery({ queryKey: queryKeys.policies, queryFn: ({ signal }) => getPolicies(signal) });
  const [editing, setEditing] = useState<Policy | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Policy | null>(null);
  const editor = useEditor(EMPTY);
  const create = useCreatePolicy();
  const update = useUpdatePolicy();
  const remove = useDeletePolicy();

  const open = (p: Policy | 'new') => {
    editor.reset(p === 'new' ? EMPTY : {
      startDate: displayDate(p.startDate), endDate: displayDate(p.endDate), policyNumber: p.policyNumber,
      limitClaim: formatUsd(p.limitClaim), annualAggregate: formatUsd(p.annualAggregate),
    });
    setEditing(p);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const { errors, values } = validatePolicy(editor.values, true);
    editor.setErrors(errors);
    if (!values) return;
    const body = {
      startDate: dayToServerIso(values.startDay), endDate: dayToServerIso(values.endDay), policyNumber: values.policyNumber,
      limitClaim: values.limitClaim, annualAggregate: values.annualAggregate,
    };
    const ok = await editor.save(() => (editing === 'new' ? create.mutateAsync(body) : update.mutateAsync({ id: (editing as Policy).id, changes: body })), GENERIC);
    if (ok) setEditing(null);
  }

  function confirmDelete() {
    if (deleting) remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) });
  }

  const columns: Column<Policy>[] = [
    { header: 'Start Date', cell: (p) => displayDate(p.startDate), className: 'cell--nowrap' },
    { header: 'End Date', cell: (p) => displayDate(p.endDate), className: 'cell--nowrap' },
    { header: 'Policy Number', cell: (p) => p.policyNumber },
    { header: 'Limit Per Claim', cell: (p) => formatUsd(p.limitClaim) },
    { header: 'Annual Aggregate', cell: (p) => formatUsd(p.annualAggregate) },
    {
      header: 'Action', className: 'cell--action', cell: (p) => (
        <div className="button-row button-row--tight">
          <button type="button" className="button button--small button--secondary" onClick={() => open(p)} aria-label={`Edit policy ${p.policyNumber}`}>Edit</button>
          <button type="button" className="button button--small button--danger-outline" onClick={() => { remove.reset(); setDeleting(p); }} aria-label={`Delete policy ${p.policyNumber}`}>Delete</button>
        </div>
      ),
    },
  ];

  return (
    <section className="page">
      <h1>Manage Policies</h1>
      <div className="button-row"><button type="button" className="button" onClick={() => open('new')}>Add Policy</button></div>
      {policies.status === 'pending' && <Loading />}
      {policies.status === 'error' && <Alert kind="error">{GENERIC}</Alert>}
      {policies.data && <DataTable columns={columns} rows={policies.data} rowKey={(p) => p.id} label="Policy years" />}
      <Modal open={editing !== null} title={editing === 'new' ? 'Add Policy' : 'Edit Policy'} onClose={() => setEditing(null)}>
        <form onSubmit={submit} noValidate>
          <TextField name="startDate" label="Start Date" required placeholder="mm/dd/yyyy" value={editor.values.startDate} onChange={editor.set('startDate')} error={editor.errors.startDate} />
          <TextField name="endDate" label="End Date" required placeholder="mm/dd/yyyy" value={editor.values.endDate} onChange={editor.set('endDate')} error={editor.errors.endDate} />
          <TextField name="policyNumber" label="Policy Number" required maxLength={200} value={editor.values.policyNumber} onChange={editor.set('policyNumber')} error={editor.errors.policyNumber} />
          <TextField name="limitClaim" label="Limit Per Claim (USD)" required inputMode="decimal" value={editor.values.limitClaim} onChange={editor.set('limitClaim')} error={editor.errors.limitClaim} />
          <TextField name="annualAggregate" label="Annual Aggregate (USD)" required inputMode="decimal" value={editor.values.annualAggregate} onChange={editor.set('annualAggregate')} error={editor.errors.annualAggregate} />
          {editor.failure && <Alert kind="error">{editor.failure}</Alert>}
          <div className="button-row">
            <button type="submit" className="button" disabled={create.isPending || update.isPending}>Save</button>
            <button type="button" className="button button--secondary" onClick={() => setEditing(null)}>Cancel</button>
          </div>
        </form>
      </Modal>
      <ConfirmDialog open={deleting !== null} message={DESK_MESSAGES.policyDeleteConfirm} confirmLabel="Yes, delete" error={remove.isError ? GENERIC : null}
        onConfirm={confirmDelete} onCancel={() => setDeleting(null)} />
    </section>
  );
}
