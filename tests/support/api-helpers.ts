/** Small helpers for driving the API the way the browser does (app.inject: no sockets). */
import type { Harness } from './portal-harness';
import { DEV_ADMIN, DEV_REQUESTER } from '../../db/seed-data';
import { UserSchema } from '../../db/entities';
import { hashPassword } from '../../services/accounts/password-hash';
import { signSessionToken } from '../../api/plugins/auth';

export type Session = { token: string; user: Record<string, any> };

export async function login(h: Harness, email: string, password: string): Promise<Session> {
  const res = await h.app.inject({ method: 'POST', url: '/api/v1/authentication', payload: { strategy: 'local', email, password } });
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { token: body.accessToken, user: body.user };
}

/** A token the portal signs for the account at its current session version (no password, no sign-in limit). */
export async function signedToken(h: Harness, email: string): Promise<{ accessToken: string; user: { id: number; email: string } }> {
  const user = await h.orm.em.fork().findOneOrFail(UserSchema, { email, deletedAt: null }, { orderBy: { id: 'asc' } });
  return { accessToken: signSessionToken(h.app, { id: user.id, sessionVersion: user.sessionVersion }), user: { id: user.id, email: user.email } };
}

/**
 * A session of an account as signing in gives it (its token and the API's own account of the user), without the
 * password: a token the portal signs at the user's session version, which the API answers for (`strategy: 'jwt'`).
 * Hashing the password costs about 35 ms of CPU a sign-in, two hundred times a run; the tests of signing in use `login`.
 */
export async function sessionFor(h: Harness, email: string): Promise<Session> {
  const { accessToken } = await signedToken(h, email);
  const res = await h.app.inject({ method: 'POST', url: '/api/v1/authentication', payload: { strategy: 'jwt', accessToken } });
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`session for ${email} refused: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { token: body.accessToken, user: body.user };
}

export const loginRequester = (h: Harness) => sessionFor(h, DEV_REQUESTER.email);
export const loginAdmin = (h: Harness) => sessionFor(h, DEV_ADMIN.email);

/**
 * Puts another external requester directly in the database: by default one whose email is confirmed (an account that
 * has been around); `{ confirmed: false }` for one that never used its confirmation link
 * (it may sign in, and is asked to confirm before it sends anything).
 */
export async function createExternalUser(h: Harness, email: string, password: string, options: { confirmed?: boolean } = {}): Promise<void> {
  const em = h.orm.em.fork();
  if (await em.findOne(UserSchema, { email, isExternal: true })) return;
  em.create(UserSchema, {
    email, firstName: 'Other', lastName: 'Requester', company: 'Other Clinic', phone: '503-555-0100', affiliation: 'external', isExternal: true,
    passwordHash: await hashPassword(password), pswdResetAt: new Date(), emailConfirmedAt: options.confirmed === false ? null : new Date(),
  });
  await em.flush();
}

export async function call(h: Harness, session: Session | null, method: string, url: string, payload?: unknown) {
  const res = await h.app.inject({
    method: method as never, url,
    headers: session ? { authorization: `Bearer ${session.token}` } : {},
    ...(payload !== undefined ? { payload: payload as never } : {}),
  });
  return { status: res.statusCode, body: res.body ? safeJson(res.body) : null, raw: res };
}

const safeJson = (text: string) => { try { return JSON.parse(text); } catch { return text; } };

/** A tiny valid PDF, as a requester's signed release would be. */
export const SAMPLE_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

export async function upload(h: Harness, session: Session, requestId: number, filename: string, bytes: Buffer, contentType = 'application/pdf') {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="requestId"\r\n\r\n${requestId}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await h.app.inject({
    method: 'POST', url: '/api/v1/upload', payload: body,
    headers: { authorization: `Bearer ${session.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

/** A complete credentialing draft with one supporting document, ready to submit. */
export async function credentialingDraft(h: Harness, session: Session, overrides: Record<string, unknown> = {}) {
  const created = await call(h, session, 'POST', '/api/v1/requests', {
    requestType: 'credentialing', lastName: 'Nguyen', firstName: 'Avery', birthDate: '1980-04-12T11:00:00.000Z',
    dateFrom: '2020-01-01T11:00:00.000Z', dateTo: '2024-12-31T11:00:00.000Z',
    providerType: 'Current Employee/Fellow/Resident', reason: 'Future employment', releaseAuthorized: true, ...overrides,
  });
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.id as number;
  const up = await upload(h, session, id, 'release.pdf', SAMPLE_PDF);
  if (up.status !== 201) throw new Error(`upload failed: ${up.status} ${JSON.stringify(up.body)}`);
  const doc = await call(h, session, 'POST', '/api/v1/documents', { requestId: id, filename: 'Signed release.pdf', description: 'Signed release', storedName: up.body.storedName });
  if (doc.status !== 201) throw new Error(`document failed: ${doc.status} ${JSON.stringify(doc.body)}`);
  return id;
}

export const loginEmployee = async (h: Harness) => {
  const { DEV_INTERNAL_REQUESTER } = await import('../../db/seed-data');
  return sessionFor(h, DEV_INTERNAL_REQUESTER.email);
};

/** Attaches one supporting document to a request. */
export async function attachDocument(h: Harness, session: Session, id: number, name = 'Contract.pdf') {
  const up = await upload(h, session, id, 'contract.pdf', SAMPLE_PDF);
  if (up.status !== 201) throw new Error(`upload failed: ${up.status} ${JSON.stringify(up.body)}`);
  const doc = await call(h, session, 'POST', '/api/v1/documents', { requestId: id, filename: name, description: 'Supporting document', storedName: up.body.storedName });
  if (doc.status !== 201) throw new Error(`document failed: ${doc.status} ${JSON.stringify(doc.body)}`);
}

const iso = (day: string) => `${day}T11:00:00.000Z`;
const HOLDER = { certificateHolder: 'Mercy Hospital', certificateHolderAddress: '1 Main St, Portland, OR 97201' };
/** Complete payloads of every certificate subtype, as the form sends them. */
export const CERTIFICATE_PAYLOADS: Record<string, Record<string, unknown>> = {
  Clinician: { ...HOLDER, lastName: 'Nguyen', firstName: 'Ava', dateFrom: iso('2025-01-01'), dateTo: iso('2025-06-30'), facilityName: 'Mercy Hospital' },
  Provider: { ...HOLDER, lastName: 'Okafor', firstName: 'Ben', providerType: 'Current Student', reason: 'CAQH requirements', dateFrom: iso('2025-01-01'), dateTo: iso('2025-02-01') },
  Rental: {
    ...HOLDER, certificateHolder: 'Hertz Rent-A-Car', autoType: 'Rental', lastName: 'Lee', firstName: 'Sam', driverName: 'Sam Lee',
    rentalCompany: 'Hertz', pickUpAddress: 'PDX Airport', rentalStartDate: iso('2025-03-01'), rentalEndDate: iso('2025-03-05'),
    acknowledgedApproval: true, vehicleIdNumber: '2HGFC2F59MH512345',
  },
  Fleet: {
    ...HOLDER, autoType: 'New/Leased Fleet Vehicle', lastName: 'Lee', firstName: 'Sam', vehicleYear: '2024', vehicleMake: 'Ford',
    vehicleModel: 'Transit', vehicleIdNumber: '1FTBR1C80MKA12345', vehicleLocation: 'Off-Campus Location/Other',
    vehicleLocationOther: 'Hillsboro lot', vehicleOwningDept: 'Facilities', vehicleType: 'Passenger Van', internalContact: 'Lee 503-494-2222',
  },
  'Contracts/Lease': { ...HOLDER, contractLeaseType: 'Lease', leaseNumber: 'L-2291', leaseExpirationDate: iso('2027-06-30'), isForLeasedProperty: 'Yes', leasedPropertyName: 'Gaines Hall', leasedPropertyAddress: '3 Pine St', internalContact: 'Pat 503-494-3333' },
  Event: {
    ...HOLDER, certificateHolder: 'City of Portland Parks', lastName: 'Diaz', firstName: 'Rosa', eventName: 'Spring Health Fair', eventType: 'Community Service',
    eventLocation: 'Pioneer Square', eventDescription: 'Blood pressure screenings', eventStartDate: iso('2025-05-01'), eventEndDate: iso('2025-05-01'),
    eventPatientCare: 'Yes', eventPatientCareDetail: 'Screenings by nurses', isProviderEmployRelated: 'Yes',
  },
  Property: { ...HOLDER, reason: 'Equipment', reasonEquipment: 'MRI scanner', newLeaseOrEquip: 'Yes', lessorName: 'GE Capital', loanNumber: 'LN-5', internalContact: 'Kim' },
};

/** A complete certificate draft of a subtype ('Rental' and 'Fleet' are Auto Liability), with a document when its kind needs one. */
export async function certificateDraft(h: Harness, session: Session, subtype: string, overrides: Record<string, unknown> = {}) {
  const certificateType = subtype === 'Rental' || subtype === 'Fleet' ? 'Auto Liability' : subtype;
  const created = await call(h, session, 'POST', '/api/v1/requests', { requestType: 'certificate', certificateType, ...CERTIFICATE_PAYLOADS[subtype], ...overrides });
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.id as number;
  if (certificateType === 'Contracts/Lease' || certificateType === 'Event') await attachDocument(h, session, id);
  return id;
}

/** Uploads a CS-STARS claims file to `POST /cs-stars` as the browser's form does (multipart, with the list limit). */
export async function uploadClaimsCsv(h: Harness, session: Session, text: string, filename = 'claims.csv', contentType = 'text/csv') {
  const boundary = `----claims${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="limit"\r\n\r\n10000\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
    Buffer.from(text), Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await h.app.inject({
    method: 'POST', url: '/api/v1/cs-stars', payload,
    headers: { authorization: `Bearer ${session.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  return { status: res.statusCode, body: res.json() };
}
