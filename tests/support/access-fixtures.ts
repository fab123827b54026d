/**
 * The callers and rows the access matrix (tests/api/access-matrix.test.ts) and the fuzz test use: one persona per kind
 * of caller (PERSONAS: anonymous, an external requester confirmed or not, employee, student, administrator,
 * deactivated, and an organisation's system calling with an API key of the confirmed requester that holds every
 * scope), and one request with a row of everything that hangs off a request, owned by the
 * confirmed external requester.
 */
import { randomUUID } from 'node:crypto';
import { API_KEY_SCOPE_NAMES } from '../../domain/api-keys';
import { hashPassword } from '../../services/accounts/password-hash';
import {
  AdminSchema, ClaimDataSchema, ClaimHistorySchema, DiscussionSchema, DocumentSchema, EmailTemplateSchema, FaqSchema, PersonSchema,
  PolicyYearSchema, RequestActivitySchema, RequestExportSchema, UserSchema,
} from '../../db/entities';
import { call, createExternalUser, credentialingDraft, login, loginAdmin, loginEmployee, type Session } from './api-helpers';
import type { Harness } from './portal-harness';
import { kysely } from '../../db/kysely';

export const PERSONAS = ['anonymous', 'unconfirmed', 'confirmed', 'employee', 'student', 'admin', 'deactivated', 'apiKey'] as const;
export type Persona = typeof PERSONAS[number];

export interface Fixtures {
  sessions: Record<Persona, Session | null>;
  /** the confirmed external requester's draft, with a document, a message, an audit row and a claim link */
  requestId: number;
  documentId: number;
  storedName: string;
  discussionId: number;
  activityId: number;
  claimHistoryId: number;
  /** the confirmed requester's own user id */
  ownUserId: number;
  adminRowId: number;
  policyId: number;
  faqId: number;
  templateId: number;
  personId: number;
  claimId: number;
  exportId: number;
  /** the confirmed requester's roster, with one row its form's rules refuse (nothing of it may be submitted) */
  rosterId: number;
  rosterRowId: number;
}

export const MATRIX_PASSWORD = 'Matrix-Pass1';
const PASSWORD = MATRIX_PASSWORD;

async function internalUser(h: Harness, email: string, personType: 'Employee' | 'Student'): Promise<Session> {
  const em = h.orm.em.fork();
  em.create(UserSchema, {
    email, firstName: personType, lastName: 'Internal', phone: '503-494-0001', affiliation: 'OHSU', personType, isExternal: false,
    passwordHash: await hashPassword(PASSWORD), emailConfirmedAt: new Date(),
  });
  await em.flush();
  return login(h, email, PASSWORD);
}

async function externalUser(h: Harness, email: string, confirmed: boolean): Promise<Session> {
  await createExternalUser(h, email, PASSWORD, { confirmed });
  return login(h, email, PASSWORD);
}

/** A row of `entity` with the smallest id (reference data the seed put there). */
async function firstId(h: Harness, entity: unknown, where: object = {}): Promise<number> {
  const [row] = await h.orm.em.fork().find(entity as never, where as never, { orderBy: { id: 'asc' } as never, limit: 1 });
  if (!row) throw new Error('the seed holds no such row');
  return (row as { id: number }).id;
}

export async function createFixtures(h: Harness): Promise<Fixtures> {
  const tag = `${process.pid}-${Date.now()}`;
  const [unconfirmed, confirmed, employee, student, admin, deactivated] = await Promise.all([
    externalUser(h, `unconfirmed-${tag}@clinic.example`, false),
    externalUser(h, `confirmed-${tag}@clinic.example`, true),
    loginEmployee(h),
    internalUser(h, `student-${tag}@ohsu.example`, 'Student'),
    loginAdmin(h),
    externalUser(h, `deactivated-${tag}@clinic.example`, true),
  ]);
  // The confirmed requester's organisation's system: a key with every scope, acting for that account.
  const key = await call(h, confirmed, 'POST', '/api/v1/api-keys', { name: 'Matrix system', scopes: [...API_KEY_SCOPE_NAMES] });
  if (key.status !== 201) throw new Error(`API key refused: ${key.status} ${JSON.stringify(key.body)}`);
  const apiKey: Session = { token: key.body.key as string, user: confirmed.user };
  // Deactivated after the token was issued: the token must stop working on the next call.
  await h.orm.em.fork().nativeUpdate(UserSchema, { id: deactivated.user.id }, { deletedAt: new Date() });

  const requestId = await credentialingDraft(h, confirmed);
  const em = h.orm.em.fork();
  const document = (await em.find(DocumentSchema, { requestId }))[0];
  const discussion = em.create(DiscussionSchema, {
    requestId, discussionId: 'MATRIXTHREAD', topic: 'Dates', message: 'Which dates?', sender: 'Matrix', senderEmail: confirmed.user.email,
    fromAdmin: false, deletedAt: null,
  });
  const link = em.create(ClaimHistorySchema, { requestId, physician: 'No claims found' });
  const day = new Date('2020-01-15T11:00:00Z');
  const claim = em.create(ClaimDataSchema, {
    exportDate: day, physicianLastName: 'Matrix', physicianFirstName: 'Avery', involvement: 'Named in Claim', claimNumber: `M-${tag}`,
    type: 'Claim', status: 'Final', claimDate: day, reportDate: day, indemnityPaid: '0.00',
  });
  const exportRow = em.create(RequestExportSchema, { filename: 'coi_export_matrix.xlsx', storedName: `${randomUUID()}.xlsx`, state: 'done', createdBy: 'Matrix' });
  await em.flush();
  const roster = await kysely(em).insertInto('rosters').values({ owner_id: confirmed.user.id, kind: 'credentialing', file_name: 'matrix.csv' }).returning('id').executeTakeFirstOrThrow();
  const rosterRow = await kysely(em).insertInto('roster_rows').values({
    roster_id: roster.id, line: 2, values: JSON.stringify({ lastName: 'Matrix' }), errors: JSON.stringify({ firstName: 'The field above is required' }), status: 'invalid',
  }).returning('id').executeTakeFirstOrThrow();
  return {
    rosterId: roster.id, rosterRowId: rosterRow.id,
    sessions: { anonymous: null, unconfirmed, confirmed, employee, student, admin, deactivated, apiKey },
    requestId, documentId: document.id, storedName: document.storedName, discussionId: discussion.id,
    activityId: await firstId(h, RequestActivitySchema, { requestId }), claimHistoryId: link.id, ownUserId: confirmed.user.id,
    adminRowId: await firstId(h, AdminSchema), policyId: await firstId(h, PolicyYearSchema), faqId: await firstId(h, FaqSchema, { type: 'Requester' }),
    templateId: await firstId(h, EmailTemplateSchema), personId: await firstId(h, PersonSchema), claimId: claim.id, exportId: exportRow.id,
  };
}

/** Rows a call may remove, made afresh for each call that removes one. */
export const throwaway = {
  async draft(h: Harness, fx: Fixtures): Promise<number> {
    const created = await call(h, fx.sessions.confirmed, 'POST', '/api/v1/requests', { requestType: 'credentialing', lastName: 'Throwaway' });
    return created.body.id as number;
  },
  async document(h: Harness, fx: Fixtures): Promise<number> {
    const em = h.orm.em.fork();
    const row = em.create(DocumentSchema, {
      requestId: fx.requestId, name: `Throwaway ${randomUUID()}.pdf`, storedName: `r${fx.requestId}-${randomUUID()}.pdf`, mimeType: 'application/pdf', size: 10,
      uploadedBy: 'Matrix',
    });
    await em.flush();
    return row.id;
  },
  async apiKey(h: Harness, fx: Fixtures): Promise<number> {
    const created = await call(h, fx.sessions.confirmed, 'POST', '/api/v1/api-keys', { name: 'Throwaway', scopes: ['requests:read'] });
    return created.body.id as number;
  },
  async admin(h: Harness): Promise<number> {
    const em = h.orm.em.fork();
    const row = em.create(AdminSchema, { firstName: 'Throw', lastName: 'Away', email: `throwaway-${randomUUID()}@ohsu.example` });
    await em.flush();
    return row.id;
  },
  async faq(h: Harness): Promise<number> {
    const em = h.orm.em.fork();
    const order = (await em.count(FaqSchema, { type: 'Requester' })) + 1;
    const row = em.create(FaqSchema, { type: 'Requester', question: `Throwaway ${randomUUID()}?`, answer: 'Yes.', order });
    await em.flush();
    return row.id;
  },
  async policy(h: Harness): Promise<number> {
    const em = h.orm.em.fork();
    const year = 2200 + Math.floor(Math.random() * 700);
    const row = em.create(PolicyYearSchema, {
      startDate: new Date(`${year}-07-01T11:00:00Z`), endDate: new Date(`${year + 1}-06-30T11:00:00Z`), policyNumber: `T-${randomUUID()}`,
      limitClaim: '1', annualAggregate: '1',
    });
    await em.flush();
    return row.id;
  },
};
