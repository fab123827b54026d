/**
 * On real parts: an approved certificate request gets its Certificate of Insurance (or, approved with a
 * Letter of Intent, the letter) printed by Chromium from the right template, stored as a document of the request
 * and emailed with the certificate approval templates.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentSchema, RequestActivitySchema } from '../../db/entities';
import { STATUS, uncoveredCertificateMessage } from '../../domain';
import { call, certificateDraft, loginAdmin, loginEmployee, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';

const run = promisify(execFile);
let h: Harness;
let employee: Session;
let admin: Session;

beforeAll(async () => {
  h = await startHarness();
  employee = await loginEmployee(h);
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

async function pdfText(bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'coi-cert-'));
  const file = path.join(dir, 'doc.pdf');
  await writeFile(file, bytes);
  try {
    return (await run('pdftotext', ['-layout', file, '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function submitAndDecide(subtype: string, status: string, verified = false, form: Record<string, unknown> = {}) {
  const id = await certificateDraft(h, employee, subtype, form);
  const sub = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  expect(sub.status, JSON.stringify(sub.body)).toBe(200);
  const number = sub.body.requestNumber as number;
  const decided = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status, verified });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  return { id, number };
}

describe('the certificate is issued by the request workflow', () => {
  it('a rental: "Certificate of Insurance <n>.pdf" with the holder and the VIN, emailed as Certificate Request Approved', async () => {
    // the person chosen as Supervisor is named so on the certificate
    const { id, number } = await submitAndDecide('Rental', STATUS.approved, false, { personRole: 'Supervisor' });
    const mail = await h.sink.waitFor((m) => m.subject === `Request ${number} approved: certificate of insurance`, 60_000);
    expect(mail.text).toContain('Certificate holder: Hertz Rent-A-Car');
    expect(mail.attachments.map((a) => a.filename)).toEqual([`Certificate of Insurance ${number}.pdf`]);
    await writeFile(path.join(os.tmpdir(), 'coi-last-certificate.pdf'), mail.attachments[0].content);
    const text = await pdfText(mail.attachments[0].content);
    expect(text).toContain('Certificate of Insurance');
    expect(text).toContain('Hertz Rent-A-Car');
    expect(text).toContain('2HGFC2F59MH512345');
    expect(text).toMatch(/Automobile\s+Liability/);
    expect(text).toMatch(/Supervisor\s+responsible/);
    expect(text).toContain(String(number));
    const documents = await h.orm.em.fork().find(DocumentSchema, { requestId: id });
    expect(documents.map((d) => [d.name, d.description])).toContainEqual([`Certificate of Insurance ${number}.pdf`, 'Certificate of Insurance']);
    const audit = await eventually(async () => {
      const rows = await h.orm.em.fork().find(RequestActivitySchema, { requestId: id });
      return rows.some((r) => r.activityText === '"Certificate Request Approved" email sent') && rows;
    });
    expect(audit.map((r) => r.activityText)).toContain(`Generated "Certificate of Insurance ${number}.pdf"`);
  });

  it('an event: the certificate describes the event by name and its times, with the policy year covering its date', async () => {
    const { number } = await submitAndDecide('Event', STATUS.approved, false, { eventStartTime: '09:00', eventEndTime: '17:30' });
    const mail = await h.sink.waitFor((m) => m.subject === `Request ${number} approved: certificate of insurance`, 60_000);
    const text = await pdfText(mail.attachments[0].content);
    expect(text).toContain('Spring Health Fair');
    expect(text).toMatch(/05\/01\/2025 9:00 AM\s+–\s+05\/01\/2025 5:30 PM/); // the event's times of day
    expect(text).toContain('City of Portland Parks');
    // The coverage's name wraps inside its column (the table keeps to the page's frame): the row starts with its
    // first words and the policy year covering the event's date, the rest of the name on the line under it.
    expect(text).toMatch(/General and\s+UHS-PL-2024-25\s+07\/01\/2024\s+06\/30\/2025/);
    expect(text).toMatch(/^\s*Professional Liability\s*$/m);
    expect(text).not.toContain('No policy year on record');
  });

  it('contracts/lease approved with Letter of Intent: "Letter of Intent <n>.pdf" emailed with its own template', async () => {
    const unverified = await certificateDraft(h, employee, 'Contracts/Lease');
    await call(h, employee, 'PATCH', `/api/v1/requests/${unverified}`, { status: STATUS.submitted });
    const refused = await call(h, admin, 'PATCH', `/api/v1/requests/${unverified}`, { status: STATUS.approvedWithLetterOfIntent, verified: false });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Verification required');

    const { id, number } = await submitAndDecide('Contracts/Lease', STATUS.approvedWithLetterOfIntent, true);
    const mail = await h.sink.waitFor((m) => m.subject === `Request ${number} approved with letter of intent`, 60_000);
    expect(mail.attachments.map((a) => a.filename)).toEqual([`Letter of Intent ${number}.pdf`]);
    const text = await pdfText(mail.attachments[0].content);
    expect(text).toContain('Letter of Intent');
    expect(text).toContain('Mercy Hospital');
    expect(text).toContain('L-2291');
    expect(text).toContain('Gaines Hall');
    const documents = await h.orm.em.fork().find(DocumentSchema, { requestId: id });
    expect(documents.map((d) => d.name)).toContain(`Letter of Intent ${number}.pdf`);
  });
});

describe('no certificate without coverage', () => {
  it('refuses approving a certificate whose dates no policy year covers, naming them, and offers Pending New Policy Year', async () => {
    const id = await certificateDraft(h, employee, 'Event', { eventStartDate: '2090-04-18T11:00:00.000Z', eventEndDate: '2090-04-19T11:00:00.000Z' });
    const sub = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    // The approval's traces: a status-change row naming Approved (other rows, e.g. the confirmation email's, come and go).
    const approvals = async () => h.orm.em.fork().count(RequestActivitySchema, { requestId: id, activityText: { $like: '%Approved%' } });
    for (const status of [STATUS.approved, STATUS.approvedWithLetterOfIntent]) {
      const refused = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status, verified: true });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ name: 'BadRequest', message: uncoveredCertificateMessage('2090-04-18', '2090-04-19') });
      expect(refused.body.message).toContain('04/18/2090 – 04/19/2090');
      expect(refused.body.message).toContain(`"${STATUS.pendingNewPolicyYear}"`);
    }
    const row = await call(h, admin, 'GET', `/api/v1/requests/${id}`);
    expect(row.body.status).toBe(STATUS.submitted); // nothing written: no status, no audit row, no document
    expect(await approvals()).toBe(0);
    expect(await h.orm.em.fork().count(DocumentSchema, { requestId: id, name: { $like: 'Certificate%' } })).toBe(0);
    const waiting = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.pendingNewPolicyYear });
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(200);
    expect(waiting.body.status).toBe(STATUS.pendingNewPolicyYear);
  });

  it('issues one dated today (no dates of its own): the seed holds the current and next policy years', async () => {
    const { id } = await submitAndDecide('Property', STATUS.approved);
    await eventually(async () => (await h.orm.em.fork().count(DocumentSchema, { requestId: id, name: { $like: 'Certificate%' } })) > 0 || undefined, 60_000);
  });
});
