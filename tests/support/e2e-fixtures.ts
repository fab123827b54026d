/**
 * Preconditions through the API for the e2e tests (tests/support/portal-browser.ts): a session without the login
 * form, a request submitted by its requester, a status set by an administrator, the approval's letter stored. Each
 * test makes its own rows with these (and tests/support/api-helpers.ts), so it runs alone and in any order.
 */
import { DocumentSchema, RequestSchema } from '../../db/entities';
import { call, signedToken, type Session } from './api-helpers';
import { eventually } from './eventually';
import type { Harness } from './portal-harness';

export interface Made { id: number; number: number }

/**
 * An API session of `user` at the user's current session version (a token signed by the portal, as openAs makes;
 * no password hashing, no sign-in limit). Take it in the test that uses it: a sign-out through the page ends every
 * session of the user made before.
 */
export async function sessionOf(h: Harness, user: { email: string }): Promise<Session> {
  const { accessToken, user: signed } = await signedToken(h, user.email);
  return { token: accessToken, user: signed };
}

/** Submits a complete draft as its requester (the workflow numbers it and sends the confirmation). */
export async function submitByApi(h: Harness, session: Session, id: number): Promise<Made> {
  const res = await call(h, session, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  if (res.status !== 200) throw new Error(`submit failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id, number: res.body.requestNumber as number };
}

/** An administrator's status change on the request's current version (`verified` for the statuses that need it). */
export async function decideByApi(h: Harness, admin: Session, id: number, status: string, extra: Record<string, unknown> = {}): Promise<void> {
  const { version } = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
  const res = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status, version, ...extra });
  if (res.status !== 200) throw new Error(`${status} failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Waits until a document whose file name starts with `prefix` (an approval's letter or certificate) is stored. */
export async function documentStored(h: Harness, requestId: number, prefix: string, timeoutMs = 60_000): Promise<void> {
  await eventually(async () => {
    const docs = await h.orm.em.fork().find(DocumentSchema, { requestId });
    return docs.some((d) => d.name.startsWith(prefix));
  }, timeoutMs, 200);
}
