/**
 * The clinician an internal requester names on a claim history request, in jsdom with the API faked: picking another
 * clinician, or Add New, leaves nothing of the previous one (birth date and alternate name included) on the form or
 * in the draft the autosave stores; the clinician modal answers a bad date as person forms do ("Invalid date").
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, PERSON_MESSAGES } from '../../domain';
import type { User } from '../../ui/src/types/api';
import { createFakeApi, type Call } from './support/fake-api';
import { renderApp, requester } from './support/render-app';

const fake = vi.hoisted(() => ({ current: null as null | ReturnType<typeof import('./support/fake-api')['createFakeApi']> }));
vi.mock('../../ui/src/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  api: new Proxy({}, { get: (_, method: string) => (fake.current!.api as Record<string, unknown>)[method] }),
}));

const internal: User = {
  ...requester, id: 12, email: 'sam.staff@uhs.example', firstName: 'Sam', lastName: 'Staff', isExternal: false, company: null,
  affiliation: 'University Health',
};

/** Two directory people: A (every detail) and B (none of the optional ones). */
const A = { id: 1, employeeId: '400111', email: 'ana.rivera@uhs.example', lastName: 'Rivera', firstName: 'Ana', middleInitial: 'Q', title: 'Surgeon', workPhone: '503-555-0101' };
const B = { id: 2, employeeId: '400222', email: null, lastName: 'Okafor', firstName: 'Jordan', middleInitial: null, title: null, workPhone: null };
/** What the requester typed for A in the clinician modal (the directory does not give these to requesters). */
const A_TYPED = { birthDate: '04/12/1980', altName: 'Ana Smith' };
const A_BIRTH_DATE_STORED = '1980-04-12T11:00:00.000Z';

const DRAFT = {
  id: 5, requestNumber: 50005, requestType: 'credentialing', status: 'Draft', version: 3, requesterId: internal.id,
  dateFrom: '2021-01-01T11:00:00.000Z', dateTo: '2024-12-31T11:00:00.000Z', providerType: 'Current Employee/Fellow/Resident',
  reason: 'Future employment', createdAt: '2026-11-20T10:00:00.000Z', updatedAt: '2026-11-20T10:00:00.000Z', documents: [], discussions: [],
};
/** The draft as stored once A was picked and A's birth date and alternate name typed. */
const DRAFT_WITH_A = {
  ...DRAFT, employeeId: A.employeeId, lastName: A.lastName, firstName: A.firstName, middleInitial: A.middleInitial, email: A.email,
  altName: A_TYPED.altName, birthDate: A_BIRTH_DATE_STORED,
};
/** Every value of A that may show on the form or travel in a save. */
const A_VALUES = [A.employeeId, A.email, A.lastName, A.firstName, A.middleInitial, A_TYPED.altName, A_TYPED.birthDate, A_BIRTH_DATE_STORED];

let stored: Record<string, unknown>;
beforeEach(() => {
  fake.current = createFakeApi();
  stored = { ...DRAFT };
  fake.current.on('GET', '/requests/5', () => structuredClone(stored));
  fake.current.on('PATCH', '/requests/5', ({ body }: Call) => {
    stored = { ...stored, ...(body as object), version: (stored.version as number) + 1 };
    return structuredClone(stored);
  });
  fake.current.on('GET', /^\/discussions/, { total: 0, limit: 10, skip: 0, data: [] });
  fake.current.on('GET', /^\/people\?/, ({ path }: Call) => {
    const found = [A, B].filter((p) => new URLSearchParams(path.split('?')[1]).get('lastName') === p.lastName);
    return { total: found.length, data: found };
  });
});

type UserEvents = ReturnType<typeof userEvent.setup>;

/** Puts `value` in a text box at once (typing it key by key re-renders the form each time: slow on a loaded machine). */
async function fill(user: UserEvents, input: HTMLElement, value: string) {
  await user.clear(input);
  await user.click(input);
  await user.paste(value);
}

async function findInDirectory(user: UserEvents, button: string, lastName: string, firstName: string) {
  await user.click(await screen.findByRole('button', { name: button }));
  const search = await screen.findByRole('dialog', { name: 'Find Clinician' });
  // The search keeps its last criteria between openings.
  await fill(user, within(search).getByLabelText('Last Name'), lastName);
  await fill(user, within(search).getByLabelText('First Name'), firstName);
  await user.click(within(search).getByRole('button', { name: 'Search' }));
  return search;
}

async function pick(user: UserEvents, button: string, person: typeof A | typeof B) {
  const search = await findInDirectory(user, button, person.lastName, person.firstName);
  await user.click(await within(search).findByRole('radio', { name: `${person.firstName} ${person.lastName}` }));
  await user.click(within(search).getByRole('button', { name: 'Apply' }));
}

/** The request form (not the dialogs, which have controls of their own). */
const requestForm = () => screen.getByRole('form', { name: /request$/ });
/** The values the request form shows. */
const formValues = () => [...requestForm().querySelectorAll<HTMLInputElement>('input, select, textarea')]
  .map((input) => input.value).filter(Boolean);
const formInput = (name: string) => requestForm().querySelector<HTMLInputElement>(`[name="${name}"]`);

/** The last save the autosave sent, once it names `lastName`. */
async function savedWith(lastName: string) {
  let body: Record<string, unknown> = {};
  await waitFor(() => {
    body = fake.current!.callsTo('PATCH', '/requests/5').at(-1)?.body as Record<string, unknown>;
    expect(body?.lastName).toBe(lastName);
  });
  return body;
}

function expectNothingOfA(values: unknown[]) {
  for (const value of A_VALUES) expect(values).not.toContain(value);
}

describe('the clinician of a claim history request', () => {
  it('picking another clinician leaves none of the previous one\'s details, on the form or in the draft', async () => {
    const user = userEvent.setup({ delay: null });
    await renderApp(fake.current!, '/requests/credentialing/5/edit', internal);
    await pick(user, 'Add Clinician', A);
    await user.click(await screen.findByRole('button', { name: 'Edit Clinician' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Clinician' });
    await fill(user, within(edit).getByLabelText(/Date of Birth/), A_TYPED.birthDate);
    await fill(user, within(edit).getByLabelText(/Alternate or Previous Name/), A_TYPED.altName);
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(stored).toMatchObject({ lastName: A.lastName, birthDate: A_BIRTH_DATE_STORED, altName: A_TYPED.altName }));

    await pick(user, 'Change Clinician', B);
    await waitFor(() => expect(formInput('lastName')).toHaveValue(B.lastName));
    expectNothingOfA(formValues());
    const saved = await savedWith(B.lastName);
    expect(saved).toMatchObject({ employeeId: B.employeeId, firstName: B.firstName, birthDate: null, altName: null, email: null, middleInitial: null });
    expectNothingOfA(Object.values(stored));
  }, 30_000); // two autosaves (750 ms each) and two directory searches on the whole form: 12 s seen on a loaded machine

  it('Add New starts the clinician modal empty and leaves none of the previous clinician\'s details', async () => {
    stored = { ...DRAFT_WITH_A };
    const user = userEvent.setup({ delay: null });
    await renderApp(fake.current!, '/requests/credentialing/5/edit', internal);
    await waitFor(() => expect(formInput('altName')).toHaveValue(A_TYPED.altName));
    const search = await findInDirectory(user, 'Change Clinician', 'Nobody', 'Here');
    await user.click(await within(search).findByRole('button', { name: 'Add New' }));
    const add = await screen.findByRole('dialog', { name: 'Add Clinician' });
    const typed = [...add.querySelectorAll<HTMLInputElement>('input')].map((input) => input.value).filter(Boolean);
    expect(typed).toEqual([]);
    await fill(user, within(add).getByLabelText(/Last Name/), 'Nguyen');
    await fill(user, within(add).getByLabelText(/First Name/), 'Lee');
    await user.click(within(add).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(formInput('lastName')).toHaveValue('Nguyen'));
    expectNothingOfA(formValues());
    const saved = await savedWith('Nguyen');
    expect(saved).toMatchObject({ employeeId: null, birthDate: null, altName: null, email: null, middleInitial: null });
    expectNothingOfA(Object.values(stored));
  });

  it('the clinician modal answers a bad date "Invalid date" (a person form), not the request form\'s message', async () => {
    stored = { ...DRAFT_WITH_A };
    const user = userEvent.setup({ delay: null });
    await renderApp(fake.current!, '/requests/credentialing/5/edit', internal);
    await user.click(await screen.findByRole('button', { name: 'Edit Clinician' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Clinician' });
    const birthDate = within(edit).getByLabelText(/Date of Birth/);
    await fill(user, birthDate, '13/45/1980');
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    expect(await within(edit).findByText(PERSON_MESSAGES.invalidDate, { exact: true })).toBeVisible();
    expect(within(edit).queryByText(MESSAGES.requestDateFormat, { exact: true })).toBeNull();
    expect(stored.birthDate).toBe(A_BIRTH_DATE_STORED);
  });
});
