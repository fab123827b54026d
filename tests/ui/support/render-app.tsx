/**
 * Renders the real route table (lazy screens, layouts, session provider) in jsdom at `path`, signed in as `user`:
 * the stored token is re-validated through the fake api, like a page load in the browser.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, matchRoutes, RouterProvider } from 'react-router-dom';
import { routes } from '../../../ui/src/app/router';
import { createQueryClient } from '../../../ui/src/lib/query-client';
import { storeToken } from '../../../ui/src/lib/token-storage';
import type { User } from '../../../ui/src/types/api';
import type { FakeApi } from './fake-api';

/** What GET /authentication answers for every user; the two below differ where it matters. */
const ANY_USER = {
  middleInitial: null, phone: null, company: null, affiliation: '', personType: null, pendingEmail: null,
  mustChangePassword: false, isPswdExpired: false, lastLogin: null,
} satisfies Partial<User>;

export const requester: User = {
  ...ANY_USER, id: 11, email: 'pat.requester@clinic.example', firstName: 'Pat', lastName: 'Requester', isAdmin: false,
  isExternal: true, emailConfirmed: true, phone: '555-555-0100', company: 'Clinic',
};
export const admin: User = {
  ...ANY_USER, id: 1, email: 'admin@uhs.example', firstName: 'Ada', lastName: 'Admin', isAdmin: true, isExternal: false,
  emailConfirmed: true, affiliation: 'Risk Management',
};

/** Loads the screen chunks `path` shows before rendering, as the app does at start (lazy-page.ts preloadScreens). */
async function preload(path: string) {
  await Promise.all((matchRoutes(routes, path) ?? []).map((match) =>
    ((match.route.element as ReactElement | undefined)?.type as { preload?: () => Promise<unknown> } | undefined)?.preload?.()));
}

/** `alsoLoad`: screens the test moves on to (a lazy screen suspends outside Testing Library's act otherwise). */
export async function renderApp(fake: FakeApi, path: string, user: User, alsoLoad: string[] = []) {
  await Promise.all([path, ...alsoLoad].map(preload));
  fake.on('POST', '/authentication', { accessToken: 'token', user });
  storeToken('token');
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  const view = render(<QueryClientProvider client={queryClient}><RouterProvider router={router} /></QueryClientProvider>);
  return { ...view, router, queryClient };
}
