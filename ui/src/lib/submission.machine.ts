/**
 * Form submission states (spec 1 §2 and §4): pending, submitting, success, error. The SUBMIT event carries the
 * work to do, so one machine serves every form (request form, Manage Request).
 */
import { assign, fromPromise, setup } from 'xstate';
import { ApiError } from './api-error';

export type SubmissionEvent =
  | { type: 'SUBMIT'; run: () => Promise<unknown> }
  | { type: 'RESET' };

export const submissionMachine = setup({
  types: {
    /** `result`: what the last successful run answered (a submit: the request as stored, with its number) */
    context: {} as { error: ApiError | null; result: unknown },
    events: {} as SubmissionEvent,
  },
  actors: {
    run: fromPromise(({ input }: { input: { run: () => Promise<unknown> } }) => input.run()),
  },
}).createMachine({
  id: 'submission',
  context: { error: null, result: null },
  initial: 'pending',
  states: {
    pending: { on: { SUBMIT: 'submitting' } },
    submitting: {
      entry: assign({ error: null }),
      invoke: {
        src: 'run',
        input: ({ event }) => ({ run: (event as Extract<SubmissionEvent, { type: 'SUBMIT' }>).run }),
        onDone: { target: 'success', actions: assign({ result: ({ event }) => event.output }) },
        onError: {
          target: 'error',
          actions: assign({
            error: ({ event }) => (event.error instanceof ApiError
              ? event.error
              : new ApiError(500, { message: event.error instanceof Error ? event.error.message : String(event.error) })),
          }),
        },
      },
    },
    success: { on: { SUBMIT: 'submitting', RESET: 'pending' } },
    error: { on: { SUBMIT: 'submitting', RESET: 'pending' } },
  },
});
