import { useEffect, useRef, useState } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise, waitFor } from 'xstate';
import type { CreateRequestBody } from '../../../../../contract/request.schema';
import { STATUS, type FormPayload } from '../../../../../domain';
import { commandRequest } from '../../../lib/request-api';
import { updateRequest } from '../api/update-request';
import type { RequestRecord } from '../../../types/api';
import { createRequest } from '../api/create-request';
import { requestDraftMachine, type DraftRef, type SavedRequest } from '../machines/request-draft.machine';
import type { FollowUp } from '../components/submit-success-dialog';

interface RequestDraftOptions {
  initialId: number | null;
  /** The version of the request as the page loaded it (undefined for a new form). */
  initialVersion?: number;
  /** The payload at the moment a call runs (so a queued save sends the latest form). */
  payload: (mode: 'create' | 'update') => FormPayload;
  /** what the create call says besides the form: the type, subtype, clone source */
  createBody: () => Pick<CreateRequestBody, 'requestType' | 'certificateType' | 'cloneOf'>;
  onCreated: (record: RequestRecord) => void;
  onDone: () => void;
}

/**
 * The request draft machine wired to the API: the first save creates the draft (POST), later ones patch it, Submit
 * is a command on the version last seen. Leaving the page within the autosave delay still saves the last edit.
 */
export function useRequestDraft(options: RequestDraftOptions) {
  const latest = useRef(options);
  useEffect(() => { latest.current = options; });

  const [logic] = useState(() => requestDraftMachine.provide({
    actors: {
      save: fromPromise<SavedRequest, DraftRef>(({ input }) => saveCall(input.requestId)),
      submit: fromPromise<SavedRequest, DraftRef>(({ input }) =>
        commandRequest(input.requestId!, { ...latest.current.payload('update'), status: STATUS.submitted }, input.version)),
    },
    actions: {
      created: (_, record) => latest.current.onCreated(record as RequestRecord),
      goHome: () => latest.current.onDone(),
      startFollowUp: (_, followUp) => followUp?.onYes(),
    },
  }));
  const [snapshot, send, actor] = useMachine(logic, { input: { requestId: options.initialId, version: options.initialVersion } });

  function saveCall(requestId: number | null): Promise<RequestRecord> {
    const { payload, createBody } = latest.current;
    return requestId == null
      ? createRequest({ ...createBody(), ...payload('create') })
      : updateRequest(requestId, payload('update'));
  }

  // The machine stops with the page: an edit still waiting for its autosave is saved on the way out.
  useEffect(() => () => {
    const last = actor.getSnapshot();
    if (last.matches('waiting')) void saveCall(last.context.requestId).catch(() => undefined);
  }, [actor]);

  /** An id for uploads: the draft is created on the first document if it does not exist yet. */
  async function ensureRequestId(): Promise<number> {
    const now = actor.getSnapshot();
    if (now.context.requestId != null) return now.context.requestId;
    if (!now.matches('saving')) send({ type: 'SAVE_DRAFT' });
    const done = await waitFor(actor, (s) => s.context.requestId != null || (!s.matches('saving') && s.context.saveState === 'error'));
    if (done.context.requestId == null) throw new Error('The draft could not be saved');
    return done.context.requestId;
  }

  const { context } = snapshot;
  const followUp: FollowUp | null = context.followUp
    ? { ...context.followUp, onYes: () => send({ type: 'ACCEPT_FOLLOW_UP' }) } : null;
  return {
    send, ensureRequestId, followUp,
    saveState: context.saveState,
    /** Submit pressed: sending, or waiting for the save in flight */
    submitting: snapshot.matches('submitting') || context.queuedSubmit !== null,
    submitted: snapshot.matches('submitted') ? context.submitted : null,
    attempted: context.attempted,
    errors: { ...context.serverErrors, ...context.clientErrors },
    failure: context.submitError,
    invalidTick: context.invalidTick,
  };
}
