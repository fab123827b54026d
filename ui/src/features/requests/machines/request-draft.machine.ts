/**
 * One request form's saves and its submit (spec 1 §2): autosave 750 ms after the last edit, one save at a time
 * (edits made while a save is in flight are saved after it), Submit waits for a save in flight, the kind's own rules
 * and the API's field messages, and the success modal with its follow-up question (spec 1 §1). The calls are actors
 * the form provides (`.provide({ actors })`); tests pass fakes and a simulated clock.
 */
import { assign, fromPromise, setup } from 'xstate';
import { AUTOSAVE_DELAY_MS } from '../../../../../domain';
import { ApiError } from '../../../lib/api-error';
import type { FollowUp } from '../components/submit-success-dialog';

export type FieldErrors = Record<string, string | undefined>;
export type DraftSaveState = 'idle' | 'saving' | 'saved' | 'error';

/** What the API answers to a save or a submit: the request as stored. */
export interface SavedRequest { id: number; version?: number; requestNumber?: number | null }

/** Where the calls go: the draft (null before the first save creates it) and the version last seen. */
export interface DraftRef { requestId: number | null; version: number | undefined }

export type RequestDraftEvent =
  /** a field changed: `fields` lose their server messages */
  | { type: 'EDIT'; fields: readonly string[] }
  | { type: 'SAVE_DRAFT' }
  /** `errors`: the kind's rules on the values as they are; `followUp`: the question to ask once submitted */
  | { type: 'SUBMIT'; errors: FieldErrors; followUp: FollowUp | null }
  /** the kind's rules again, after a change once a submit was tried */
  | { type: 'REVALIDATE'; errors: FieldErrors }
  /** the draft was deleted: nothing more is saved */
  | { type: 'CANCEL_AUTOSAVE' }
  | { type: 'CLOSE' }
  | { type: 'ACCEPT_FOLLOW_UP' };

export interface RequestDraftContext extends DraftRef {
  saveState: DraftSaveState;
  /** an edit arrived after the save in flight read the form: autosave it */
  editedDuringSave: boolean;
  /** Save Draft was pressed during a save in flight: save again as soon as it answers */
  saveQueued: boolean;
  /** Submit was pressed during a save in flight: it goes once the save has answered */
  queuedSubmit: { followUp: FollowUp | null } | null;
  attempted: boolean;
  clientErrors: FieldErrors;
  serverErrors: FieldErrors;
  /** counts refusals, so the form can move the focus to the first invalid field each time */
  invalidTick: number;
  submitError: ApiError | null;
  submitted: SavedRequest | null;
  followUp: FollowUp | null;
}

const asApiError = (error: unknown) => (error instanceof ApiError
  ? error : new ApiError(500, { message: error instanceof Error ? error.message : String(error) }));
const hasErrors = (errors: FieldErrors) => Object.values(errors).some(Boolean);
const notProvided = (name: string) => fromPromise<SavedRequest, DraftRef>(async () => { throw new Error(`${name}: provided by the form`); });

export const requestDraftMachine = setup({
  types: {
    context: {} as RequestDraftContext,
    events: {} as RequestDraftEvent,
    input: {} as { requestId: number | null; version?: number },
  },
  actors: {
    /** creates the draft (POST) when `requestId` is null, else saves the form on it (PATCH) */
    save: notProvided('save'),
    /** the submit command on an existing draft, made on `version` */
    submit: notProvided('submit'),
  },
  delays: { autosave: AUTOSAVE_DELAY_MS },
  guards: {
    invalid: ({ event }) => event.type === 'SUBMIT' && hasErrors(event.errors),
    editedDuringSave: ({ context }) => context.editedDuringSave,
    saveQueued: ({ context }) => context.saveQueued,
    submitQueued: ({ context }) => context.queuedSubmit !== null,
    hasDraft: ({ context }) => context.requestId !== null,
    hasFollowUp: ({ context }) => context.followUp !== null,
  },
  actions: {
    /** provided by the form: the draft now has an id (the address changes to its edit page) */
    created: (_, _record: SavedRequest) => undefined,
    /** provided by the form: leave for the dashboard, or start the follow-up request */
    goHome: () => undefined,
    startFollowUp: (_, _followUp: FollowUp | null) => undefined,
    edited: assign({
      serverErrors: ({ context, event }) => (event.type === 'EDIT'
        ? Object.fromEntries(Object.entries(context.serverErrors).filter(([field]) => !event.fields.includes(field)))
        : context.serverErrors),
    }),
    refuse: assign({
      attempted: true,
      clientErrors: ({ event }) => (event.type === 'SUBMIT' ? event.errors : {}),
      serverErrors: {},
      invalidTick: ({ context }) => context.invalidTick + 1,
    }),
    accept: assign({
      attempted: true, clientErrors: {}, serverErrors: {}, submitError: null,
      followUp: ({ event }) => (event.type === 'SUBMIT' ? event.followUp : null),
    }),
    /** the API's answer: its field messages go under the fields (and the focus to the first), the rest on top */
    failSubmit: assign(({ context, event }) => {
      const error = asApiError((event as unknown as { error: unknown }).error);
      return {
        submitError: error,
        serverErrors: error.errors,
        invalidTick: error.hasFieldErrors ? context.invalidTick + 1 : context.invalidTick,
      };
    }),
    remember: assign(({ event }) => {
      const record = (event as unknown as { output: SavedRequest }).output;
      return { requestId: record.id, ...(typeof record.version === 'number' ? { version: record.version } : {}) };
    }),
  },
}).createMachine({
  id: 'requestDraft',
  context: ({ input }) => ({
    requestId: input.requestId, version: input.version, saveState: 'idle', editedDuringSave: false, saveQueued: false, queuedSubmit: null,
    attempted: false, clientErrors: {}, serverErrors: {}, invalidTick: 0, submitError: null, submitted: null, followUp: null,
  }),
  initial: 'idle',
  on: {
    REVALIDATE: { actions: assign({ clientErrors: ({ event }) => event.errors }) },
  },
  states: {
    idle: {
      on: {
        EDIT: { target: 'waiting', actions: 'edited' },
        SAVE_DRAFT: 'saving',
        SUBMIT: [{ guard: 'invalid', actions: 'refuse' }, { target: 'submitting', actions: 'accept' }],
      },
    },
    /** the debounce: every edit starts the 750 ms again */
    waiting: {
      after: { autosave: 'saving' },
      on: {
        EDIT: { target: 'waiting', reenter: true, actions: 'edited' },
        SAVE_DRAFT: 'saving',
        CANCEL_AUTOSAVE: 'idle',
        SUBMIT: [{ guard: 'invalid', actions: 'refuse' }, { target: 'submitting', actions: 'accept' }],
      },
    },
    saving: {
      entry: assign({ saveState: 'saving', editedDuringSave: false, saveQueued: false }),
      invoke: {
        src: 'save',
        input: ({ context }) => ({ requestId: context.requestId, version: context.version }),
        onDone: [
          { guard: 'hasDraft', target: 'afterSave', actions: ['remember', assign({ saveState: 'saved' })] },
          { target: 'afterSave', actions: [{ type: 'created', params: ({ event }) => event.output }, 'remember', assign({ saveState: 'saved' })] },
        ],
        onError: { target: 'afterSave', actions: assign({ saveState: 'error' }) },
      },
      on: {
        EDIT: { actions: ['edited', assign({ editedDuringSave: true })] },
        SAVE_DRAFT: { actions: assign({ saveQueued: true }) },
        CANCEL_AUTOSAVE: { actions: assign({ editedDuringSave: false, saveQueued: false }) },
        SUBMIT: [
          { guard: 'invalid', actions: 'refuse' },
          { actions: ['accept', assign({ queuedSubmit: ({ event }) => ({ followUp: event.followUp }) })] },
        ],
      },
    },
    /** what waited for the save: a submit first (it sends the latest form), else the edits made meanwhile */
    afterSave: {
      always: [
        { guard: 'submitQueued', target: 'submitting', actions: assign({ queuedSubmit: null }) },
        { guard: 'saveQueued', target: 'saving' },
        { guard: 'editedDuringSave', target: 'waiting' },
        { target: 'idle' },
      ],
    },
    submitting: {
      initial: 'checking',
      states: {
        checking: { always: [{ guard: 'hasDraft', target: 'sending' }, { target: 'creating' }] },
        /** Submit on a form never saved: the draft is created first, so a refused submit leaves one draft */
        creating: {
          invoke: {
            src: 'save',
            input: { requestId: null, version: undefined },
            onDone: { target: 'sending', actions: [{ type: 'created', params: ({ event }) => event.output }, 'remember'] },
            onError: { target: '#requestDraft.idle', actions: 'failSubmit' },
          },
        },
        sending: {
          invoke: {
            src: 'submit',
            input: ({ context }) => ({ requestId: context.requestId, version: context.version }),
            onDone: {
              target: '#requestDraft.submitted',
              actions: ['remember', assign({ submitted: ({ event }) => event.output })],
            },
            onError: { target: '#requestDraft.idle', actions: 'failSubmit' },
          },
        },
      },
    },
    /** the success modal: OK / No thank you go home; Yes starts the follow-up request */
    submitted: {
      on: {
        CLOSE: { target: 'closed', actions: 'goHome' },
        ACCEPT_FOLLOW_UP: { guard: 'hasFollowUp', target: 'closed', actions: { type: 'startFollowUp', params: ({ context }) => context.followUp } },
      },
    },
    closed: { type: 'final' },
  },
});
