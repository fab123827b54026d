/**
 * Certificates that prove themselves, the issuing half, on real parts (PostgreSQL, Temporal, Chromium, SMTP sink):
 * every approved certificate and claim-history letter carries a verification code and its QR, is recorded with the
 * SHA-256 of the signed bytes that went out, is signed (PAdES baseline B) so poppler's pdfsig says valid, and a
 * new letter for the same request supersedes the previous one.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentSchema, IssuedLetterSchema } from '../../db/entities';
import { reserveVerificationCode } from '../../activities/effects/issued-letters';
import {
  EMAIL_FAILED_ACTIVITY, formatVerificationCode, isWellFormedVerificationCode, REVOKED_EMAIL_ON_DEMAND, STATUS, VERIFICATION_CODE_ALPHABET,
} from '../../domain';
import { call, certificateDraft, credentialingDraft, loginAdmin, loginEmployee, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { alteredCopy, pdfsig } from '../support/pdfsig';
import { startHarness, type Harness } from '../support/portal-harness';

const run = promisify(execFile);
let h: Harness;
let employee: Session;
let requester: Session;
let admin: Session;

beforeAll(async () => {
  h = await startHarness();
  employee = await loginEmployee(h);
  requester = await loginRequester(h);
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

async function withPdfFile<T>(bytes: Uint8Array, work: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'coi-issued-'));
  const file = path.join(dir, 'letter.pdf');
  await writeFile(file, bytes);
  try {
    return await work(file, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
const pdfText = (bytes: Uint8Array) => withPdfFile(bytes, async (file) => (await run('pdftotext', ['-layout', file, '-'])).stdout);
const pageCount = (bytes: Uint8Array) => withPdfFile(bytes, async (file) => Number(/Pages:\s+(\d+)/.exec((await run('pdfinfo', [file])).stdout)?.[1]));
/** The QR read back from the printed page, as a phone would (pdftoppm, then zbarimg). */
const qrOf = (bytes: Uint8Array) => withPdfFile(bytes, async (file, dir) => {
  await run('pdftoppm', ['-png', '-r', '150', '-singlefile', file, path.join(dir, 'page')]);
  if (process.env.KEEP_LETTER_PNG) await writeFile(process.env.KEEP_LETTER_PNG, await readFile(path.join(dir, 'page.png')));
  return (await run('zbarimg', ['--raw', '-q', path.join(dir, 'page.png')])).stdout.trim();
});
const readAll = async (stream: AsyncIterable<Buffer>) => { const chunks: Buffer[] = []; for await (const c of stream) chunks.push(c); return Buffer.concat(chunks); };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const issued = (requestId: number) => h.orm.em.fork().find(IssuedLetterSchema, { requestId }, { orderBy: { id: 'asc' } });

async function approvedCertificate() {
  const id = await certificateDraft(h, employee, 'Rental');
  const sub = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  expect(sub.status, JSON.stringify(sub.body)).toBe(200);
  const number = sub.body.requestNumber as number;
  const decided = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.approved, verified: false });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  const mail = await h.sink.waitFor((m) => m.subject === `Request ${number} approved: certificate of insurance`, 90_000);
  return { id, number, pdf: mail.attachments[0].content };
}

describe('a certificate carries a verification code, a QR code and the office\'s signature', () => {
  it('prints the code and a QR that opens <PUBLIC_URL>/verify/<code>, records the signed bytes\' digest and the facts, one page', async () => {
    const { id, pdf } = await approvedCertificate();
    const [row] = await issued(id);
    expect(row).toMatchObject({ letterKind: 'certificate', supersededAt: null, revokedAt: null });
    expect(isWellFormedVerificationCode(row.verificationCode)).toBe(true);
    expect(row.issuedAt).toBeInstanceOf(Date);
    const printed = formatVerificationCode(row.verificationCode);

    const text = await pdfText(pdf);
    expect(text).toContain(`Verification code: ${printed}`);
    expect(text.replace(/\s+/g, ' ')).toContain(`go to ${h.config.publicUrl}/verify and enter the code`);
    expect(text.replace(/\s+/g, ' ')).toContain('This PDF is digitally signed by the Risk Management Office.');
    expect(await pageCount(pdf)).toBe(1);
    expect(await qrOf(pdf)).toBe(`${h.config.publicUrl}/verify/${printed}`);

    // The digest is the one of the bytes the holder received (the emailed attachment), which are the stored document's.
    expect(Buffer.from(row.sha256!).toString('hex')).toBe(sha256(pdf));
    const document = await h.orm.em.fork().findOneOrFail(DocumentSchema, { id: row.documentId! });
    const stored = await readAll(h.files.read(document.storedName));
    expect(sha256(stored)).toBe(sha256(pdf));

    expect(row.facts).toMatchObject({
      kind: 'certificate', kindLabel: 'Certificate of Insurance', certificateHolder: 'Hertz Rent-A-Car',
    });
    expect(row.facts.kind === 'certificate' && row.facts.insuredActivity).toMatch(/^Rental vehicle: .{20,}/);
    expect(row.facts.kind === 'certificate' && row.facts.policies.length).toBeGreaterThan(0);
  });

  it('is signed: pdfsig says "Signature is Valid." (PAdES, ETSI.CAdES.detached), and one changed byte says Digest Mismatch', async () => {
    const { pdf } = await approvedCertificate();
    const report = await pdfsig(pdf);
    expect(report.output).toContain('Signature Validation: Signature is Valid.');
    expect(report).toMatchObject({ count: 1, valid: true, signatureType: 'ETSI.CAdES.detached', wholeDocument: true, signedBy: 'COI portal development signing' });
    const altered = await pdfsig(alteredCopy(pdf));
    expect(altered.valid).toBe(false);
    expect(altered.validation).toBe('Digest Mismatch.');
  });

  it('a new certificate for the same request supersedes the previous one in the same statement; codes differ', async () => {
    const { id } = await approvedCertificate();
    const regenerated = await call(h, admin, 'POST', '/api/v1/generate-pdfs', { requestId: id });
    expect(regenerated.status, JSON.stringify(regenerated.body)).toBe(200);
    const rows = await eventually(async () => {
      const found = await issued(id);
      return found.length === 2 && found[1].issuedAt ? found : undefined;
    }, 60_000);
    const [first, second] = rows;
    expect(first.supersededById).toBe(second.id);
    expect(first.supersededAt).toBeInstanceOf(Date);
    expect(second.supersededAt).toBeNull();
    expect(second.verificationCode).not.toBe(first.verificationCode);
    expect(Buffer.from(second.sha256!).equals(Buffer.from(first.sha256!))).toBe(false);
    // at most one current letter per request and kind
    const current = await h.orm.em.fork().getConnection().execute(
      `select count(*)::int as n from issued_letters where request_id = ? and issued_at is not null and superseded_at is null and revoked_at is null`, [id]);
    expect(current[0].n).toBe(1);
  });
});

describe('a claim-history letter', () => {
  it('carries its code and signature; the record keeps the clinician and the date only, no claims data', async () => {
    const id = await credentialingDraft(h, requester, { firstName: 'Morgan', lastName: 'Reyes' });
    const sub = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
    const number = sub.body.requestNumber as number;
    expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.approved, verified: true })).status).toBe(200);
    const mail = await h.sink.waitFor((m) => m.subject.startsWith(`Request ${number} approved`) && m.attachments.length > 0, 90_000);
    const pdf = mail.attachments[0].content;
    const [row] = await issued(id);
    expect(row.letterKind).toBe('claimHistoryLetter');
    expect(Object.keys(row.facts).sort()).toEqual(['clinicianName', 'kind', 'kindLabel', 'letterDate', 'timeZone']);
    expect(row.facts).toMatchObject({ kind: 'claimHistoryLetter', clinicianName: 'Morgan Reyes' });
    expect(await pdfText(pdf)).toContain(`Verification code: ${formatVerificationCode(row.verificationCode)}`);
    expect(await pageCount(pdf)).toBe(1);
    expect((await pdfsig(pdf)).valid).toBe(true);
    expect(Buffer.from(row.sha256!).toString('hex')).toBe(sha256(pdf));
  });
});

describe('revoking a certificate', () => {
  const revoke = (id: number, code: string, body: Record<string, unknown>, session = admin) =>
    call(h, session, 'POST', `/api/v1/requests/${id}/certificates/${code}/revoke`, body);
  const list = async (id: number, session = admin) => {
    const res = await call(h, session, 'GET', `/api/v1/requests/${id}/certificates`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.items as Array<Record<string, unknown>>;
  };

  it('an administrator revokes with a reason: the record, the audit row and the requester\'s email ("Certificate Revoked")', async () => {
    const { id, number } = await approvedCertificate();
    const [item] = await list(id, employee); // the requester sees the list too
    expect(item).toMatchObject({ kind: 'certificate', status: 'Valid', revokedAt: null, revokeReason: null });
    const code = item.code as string;
    expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{5}$/);

    // typed as a person would: lower case, no dashes
    const res = await revoke(id, code.toLowerCase().replace(/-/g, ''), { reason: 'Coverage cancelled', note: 'The rental was cancelled.' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ code, status: 'Revoked', revokeReason: 'Coverage cancelled' });

    const mail = await h.sink.waitFor((m) => m.subject === `Request ${number}: certificate revoked`, 60_000);
    expect(mail.to).toContain('employee@ohsu.example');
    expect(mail.text).toContain(`The Certificate of Insurance with verification code ${code}`);
    expect(mail.text).toContain('Reason: Coverage cancelled. The rental was cancelled.');

    const [row] = await issued(id);
    expect(row).toMatchObject({ revokeReason: 'Coverage cancelled', revokeNote: 'The rental was cancelled.' });
    expect(row.revokedAt).toBeInstanceOf(Date);
    expect(row.revokedBy).toBe(admin.user.id);
    const audit = await h.orm.em.fork().getConnection().execute(
      `select activity_type as "type", activity_text as "text", performed_by as "by", performed_by_user_id as "userId"
       from request_activity where request_id = ? and activity_type = 'Certificate Revoked'`, [id]);
    expect(audit).toHaveLength(1);
    expect(audit[0].userId, 'the account beside the name').toBe(admin.user.id);
    expect(audit[0].text).toContain(`Revoked Certificate of Insurance ${code}`);
    expect(audit[0].text).toContain('Coverage cancelled');

    // The email is sent on a revocation only, never on demand; a failed one is sent again saying the same.
    const onDemand = await call(h, admin, 'POST', '/api/v1/send-email', { requestId: id, templateTitle: 'Certificate Revoked' });
    expect(onDemand.status).toBe(400);
    expect(onDemand.body.message).toBe(REVOKED_EMAIL_ON_DEMAND);
    const sql = h.orm.em.fork().getConnection();
    const [effect] = await sql.execute(`update request_effects set state = 'failed', failure = 'mail server away' where request_id = ? and template_title = 'Certificate Revoked' returning id`, [id]);
    const [failedRow] = await sql.execute(
      `insert into request_activity (request_id, date, activity_type, activity_text, performed_by, effect_id, effect_outcome, created_at, updated_at)
       values (?, now(), ?, 'the email could not be sent', 'COI Automated Document System', ?, 'failed', now(), now()) returning id`, [id, EMAIL_FAILED_ACTIVITY, effect.id]);
    const resent = await call(h, admin, 'POST', '/api/v1/send-email', { requestId: id, templateTitle: 'Certificate Revoked', retryOf: failedRow.id });
    expect(resent.status, JSON.stringify(resent.body)).toBeLessThan(300);
    const second = await h.sink.waitFor((m) => m.subject === `Request ${number}: certificate revoked` && m.messageId !== mail.messageId, 60_000);
    expect(second.text).toContain('Reason: Coverage cancelled. The rental was cancelled.');

    // twice: a clear Conflict in the error shape, nothing more written or sent
    const again = await revoke(id, code, { reason: 'Issued in error' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ name: 'Conflict', message: 'This certificate has already been revoked.' });
    expect((await list(id))[0]).toMatchObject({ status: 'Revoked', revokeReason: 'Coverage cancelled' });
  });

  it('refuses a superseded certificate, an unknown code, a missing reason or an "Other" without a note, and non-administrators', async () => {
    const { id } = await approvedCertificate();
    expect((await call(h, admin, 'POST', '/api/v1/generate-pdfs', { requestId: id })).status).toBe(200);
    const items = await eventually(async () => {
      const found = await list(id);
      return found.length === 2 ? found : undefined;
    }, 60_000);
    const [current, old] = items;
    expect(current.status).toBe('Valid');
    expect(old).toMatchObject({ status: 'Superseded' });
    expect(old.supersededAt).toBeTruthy();

    const superseded = await revoke(id, old.code as string, { reason: 'Issued in error' });
    expect(superseded.status).toBe(409);
    expect(superseded.body.message).toMatch(/superseded by a newer one/);
    expect((await revoke(id, 'ABCD-EFGH-JKMNP', { reason: 'Issued in error' })).status).toBe(404);
    expect((await revoke(id, 'not-a-code', { reason: 'Issued in error' })).status).toBe(404);
    const other = await revoke(id, current.code as string, { reason: 'Other' });
    expect(other.status).toBe(400);
    expect(other.body.errors).toMatchObject({ note: 'Say why the certificate is revoked.' });
    expect((await revoke(id, current.code as string, { reason: 'Because' })).status).toBe(400);
    expect((await revoke(id, current.code as string, { reason: 'Issued in error' }, employee)).status).toBe(403);
    expect((await list(id))[0]).toMatchObject({ status: 'Valid' });

    // revoked, then a new certificate: the revoked one stays Revoked, the new one is Valid
    expect((await revoke(id, current.code as string, { reason: 'Details changed' })).status).toBe(200);
    expect((await call(h, admin, 'POST', '/api/v1/generate-pdfs', { requestId: id })).status).toBe(200);
    const after = await eventually(async () => {
      const found = await list(id);
      return found.length === 3 ? found : undefined;
    }, 60_000);
    expect(after.map((i) => i.status)).toEqual(['Valid', 'Revoked', 'Superseded']);
  });
});

describe('the code is reserved before printing', () => {
  const facts = { kind: 'claimHistoryLetter' as const, kindLabel: 'x', clinicianName: 'A B', letterDate: '2026-11-27', timeZone: 'America/Los_Angeles' };

  it('a retried activity gets the code the first attempt reserved; a drawn code already taken is drawn again', async () => {
    const { id } = await approvedCertificate();
    const db = h.orm.em.fork();
    const key = `test-reserve:${id}:${Date.now()}`;
    const first = await reserveVerificationCode(db, { requestId: id, key, kind: 'claimHistoryLetter', facts });
    const again = await reserveVerificationCode(db, { requestId: id, key, kind: 'claimHistoryLetter', facts });
    expect(again).toEqual(first);

    // the random source first repeats the bytes of the taken code, then gives new ones
    const [taken] = await issued(id);
    const takenBytes = bytesOf(taken.verificationCode);
    let draws = 0;
    const random = (size: number) => (draws++ === 0 ? takenBytes : randomBytes(size));
    const other = await reserveVerificationCode(db, { requestId: id, key: `${key}:other`, kind: 'claimHistoryLetter', facts }, random);
    expect(draws).toBe(2);
    expect(other.code).not.toBe(taken.verificationCode);
    // reserved, not issued: the request's list does not show them
    const items = (await call(h, admin, 'GET', `/api/v1/requests/${id}/certificates`)).body.items as unknown[];
    expect(items).toHaveLength(1);
  });
});

/** The 9 random bytes a code was drawn from (5 bits a symbol, the last 7 bits zero). */
function bytesOf(code: string): Uint8Array {
  const bits = [...code].map((c) => VERIFICATION_CODE_ALPHABET.indexOf(c).toString(2).padStart(5, '0')).join('').padEnd(72, '0');
  return Uint8Array.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
}
