/**
 * The public verification of issued letters through the API, signed out: a code's status and facts (valid,
 * superseded with the newer code for the same holder and only the date for another, revoked with its reason
 * category), what never leaves (the revocation's note, claims, the requester's details, codes of letters still being
 * printed), one answer for unknown and malformed codes, the drop-a-PDF check (identical, one changed byte, unknown,
 * not a PDF, too large), the per-address limit, and the noindex headers. Letters are rows as the issuing activity
 * stores them (tests/e2e/verify-certificate.e2e.test.ts issues real ones through the workflow).
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatVerificationCode, newVerificationCode, VERIFICATION_CODE_RANDOM_BYTES, VERIFICATION_LIMIT, VERIFICATION_TOO_MANY } from '../../domain';
import { SAMPLE_PDF, credentialingDraft, loginRequester, type Session } from '../support/api-helpers';
import { resetRateLimits, startHarness, type Harness } from '../support/portal-harness';

const UPLOAD_LIMIT = 200_000;
let h: Harness;
let requester: Session;

beforeAll(async () => {
  h = await startHarness({ worker: false, env: { UPLOAD_MAX_BYTES: String(UPLOAD_LIMIT) } });
  requester = await loginRequester(h);
});
afterAll(async () => { await h?.stop(); });
beforeEach(async () => { await resetRateLimits(h.orm.em); });

const CERTIFICATE_FACTS = {
  kind: 'certificate', kindLabel: 'Certificate of Insurance', subtypeLabel: 'Event', certificateHolder: 'Crystal Ballroom LLC',
  insuredActivity: 'Event: Spring Gala; Event dates: 04/02/2027 6:00 PM – 04/02/2027 11:00 PM', coveragePeriod: { from: '2027-04-02', to: '2027-04-02' },
  coverageLine: 'General and Professional Liability',
  policies: [{ policyNumber: 'SIP-2026-27', effective: '2026-07-01', expiration: '2027-06-30', eachClaim: '1000000.00', annualAggregate: '3000000.00' }],
  dateIssued: '2026-11-20', timeZone: 'America/Los_Angeles',
  // What a snapshot might carry besides (an older or richer one): never shown on the public page.
  requesterEmail: 'private.requester@example.org', holderAddress: '1332 W Burnside St, Portland', holderEmail: 'events@crystal.example',
};
const LETTER_FACTS = {
  kind: 'claimHistoryLetter', kindLabel: 'Claim History and Insurance Verification letter', clinicianName: 'Holder Verity',
  letterDate: '2026-11-21', timeZone: 'America/Los_Angeles',
  claims: [{ claimNumber: 'CLM-SECRET-1', outcome: 'Dismissed' }], birthDate: '1980-04-12',
};

interface Letter { id: number; code: string; bytes: Buffer; requestId: number }
let serial = 0;

/**
 * An issued (or, with `issued: false`, reserved) letter row with its PDF's digest, of a request of its own (a request
 * has one current letter of a kind); answers its code and bytes.
 */
async function letter(facts: object, options: { issued?: boolean; kind?: string; requestId?: number } = {}): Promise<Letter> {
  serial += 1;
  const requestId = options.requestId ?? await credentialingDraft(h, requester, { lastName: 'Verity', firstName: 'Holder' });
  const code = newVerificationCode(randomBytes(VERIFICATION_CODE_RANDOM_BYTES));
  const bytes = Buffer.concat([SAMPLE_PDF, Buffer.from(`% letter ${serial} ${code}\n`)]);
  const rows = await h.orm.em.getConnection().execute(
    `insert into issued_letters (request_id, letter_kind, verification_code, sha256, idempotency_key, issued_at, facts)
     values (?, ?, ?, ?, ?, ?, ?::jsonb) returning id`,
    [requestId, options.kind ?? (facts as { kind: string }).kind, code, options.issued === false ? null : createHash('sha256').update(bytes).digest(),
      `verify-test-${serial}`, options.issued === false ? null : new Date('2026-11-20T18:00:00Z'), JSON.stringify(facts)], 'all',
  ) as Array<{ id: number }>;
  return { id: rows[0].id, code, bytes, requestId };
}

const sql = (text: string, params: unknown[]) => h.orm.em.getConnection().execute(text, params, 'run');
const get = (code: string, remoteAddress?: string) => h.app.inject({ method: 'GET', url: `/api/v1/verify/${encodeURIComponent(code)}`, remoteAddress });

function postPdf(bytes: Buffer, options: { contentType?: string; remoteAddress?: string } = {}) {
  const boundary = `----verify${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="certificate.pdf"\r\nContent-Type: ${options.contentType ?? 'application/pdf'}\r\n\r\n`),
    bytes, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return h.app.inject({ method: 'POST', url: '/api/v1/verify/pdf', payload, remoteAddress: options.remoteAddress, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

describe('a code, checked signed out', () => {
  it('a valid certificate answers Valid with what its paper states, and asks not to be indexed', async () => {
    const { code } = await letter(CERTIFICATE_FACTS);
    const res = await get(formatVerificationCode(code));
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-robots-tag']).toMatch(/noindex/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      status: 'Valid', code: formatVerificationCode(code), kind: 'certificate', kindLabel: 'Certificate of Insurance', issuedAt: '2026-11-20T18:00:00.000Z',
      certificate: {
        subtypeLabel: 'Event', certificateHolder: 'Crystal Ballroom LLC', insuredActivity: CERTIFICATE_FACTS.insuredActivity,
        coveragePeriod: { from: '2027-04-02', to: '2027-04-02' }, coverageLine: 'General and Professional Liability',
        policies: CERTIFICATE_FACTS.policies, dateIssued: '2026-11-20', timeZone: 'America/Los_Angeles',
      },
      claimHistoryLetter: null, superseded: null, revoked: null,
    });
  });

  it('a code typed in lower case, without dashes or with look-alikes, finds the same letter', async () => {
    const { code } = await letter(CERTIFICATE_FACTS);
    const lookAlike = code.replace(/0/g, 'o').replace(/1/g, 'l');
    for (const typed of [code.toLowerCase(), ` ${formatVerificationCode(code)} `, lookAlike]) {
      expect((await get(typed)).json().status, typed).toBe('Valid');
    }
  });

  /** `old` superseded on 11/25/2026 by a letter of the same request with `facts`. */
  async function supersede(old: Letter, facts: object): Promise<Letter> {
    await sql('update issued_letters set superseded_at = ? where id = ?', [new Date('2026-11-25T17:00:00Z'), old.id]);
    const newer = await letter(facts, { requestId: old.requestId });
    await sql('update issued_letters set superseded_by_id = ? where id = ?', [newer.id, old.id]);
    return newer;
  }

  it('a superseded letter names the newer one for the same holder, whose code checks as Valid', async () => {
    const old = await letter(CERTIFICATE_FACTS);
    // The same holder as people write it (case and spacing aside), the coverage moved.
    const newer = await supersede(old, { ...CERTIFICATE_FACTS, certificateHolder: ' CRYSTAL  Ballroom llc', coveragePeriod: { from: '2027-04-09', to: '2027-04-09' } });
    const body = (await get(old.code)).json();
    expect(body.status).toBe('Superseded');
    expect(body.superseded).toEqual({ on: '2026-11-25T17:00:00.000Z', newCode: formatVerificationCode(newer.code) });
    expect(body.revoked).toBeNull();
    expect((await get(body.superseded.newCode)).json().status).toBe('Valid');
  });

  it('a letter superseded by one for another holder says when, and never leads to it', async () => {
    const old = await letter(CERTIFICATE_FACTS);
    const newer = await supersede(old, { ...CERTIFICATE_FACTS, certificateHolder: 'Portland Art Museum' });
    const res = await get(old.code);
    expect(res.json().status).toBe('Superseded');
    expect(res.json().superseded).toEqual({ on: '2026-11-25T17:00:00.000Z', newCode: null });
    for (const secret of [newer.code, formatVerificationCode(newer.code), 'Portland Art Museum']) expect(res.body).not.toContain(secret);

    const letterOfOld = await letter(LETTER_FACTS);
    await supersede(letterOfOld, { ...LETTER_FACTS, clinicianName: 'Other Clinician' });
    expect((await get(letterOfOld.code)).json().superseded).toEqual({ on: '2026-11-25T17:00:00.000Z', newCode: null });
  });

  it('a revoked letter answers Revoked with the date and the reason category, never the administrator\'s note', async () => {
    const { id, code } = await letter(CERTIFICATE_FACTS);
    await sql(`update issued_letters set revoked_at = ?, revoke_reason = 'Coverage cancelled', revoke_note = 'Gala cancelled by the dean; do not tell the venue' where id = ?`,
      [new Date('2026-11-26T16:30:00Z'), id]);
    const res = await get(code);
    expect(res.json().status).toBe('Revoked');
    expect(res.json().revoked).toEqual({ on: '2026-11-26T16:30:00.000Z', reasonCategory: 'Coverage cancelled' });
    expect(res.body).not.toContain('dean');
  });
});

describe('what a holder may see', () => {
  it('a claim-history letter shows the clinician, the date and the status only: no claims, no birth date', async () => {
    const { code } = await letter(LETTER_FACTS);
    const res = await get(code);
    const body = res.json();
    expect(body.status).toBe('Valid');
    expect(body.certificate).toBeNull();
    expect(body.claimHistoryLetter).toEqual({ clinicianName: 'Holder Verity', letterDate: '2026-11-21', timeZone: 'America/Los_Angeles' });
    for (const secret of ['CLM-SECRET-1', 'Dismissed', '1980-04-12', 'claims']) expect(res.body).not.toContain(secret);
  });

  it('a certificate shows nothing of the requester or of the snapshot beyond the listed facts', async () => {
    const res = await get((await letter(CERTIFICATE_FACTS)).code);
    for (const secret of ['private.requester@example.org', 'Burnside', 'events@crystal.example']) expect(res.body).not.toContain(secret);
    expect(Object.keys(res.json().certificate).sort()).toEqual(
      ['certificateHolder', 'coverageLine', 'coveragePeriod', 'dateIssued', 'insuredActivity', 'policies', 'subtypeLabel', 'timeZone']);
  });

  it('a code reserved for a letter still being printed is not issued', async () => {
    const { code } = await letter(CERTIFICATE_FACTS, { issued: false });
    expect((await get(code)).json().status).toBe('NotIssued');
  });
});

describe('no enumeration', () => {
  it('unknown and malformed codes get one and the same answer', async () => {
    await letter(CERTIFICATE_FACTS); // codes exist: the answers below are not those of an empty table
    const unknown = formatVerificationCode(newVerificationCode(randomBytes(VERIFICATION_CODE_RANDOM_BYTES)));
    const asked = [unknown, 'ABC', 'not a code!', 'UUUU-UUUU-UUUUU', 'X'.repeat(90), "'; select 1; --", '%00'];
    const answers = await Promise.all(asked.map(async (code) => { const res = await get(code); return { code, status: res.statusCode, body: res.body }; }));
    for (const answer of answers) {
      expect(answer, answer.code).toEqual({ code: answer.code, status: 200, body: answers[0].body });
    }
    expect(JSON.parse(answers[0].body)).toEqual({
      status: 'NotIssued', code: null, kind: null, kindLabel: null, issuedAt: null, certificate: null, claimHistoryLetter: null, superseded: null, revoked: null,
    });
  });
});

describe('a dropped PDF', () => {
  it('the identical file answers its letter\'s status; one changed byte and an unknown file are not issued by us', async () => {
    const issued = await letter(CERTIFICATE_FACTS);
    const identical = await postPdf(issued.bytes);
    expect(identical.statusCode).toBe(200);
    expect(identical.headers['x-robots-tag']).toMatch(/noindex/);
    expect(identical.json()).toMatchObject({ status: 'Valid', code: formatVerificationCode(issued.code), certificate: { certificateHolder: 'Crystal Ballroom LLC' } });

    const altered = Buffer.from(issued.bytes);
    altered[altered.length - 3] ^= 0x01;
    const unknown = Buffer.concat([SAMPLE_PDF, Buffer.from('% never issued\n')]);
    const [alteredRes, unknownRes, unknownCode] = await Promise.all([postPdf(altered), postPdf(unknown), get('0000-0000-00000')]);
    expect(alteredRes.json().status).toBe('NotIssued');
    expect(alteredRes.body).toBe(unknownRes.body);
    expect(unknownRes.body).toBe(unknownCode.body);
  });

  it('a revoked letter\'s file says Revoked', async () => {
    const issued = await letter(LETTER_FACTS);
    await sql(`update issued_letters set revoked_at = now(), revoke_reason = 'Issued in error' where id = ?`, [issued.id]);
    expect((await postPdf(issued.bytes)).json()).toMatchObject({ status: 'Revoked', revoked: { reasonCategory: 'Issued in error' } });
  });

  it('a file that is not a PDF is refused; one past the upload limit is refused unread', async () => {
    const notPdf = await postPdf(Buffer.from('hello, this is plain text'), { contentType: 'text/plain' });
    expect(notPdf.statusCode).toBe(400);
    expect(notPdf.json().message).toBe('Please choose the PDF file of a certificate or letter.');
    const big = await postPdf(Buffer.concat([SAMPLE_PDF, Buffer.alloc(UPLOAD_LIMIT + 10, 0x20)]));
    expect(big.statusCode).toBe(413);
    const none = await h.app.inject({ method: 'POST', url: '/api/v1/verify/pdf', payload: {} });
    expect(none.statusCode).toBe(400);
  });
});

describe('the per-address limit', () => {
  it(`${VERIFICATION_LIMIT.max} checks a minute pass from one address; the next is refused with Retry-After, code and PDF alike, and other addresses go on`, async () => {
    const { code, bytes } = await letter(CERTIFICATE_FACTS);
    const address = '203.0.113.7';
    for (let i = 0; i < VERIFICATION_LIMIT.max - 1; i += 1) expect((await get(code, address)).statusCode).toBe(200);
    expect((await postPdf(bytes, { remoteAddress: address })).statusCode).toBe(200);
    const refused = await get(code, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(VERIFICATION_TOO_MANY);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['x-robots-tag']).toMatch(/noindex/);
    expect((await postPdf(bytes, { remoteAddress: address })).statusCode).toBe(429);
    expect((await get(code, '198.51.100.20')).json().status).toBe('Valid');
  });
});
