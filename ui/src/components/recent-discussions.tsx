import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { discussionErrors, discussionsOpen, MESSAGE_MAX, MESSAGES, type RequestStatus } from '../../../domain';
import { Alert } from './ui/alert';
import { DataTable } from './ui/data-table';
import { TextAreaField, TextField } from './ui/form-field';
import { Modal } from './ui/modal';
import { ApiError } from '../lib/api-client';
import { displayDateTime } from '../lib/format';
import { queryKeys } from '../lib/query-keys';
import { getDiscussions, useDeleteMessage, usePostMessage } from './discussions-api';
import type { DiscussionRecord } from '../../../contract/discussion.schema';
import type { Wire } from '../../../contract/wire';

export type DiscussionMessage = Wire<typeof DiscussionRecord>;

const FAILURE = 'Oops, something went wrong.';
const FAILURE_ADVICE = 'Please refresh this page, or contact a site administrator if the problem continues. Refreshing loses the message typed here.';

interface Props {
  request: { id: number; status: string; discussions?: unknown[] };
  isAdmin: boolean;
  /** the form page shows the section only when messages exist; the view page always shows it to administrators */
  alwaysShow: boolean;
}

type Composer = { topic: string | null; discussionId: string | null } | null;

/** Recent Discussions (spec 1 §2): threads of messages on the request; post, reply and (administrators) delete. */
export function RecentDiscussions({ request, isAdmin, alwaysShow }: Props) {
  const messages = (request.discussions ?? []) as DiscussionMessage[];
  const [composer, setComposer] = useState<Composer>(null);
  const remove = useDeleteMessage(request.id);
  const open = discussionsOpen(request.status as RequestStatus);
  if (!alwaysShow && messages.length === 0) return null;

  return (
    <section className="details-section" aria-labelledby="discussions-heading">
      <h2 id="discussions-heading" className="details-section__title">Recent Discussions</h2>
      {remove.isError && <Alert kind="error">{FAILURE} {FAILURE_ADVICE}</Alert>}
      {messages.length === 0 ? <p className="empty">{MESSAGES.emptyDiscussions}</p> : (
        <DataTable label="Recent Discussions" rows={messages} rowKey={(m) => m.id} columns={[
          { header: 'Message Date', cell: (m) => displayDateTime(m.createdAt) },
          {
            header: 'From',
            cell: (m) => <>{m.sender}{m.byEmail && <> <span className="badge badge--email" title="Sent as a reply to a portal email">by email</span></>}</>,
          },
          { header: 'Discussion Topic', cell: (m) => m.topic },
          { header: 'Message', cell: (m) => <span className="discussion-message">{m.message}</span> },
          {
            header: 'Action',
            className: 'cell--action',
            cell: (m) => (
              <div className="button-row button-row--tight">
                {open && (
                  <button type="button" className="button button--secondary button--small" aria-label={`Reply to ${m.topic}`}
                    onClick={() => setComposer({ topic: m.topic, discussionId: m.discussionId })}>Reply</button>
                )}
                {isAdmin && (
                  <button type="button" className="button button--secondary button--small" aria-label={`Delete message ${m.id}`}
                    onClick={() => remove.mutate(m.id)}>Delete</button>
                )}
              </div>
            ),
          },
        ]} />
      )}
      {open ? (
        <div className="button-row">
          <button type="button" className="button button--secondary" onClick={() => setComposer({ topic: null, discussionId: null })}>New Discussion</button>
        </div>
      ) : <p className="field__hint">This request is completed or closed: its discussions are closed to new messages.</p>}
      <Modal open={composer !== null} title={composer?.discussionId ? 'Reply' : 'New Discussion'} onClose={() => setComposer(null)}>
        {composer && (
          <MessageForm requestId={request.id} composer={composer}
            onPosted={() => setComposer(null)} onCancel={() => setComposer(null)} />
        )}
      </Modal>
    </section>
  );
}

function MessageForm({ requestId, composer, onPosted, onCancel }: {
  requestId: number; composer: NonNullable<Composer>; onPosted: () => void; onCancel: () => void;
}) {
  const [topic, setTopic] = useState('');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failed, setFailed] = useState(false);
  const post = usePostMessage(requestId);
  const busy = post.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The server's rules (domain/discussions.ts); a reply's thread id is the composer's own, never wrong.
    const found = discussionErrors({ topic, message, discussionId: composer.discussionId });
    setErrors(found);
    if (Object.keys(found).length) return;
    post.mutate(composer.discussionId ? { discussionId: composer.discussionId, message } : { topic, message }, {
      onSuccess: onPosted,
      // The typed message stays in the box; field errors from the server are shown on their fields.
      onError: (error) => {
        if (error instanceof ApiError && error.code === 400 && error.hasFieldErrors) setErrors(error.errors);
        else setFailed(true);
      },
    });
  };

  if (failed) {
    return (
      <div className="discussion-form">
        <Alert kind="error">{FAILURE} {FAILURE_ADVICE}</Alert>
        <div className="button-row"><button type="button" className="button" onClick={() => setFailed(false)}>Back to form</button></div>
      </div>
    );
  }
  return (
    <form className="discussion-form" onSubmit={submit} noValidate>
      {composer.discussionId ? <p>Discussion Topic: {composer.topic}</p> : (
        <TextField name="topic" label="Discussion Topic" required value={topic} maxLength={200} error={errors.topic}
          onChange={(e) => setTopic(e.target.value)} />
      )}
      <TextAreaField name="message" label="Message" required value={message} maxLength={MESSAGE_MAX} rows={5} error={errors.message}
        hint={`${MESSAGE_MAX - message.length} characters remaining`} onChange={(e) => setMessage(e.target.value)} />
      <div className="button-row">
        <button type="submit" className="button" disabled={busy}>{busy ? 'Posting...' : 'Post Message'}</button>
        <button type="button" className="button button--secondary" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

/** Recent Discussions above a request form, when messages exist (spec 1 §2); posting reads only the messages again. */
export function FormDiscussions({ record, isAdmin }: { record: { id: number; status: string; discussions?: unknown[] }; isAdmin: boolean }) {
  // The form keeps its own copy of the request (a refetch must not reset it): the messages are a query of their own,
  // starting from that copy (no call when the form opens), which a post or a delete marks stale.
  const [openedAt] = useState(() => Date.now());
  const messages = useQuery({
    queryKey: queryKeys.discussions(record.id),
    queryFn: ({ signal }) => getDiscussions(record.id, signal),
    initialData: record.discussions as DiscussionMessage[] | undefined,
    refetchOnMount: false,
  });
  // Messages cached before this screen opened are older than the copy the form was just read with.
  const current = messages.dataUpdatedAt >= openedAt ? messages.data : record.discussions;
  return <RecentDiscussions request={{ ...record, discussions: current }} isAdmin={isAdmin} alwaysShow={false} />;
}
