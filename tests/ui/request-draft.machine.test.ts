/**
 * The request form's save and submit flow (ui/src/features/requests/machines/request-draft.machine.ts) as pure
 * transitions: fake save/submit actors whose answers the test releases, and a simulated clock for the 750 ms.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { AUTOSAVE_DELAY_MS } from '../../domain';
import { ApiError } from '../../ui/src/lib/api-error';
import { requestDraftMachine, type DraftRef, type SavedRequest } from '../../ui/src/features/requests/machines/request-draft.machine';

interface Call { kind: 'save' | 'submit'; input: DraftRef; resolve(record: SavedRequest): void; reject(error: unknown): void }

/** The machine with fake calls: each call waits in `calls` until the test answers it. */
function start(input: { requestId: number | null; version?: number } = { requestId: null }) {
  const calls: Call[] = [];
  const log: string[] = [];
  const fake = (kind: Call['kind']) => fromPromise<SavedRequest, DraftRef>(({ input: ref }) =>
    new Promise((resolve, reject) => { calls.push({ kind, input: ref, resolve, reject }); }));
  const clock = new SimulatedClock();
  const machine = requestDraftMachine.provide({
    actors: { save: fake('save'), submit: fake('submit') },
    actions: {
      created: (_, record) => { log.push(`created ${record.id}`); },
      goHome: () => { log.push('home'); },
      startFollowUp: (_, followUp) => { log.push(`follow-up: ${followUp?.yesLabel}`); },
    },
  });
  const actor = createActor(machine, { input, clock }).start();
  const state = () => actor.getSnapshot().value;
  const ctx = () => actor.getSnapshot().context;
  /** lets the promise actors' answers reach the machine */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { actor, calls, log, clock, state, ctx, settle };
}

const edit = (fields: string[] = ['lastName']) => ({ type: 'EDIT' as const, fields });
const submit = (errors = {}, followUp = null) => ({ type: 'SUBMIT' as const, errors, followUp });

describe('request draft machine', () => {
  it('autosaves 750 ms after the last edit, not before; each edit starts the wait again', () => {
    const m = start();
    m.actor.send(edit());
    m.clock.increment(AUTOSAVE_DELAY_MS - 1);
    m.actor.send(edit());
    m.clock.increment(AUTOSAVE_DELAY_MS - 1);
    expect(m.calls).toHaveLength(0);
    expect(m.state()).toBe('waiting');
    m.clock.increment(1);
    expect(m.state()).toBe('saving');
    expect(m.calls.map((c) => c.kind)).toEqual(['save']);
    expect(m.ctx().saveState).toBe('saving');
  });

  it('creates the draft on the first save, then saves on it with the version it answered', async () => {
    const m = start();
    m.actor.send({ type: 'SAVE_DRAFT' });
    expect(m.calls[0].input).toEqual({ requestId: null, version: undefined });
    m.calls[0].resolve({ id: 41, version: 1 });
    await m.settle();
    expect(m.log).toEqual(['created 41']);
    expect(m.ctx()).toMatchObject({ requestId: 41, version: 1, saveState: 'saved' });
    expect(m.state()).toBe('idle');
    m.actor.send({ type: 'SAVE_DRAFT' });
    expect(m.calls[1].input).toEqual({ requestId: 41, version: 1 });
    m.calls[1].resolve({ id: 41, version: 2 });
    await m.settle();
    expect(m.log).toEqual(['created 41']); // created once
    expect(m.ctx().version).toBe(2);
  });

  it('saves edits made during a save after it, one save at a time', async () => {
    const m = start({ requestId: 7, version: 3 });
    m.actor.send(edit());
    m.clock.increment(AUTOSAVE_DELAY_MS);
    m.actor.send(edit(['firstName']));
    m.clock.increment(AUTOSAVE_DELAY_MS * 3);
    expect(m.calls).toHaveLength(1); // no second save while the first is in flight
    m.calls[0].resolve({ id: 7, version: 4 });
    await m.settle();
    expect(m.state()).toBe('waiting');
    m.clock.increment(AUTOSAVE_DELAY_MS);
    expect(m.calls).toHaveLength(2);
    expect(m.calls[1].input).toEqual({ requestId: 7, version: 4 });
  });

  it('Save Draft pressed during a save saves again as soon as it answers', async () => {
    const m = start({ requestId: 7 });
    m.actor.send({ type: 'SAVE_DRAFT' });
    m.actor.send({ type: 'SAVE_DRAFT' });
    expect(m.calls).toHaveLength(1);
    m.calls[0].resolve({ id: 7, version: 2 });
    await m.settle();
    expect(m.calls).toHaveLength(2);
    expect(m.state()).toBe('saving');
  });

  it('says the save failed and saves again on the next edit', async () => {
    const m = start({ requestId: 7 });
    m.actor.send({ type: 'SAVE_DRAFT' });
    m.calls[0].reject(new ApiError(503));
    await m.settle();
    expect(m.ctx().saveState).toBe('error');
    expect(m.state()).toBe('idle');
    m.actor.send(edit());
    m.clock.increment(AUTOSAVE_DELAY_MS);
    expect(m.calls).toHaveLength(2);
  });

  it('refuses a submit with the kind\'s own messages, without a call, and moves the focus each time', () => {
    const m = start({ requestId: 7 });
    m.actor.send(submit({ lastName: 'The field above is required' }));
    m.actor.send(submit({ lastName: 'The field above is required' }));
    expect(m.calls).toHaveLength(0);
    expect(m.ctx()).toMatchObject({ attempted: true, clientErrors: { lastName: 'The field above is required' }, invalidTick: 2 });
    m.actor.send({ type: 'REVALIDATE', errors: {} });
    expect(m.ctx().clientErrors).toEqual({});
  });

  it('submit cancels the pending autosave and sends the form once', () => {
    const m = start({ requestId: 7, version: 2 });
    m.actor.send(edit());
    m.actor.send(submit());
    m.clock.increment(AUTOSAVE_DELAY_MS * 2);
    expect(m.calls.map((c) => c.kind)).toEqual(['submit']);
    expect(m.calls[0].input).toEqual({ requestId: 7, version: 2 });
  });

  it('submit waits for the save in flight and is made on the version that save answered', async () => {
    const m = start({ requestId: 7, version: 2 });
    m.actor.send({ type: 'SAVE_DRAFT' });
    m.actor.send(submit());
    expect(m.calls.map((c) => c.kind)).toEqual(['save']);
    m.calls[0].resolve({ id: 7, version: 3 });
    await m.settle();
    expect(m.calls.map((c) => c.kind)).toEqual(['save', 'submit']);
    expect(m.calls[1].input).toEqual({ requestId: 7, version: 3 });
  });

  it('a submit on a form never saved creates the draft first, so a refusal leaves that one draft', async () => {
    const m = start();
    m.actor.send(submit());
    expect(m.calls[0]).toMatchObject({ kind: 'save', input: { requestId: null } });
    m.calls[0].resolve({ id: 9, version: 1 });
    await m.settle();
    expect(m.calls[1]).toMatchObject({ kind: 'submit', input: { requestId: 9, version: 1 } });
    m.calls[1].reject(new ApiError(400, { message: 'Invalid', errors: { email: 'Enter a valid email' } }));
    await m.settle();
    expect(m.state()).toBe('idle');
    expect(m.ctx()).toMatchObject({ requestId: 9, serverErrors: { email: 'Enter a valid email' }, invalidTick: 1 });
    expect(m.ctx().submitError?.hasFieldErrors).toBe(true);
    // Editing the field takes its server message away; the next save goes to the same draft.
    m.actor.send(edit(['email']));
    expect(m.ctx().serverErrors).toEqual({});
    m.clock.increment(AUTOSAVE_DELAY_MS);
    expect(m.calls[2]).toMatchObject({ kind: 'save', input: { requestId: 9 } });
    expect(m.log).toEqual(['created 9']);
  });

  it('a conflict (the request changed meanwhile) is kept for the form to show', async () => {
    const m = start({ requestId: 7, version: 2 });
    m.actor.send(submit());
    m.calls[0].reject(new ApiError(409, { message: 'Conflict' }));
    await m.settle();
    expect(m.ctx().submitError?.code).toBe(409);
    expect(m.ctx().invalidTick).toBe(0);
  });

  it('after a submit shows the success modal; with a follow-up question Yes starts the follow-up', async () => {
    const followUp = { question: 'Certificate too?', yesLabel: 'Start a Clinician certificate', onYes: () => undefined };
    const m = start({ requestId: 7, version: 2 });
    m.actor.send(submit({}, followUp as never));
    m.calls[0].resolve({ id: 7, version: 3, requestNumber: 50001 });
    await m.settle();
    expect(m.state()).toBe('submitted');
    expect(m.ctx()).toMatchObject({ submitted: { requestNumber: 50001 }, followUp: { yesLabel: 'Start a Clinician certificate' } });
    m.actor.send({ type: 'ACCEPT_FOLLOW_UP' });
    expect(m.log).toEqual(['follow-up: Start a Clinician certificate']);
    expect(m.actor.getSnapshot().status).toBe('done');
  });

  it('without a follow-up question only OK is there: it goes home, Yes does nothing', async () => {
    const m = start({ requestId: 7 });
    m.actor.send(submit());
    m.calls[0].resolve({ id: 7, requestNumber: 50002 });
    await m.settle();
    m.actor.send({ type: 'ACCEPT_FOLLOW_UP' });
    expect(m.state()).toBe('submitted');
    m.actor.send({ type: 'CLOSE' });
    expect(m.log).toEqual(['home']);
  });

  it('a deleted draft is not saved by a pending autosave', () => {
    const m = start({ requestId: 7 });
    m.actor.send(edit());
    m.actor.send({ type: 'CANCEL_AUTOSAVE' });
    m.clock.increment(AUTOSAVE_DELAY_MS * 2);
    expect(m.calls).toHaveLength(0);
  });
});
