import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DESK_MESSAGES, FAQ_ANSWER_MAX, FAQ_QUESTION_MAX, FAQ_TYPES, faqErrors, type FaqType } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { DataTable, type Column } from '../../components/ui/data-table';
import { SelectField, TextAreaField, TextField } from '../../components/ui/form-field';
import { Loading } from '../../components/ui/loading';
import { Modal } from '../../components/ui/modal';
import { queryKeys } from '../../lib/query-keys';
import { useEditor } from '../../components/ui/use-editor';
import { getFaqs, useCreateFaq, useDeleteFaq, useUpdateFaq, type Faq } from './faqs-api';

const EMPTY = { type: '', question: '', answer: '', order: '' };
const GENERIC = DESK_MESSAGES.exportFailed;

/** `/manage/faqs` (spec 1 §5): FAQs of each type in order; add, edit and delete keep the orders contiguous. */
export function ManageFaqsPage() {
  const [type, setType] = useState<FaqType>('Requester');
  const faqs = useQuery({ queryKey: queryKeys.faqs(type), queryFn: ({ signal }) => getFaqs(type, signal) });
  const [editing, setEditing] = useState<Faq | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Faq | null>(null);
  const editor = useEditor(EMPTY);
  const create = useCreateFaq();
  const update = useUpdateFaq();
  const remove = useDeleteFaq();
  const count = faqs.data?.length ?? 0;
  const adding = editing === 'new';
  const cap = adding ? count + 1 : count;

  const open = (faq: Faq | 'new') => {
    editor.reset(faq === 'new' ? { ...EMPTY, type, order: String(count + 1) } : { type: faq.type, question: faq.question, answer: faq.answer, order: String(faq.order) });
    setEditing(faq);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const errors = faqErrors(editor.values, adding);
    editor.setErrors(errors);
    if (Object.keys(errors).length) return;
    const { question, answer, order } = editor.values;
    const ok = await editor.save(() => (editing === 'new'
      ? create.mutateAsync({ type: editor.values.type as FaqType, question, answer, order })
      : update.mutateAsync({ faq: editing as Faq, changes: { question, answer, order } })), GENERIC);
    if (ok) {
      if (adding) setType(editor.values.type as FaqType);
      setEditing(null);
    }
  }

  function confirmDelete() {
    if (deleting) remove.mutate(deleting, { onSuccess: () => setDeleting(null) });
  }

  const columns: Column<Faq>[] = [
    { header: 'Order', cell: (f) => f.order },
    { header: 'Question', cell: (f) => f.question },
    { header: 'Answer', cell: (f) => (f.answer.length > 160 ? `${f.answer.slice(0, 160)}…` : f.answer) },
    {
      header: 'Action', className: 'cell--action', cell: (f) => (
        <div className="button-row button-row--tight">
          <button type="button" className="button button--small button--secondary" onClick={() => open(f)} aria-label={`Edit FAQ ${f.order}`}>Edit</button>
          <button type="button" className="button button--small button--danger-outline" onClick={() => { remove.reset(); setDeleting(f); }} aria-label={`Delete FAQ ${f.order}`}>Delete</button>
        </div>
      ),
    },
  ];

  return (
    <section className="page">
      <h1>Manage FAQs</h1>
      <div className="button-row">
        <label className="field__label" htmlFor="faq-type-filter">FAQ Type</label>
        <select id="faq-type-filter" className="field__control field__control--select" value={type} onChange={(e) => setType(e.target.value as FaqType)}>
          {FAQ_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
        <button type="button" className="button" onClick={() => open('new')}>Add FAQ</button>
      </div>
      {faqs.status === 'pending' && <Loading />}
      {faqs.status === 'error' && <Alert kind="error">{GENERIC}</Alert>}
      {faqs.data && (faqs.data.length ? <DataTable columns={columns} rows={faqs.data} rowKey={(f) => f.id} label={`${type} FAQs`} />
        : <p className="empty">{DESK_MESSAGES.noFaqs}</p>)}

      <Modal open={editing !== null} title={adding ? 'Add FAQ' : 'Edit FAQ'} onClose={() => setEditing(null)} wide>
        <form onSubmit={submit} noValidate>
          {adding && <SelectField name="type" label="Type" required options={FAQ_TYPES} value={editor.values.type} onChange={editor.set('type')} error={editor.errors.type} />}
          <TextField name="question" label="Question" required maxLength={FAQ_QUESTION_MAX} value={editor.values.question} onChange={editor.set('question')} error={editor.errors.question}
            hint={`${FAQ_QUESTION_MAX - editor.values.question.length} characters remaining`} />
          <TextAreaField name="answer" label="Answer" required rows={6} maxLength={FAQ_ANSWER_MAX} value={editor.values.answer} onChange={editor.set('answer')} error={editor.errors.answer}
            hint={`${FAQ_ANSWER_MAX - editor.values.answer.length} characters remaining`} />
          <TextField name="order" label="Order" required type="number" min={1} max={cap} value={editor.values.order} onChange={editor.set('order')} error={editor.errors.order}
            hint={`1 to ${cap}`} />
          {editor.failure && <Alert kind="error">{editor.failure}</Alert>}
          <div className="button-row">
            <button type="submit" className="button" disabled={create.isPending || update.isPending}>{adding ? 'Add' : 'Save'}</button>
            <button type="button" className="button button--secondary" onClick={() => setEditing(null)}>Cancel</button>
          </div>
        </form>
      </Modal>
      <ConfirmDialog open={deleting !== null} message={DESK_MESSAGES.faqDeleteConfirm} confirmLabel="Yes, delete" error={remove.isError ? GENERIC : null}
        onConfirm={confirmDelete} onCancel={() => setDeleting(null)} />
    </section>
  );
}
