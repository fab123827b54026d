import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DESK_MESSAGES, EMAIL_BODY_MAX, EMAIL_SUBJECT_MAX, emailTemplateErrors, TEMPLATE_VARIABLES } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { DataTable, type Column } from '../../components/ui/data-table';
import { TextAreaField, TextField } from '../../components/ui/form-field';
import { Loading } from '../../components/ui/loading';
import { Modal } from '../../components/ui/modal';
import { queryKeys } from '../../lib/query-keys';
import { useEditor } from '../../components/ui/use-editor';
import { getTemplates, usePreviewTemplate, useUpdateTemplate, type EmailTemplate } from './templates-api';

const VARIABLES_HINT = `Variables: ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(' ')}; blocks {{#if …}}…{{/if}}.`;

/** `/manage/templates` (spec 1 §5, spec 2 §7.9): templates by order; subject and body with counters, preview, update. */
export function ManageTemplatesPage() {
  const templates = useQuery({ queryKey: queryKeys.templates, queryFn: ({ signal }) => getTemplates(signal) });
  const [editing, setEditing] = useState<EmailTemplate | null>(null);
  const [updated, setUpdated] = useState(false);
  const [preview, setPreview] = useState<{ subject: string; body: string; requestNumber: number | null; sample: boolean } | null>(null);
  const editor = useEditor({ subject: '', body: '' });
  const update = useUpdateTemplate();
  const previewing = usePreviewTemplate();
  const busy = update.isPending || previewing.isPending;

  const open = (t: EmailTemplate) => { editor.reset({ subject: t.subject, body: t.body }); setPreview(null); setUpdated(false); setEditing(t); };

  const check = () => {
    const errors = emailTemplateErrors(editor.values);
    editor.setErrors(errors);
    return !Object.keys(errors).length;
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setUpdated(false);
    if (!check() || !editing) return;
    const ok = await editor.save(() => update.mutateAsync({ id: editing.id, changes: editor.values }), DESK_MESSAGES.templateUpdateFailed);
    if (ok) setUpdated(true);
  }

  async function showPreview() {
    setUpdated(false);
    if (!check()) return;
    await editor.save(async () => setPreview(await previewing.mutateAsync(editor.values)), DESK_MESSAGES.templateUpdateFailed);
  }

  const columns: Column<EmailTemplate>[] = [
    { header: 'Order', cell: (t) => t.order },
    { header: 'Title', cell: (t) => t.title },
    { header: 'Subject', cell: (t) => t.subject },
    { header: 'Action', className: 'cell--action', cell: (t) => <button type="button" className="button button--small button--secondary" onClick={() => open(t)} aria-label={`Edit ${t.title}`}>Edit</button> },
  ];

  return (
    <section className="page">
      <h1>Email Templates</h1>
      {templates.status === 'pending' && <Loading />}
      {templates.status === 'error' && <Alert kind="error">{DESK_MESSAGES.templatesLoadFailed}</Alert>}
      {templates.data && <DataTable columns={columns} rows={templates.data} rowKey={(t) => t.id} label="Email templates" />}
      <Modal open={editing !== null} title={editing ? `Edit Template: ${editing.title}` : 'Edit Template'} onClose={() => setEditing(null)} wide>
        <form onSubmit={submit} noValidate>
          <TextField name="subject" label="Subject" required maxLength={EMAIL_SUBJECT_MAX} value={editor.values.subject} onChange={editor.set('subject')} error={editor.errors.subject}
            hint={`${EMAIL_SUBJECT_MAX - editor.values.subject.length} characters remaining`} />
          <TextAreaField name="body" label="Body" required rows={12} maxLength={EMAIL_BODY_MAX} value={editor.values.body} onChange={editor.set('body')} error={editor.errors.body}
            hint={<>{EMAIL_BODY_MAX - editor.values.body.length} characters remaining. {VARIABLES_HINT}</>} />
          {editor.failure && <Alert kind="error">{editor.failure}</Alert>}
          {updated && <Alert kind="success">{DESK_MESSAGES.templateUpdated}</Alert>}
          <div className="button-row">
            <button type="submit" className="button" disabled={busy}>Update</button>
            <button type="button" className="button button--secondary" onClick={showPreview} disabled={busy}>Preview</button>
            <button type="button" className="button button--secondary" onClick={() => setEditing(null)}>Close</button>
          </div>
          {preview && (
            <section aria-labelledby="preview-heading">
              <h3 id="preview-heading">Preview {preview.sample ? '(sample request)' : `(request ${preview.requestNumber})`}</h3>
              <div className="preview"><strong>{preview.subject}</strong>{'\n\n'}{preview.body}</div>
            </section>
          )}
        </form>
      </Modal>
    </section>
  );
}
