import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { isEmailAddress, MESSAGES } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { TextField } from '../../../components/ui/form-field';
import { Loading } from '../../../components/ui/loading';
import { ApiError } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';
import { listAdmins, useCreateAdmin, useRemoveAdmin, useUpdateAdmin, type AdminEntry, type AdminFields } from '../api/manage-users';

const EMPTY: AdminFields = { firstName: '', lastName: '', email: '' };

/** Trimmed, email lowercased; the rules of spec 1 §5 Manage screens (the server checks them again). */
function check(fields: AdminFields, admins: readonly AdminEntry[], editingId: number | null) {
  const clean = { firstName: fields.firstName.trim(), lastName: fields.lastName.trim(), email: fields.email.trim().toLowerCase() };
  const errors: Partial<AdminFields> = {};
  if (!clean.firstName) errors.firstName = MESSAGES.required;
  if (!clean.lastName) errors.lastName = MESSAGES.required;
  if (!clean.email) errors.email = MESSAGES.required;
  else if (!isEmailAddress(clean.email)) errors.email = MESSAGES.invalidEmail;
  else if (admins.some((a) => a.email === clean.email && a.id !== editingId)) errors.email = MESSAGES.adminEmailInUse;
  return { clean, errors };
}

/** /manage/admins: Manage Administrative Users (spec 1 §2, §5; spec 2 §7.11). */
export function ManageAdminsPage() {
  const me = useUser();
  const admins = useQuery({ queryKey: queryKeys.admins, queryFn: ({ signal }) => listAdmins(signal) });
  const [editing, setEditing] = useState<AdminEntry | null>(null);
  const [fields, setFields] = useState<AdminFields>(EMPTY);
  const [errors, setErrors] = useState<Partial<AdminFields>>({});
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [removing, setRemoving] = useState<AdminEntry | null>(null);
  const create = useCreateAdmin();
  const update = useUpdateAdmin();
  const remove = useRemoveAdmin();
  const busy = create.isPending || update.isPending || remove.isPending;

  const list = admins.data ?? [];
  const ownEntry = editing !== null && editing.email === me.email.toLowerCase();

  function startEdit(admin: AdminEntry) {
    setEditing(admin);
    setFields({ firstName: admin.firstName, lastName: admin.lastName, email: admin.email });
    setErrors({});
    setNotice(null);
  }

  function reset() {
    setEditing(null);
    setFields(EMPTY);
    setErrors({});
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const { clean, errors: found } = check(fields, list, editing?.id ?? null);
    setErrors(found);
    setNotice(null);
    if (Object.keys(found).length) return;
    try {
      if (editing) {
        await update.mutateAsync({ id: editing.id, fields: ownEntry ? { firstName: clean.firstName, lastName: clean.lastName } : clean });
        setNotice({ kind: 'success', text: `${clean.firstName} ${clean.lastName} has been updated.` });
      } else {
        await create.mutateAsync(clean);
        setNotice({ kind: 'success', text: `${clean.firstName} ${clean.lastName} is now an administrator.` });
      }
      reset();
    } catch (error) {
      if (error instanceof ApiError && error.code === 400 && Object.keys(error.errors).length) setErrors(error.errors as Partial<AdminFields>);
      else setNotice({ kind: 'error', text: MESSAGES.genericPageError });
    }
  }

  function confirmRemove() {
    if (!removing) return;
    remove.mutate(removing.id, {
      onSuccess: () => {
        setNotice({ kind: 'success', text: `${removing.firstName} ${removing.lastName} is no longer an administrator.` });
        setRemoving(null);
        if (editing?.id === removing.id) reset();
      },
    });
  }

  const columns: Column<AdminEntry>[] = [
    { header: 'Last Name', cell: (a) => a.lastName },
    { header: 'First Name', cell: (a) => a.firstName },
    { header: 'Email', cell: (a) => a.email },
    {
      header: 'Actions',
      cell: (a) => (
        <div className="button-row button-row--tight">
          <button type="button" className="button button--secondary" onClick={() => startEdit(a)}
            aria-label={`Edit ${a.firstName} ${a.lastName}`}>Edit</button>
          {a.email !== me.email.toLowerCase() && (
            <button type="button" className="button button--danger-outline" onClick={() => { remove.reset(); setRemoving(a); }}
              aria-label={`Remove ${a.firstName} ${a.lastName}`}>Remove</button>
          )}
        </div>
      ),
    },
  ];

  return (
    <section className="page">
      <h1>Manage Administrative Users</h1>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <form onSubmit={submit} noValidate className="card" aria-labelledby="admin-form-heading">
        <h2 id="admin-form-heading">{editing ? `Edit ${editing.firstName} ${editing.lastName}` : 'Add Administrator'}</h2>
        <div className="form-grid">
          <TextField name="firstName" label="First Name" required maxLength={200} value={fields.firstName}
            onChange={(e) => setFields((f) => ({ ...f, firstName: e.target.value }))} error={errors.firstName} />
          <TextField name="lastName" label="Last Name" required maxLength={200} value={fields.lastName}
            onChange={(e) => setFields((f) => ({ ...f, lastName: e.target.value }))} error={errors.lastName} />
          <TextField name="email" label="Email" type="email" required maxLength={200} value={fields.email} disabled={ownEntry}
            hint={ownEntry ? 'You cannot change your own email address.' : undefined}
            onChange={(e) => setFields((f) => ({ ...f, email: e.target.value }))} error={errors.email} />
        </div>
        <div className="button-row">
          <button type="submit" className="button" disabled={busy}>{editing ? 'Save' : 'Add Administrator'}</button>
          {editing && <button type="button" className="button button--secondary" onClick={reset}>Cancel</button>}
        </div>
      </form>
      <h2 id="admins-heading">Administrators</h2>
      {admins.status === 'pending' && <Loading />}
      {admins.status === 'error' && <Alert kind="error">{MESSAGES.genericPageError}</Alert>}
      {admins.status === 'success' && <DataTable columns={columns} rows={list} rowKey={(a) => a.id} labelledBy="admins-heading" />}
      <ConfirmDialog open={removing !== null} message={MESSAGES.removeAdminConfirm} confirmLabel={MESSAGES.deleteConfirmYes}
        busy={busy} error={remove.isError ? MESSAGES.deleteFailed : null} onConfirm={confirmRemove} onCancel={() => setRemoving(null)} />
    </section>
  );
}
