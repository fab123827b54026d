/**
 * The letter printer as an operator relies on it: letters printed side by side each say their own request, and a
 * Chromium that dies (out of memory, killed) is replaced for the next letter instead of failing every letter after,
 * and Chromium runs without the worker's secrets in its environment.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ChromiumPdfRenderer } from '../../activities/pdf/chromium-pdf-renderer';
import { prelaunchLetterRenderer, renderLetterDocument } from '../../activities/pdf/letter-documents';
import { LETTER_CHROMIUM_PATH } from '../../config/app-config';
import { eventually } from '../support/eventually';

const run = promisify(execFile);
const renderer = new ChromiumPdfRenderer(process.env.CHROMIUM_PATH ?? LETTER_CHROMIUM_PATH);
afterAll(() => renderer.close());

const letterHtml = (requestNumber: number, clinicianName: string) => renderLetterDocument({
  kind: 'credentialing-letter', requestNumber, issuedOn: '2026-11-22T08:00:00.000Z', clinicianName, birthDate: null,
  dateFrom: '2024-07-01T00:00:00.000Z', dateTo: '2025-06-30T00:00:00.000Z', recipientName: 'Rowan Requester', recipientCompany: null,
  policyYears: [], claims: [],
}).html;

async function pdfText(bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'coi-pdf-'));
  try {
    await writeFile(path.join(dir, 'letter.pdf'), bytes);
    return (await run('pdftotext', ['-layout', path.join(dir, 'letter.pdf'), '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Chromium processes this test process started (Linux /proc). */
function chromiumPids(): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number).filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--single-process');
    } catch {
      return false;
    }
  });
}

describe('the PDF renderer', () => {
  it('prints letters side by side, more than it has lanes, each with its own request', async () => {
    await prelaunchLetterRenderer(renderer);
    const people = ['Avery Adams', 'Blair Brook', 'Casey Cole', 'Devon Dale', 'Emery Eve'];
    const pdfs = await Promise.all(people.map((name, i) => renderer.render(letterHtml(9000 + i, name))));
    const texts = await Promise.all(pdfs.map(pdfText));
    texts.forEach((text, i) => {
      expect(text).toContain(`Request number: ${9000 + i}`);
      expect(text).toContain(`coverage for ${people[i]}`);
      for (const other of people.filter((_, j) => j !== i)) expect(text).not.toContain(other);
    });
  });

  it('replaces a Chromium that was killed: the next letters print', async () => {
    await renderer.render(letterHtml(9100, 'Before Kill'));
    const pids = chromiumPids();
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    const texts = await Promise.all([9101, 9102, 9103].map(async (n) => pdfText(await renderer.render(letterHtml(n, `After Kill ${n}`)))));
    texts.forEach((text, i) => expect(text).toContain(`Request number: ${9101 + i}`));
    expect(chromiumPids().some((pid) => !pids.includes(pid))).toBe(true);
  });
});

describe('a print that never returns (a hung Chromium)', () => {
  it('times out, kills that browser, frees the lane, and the next attempt prints in a new browser', async () => {
    // A print timeout a busy machine does not reach with a sound print (seconds there), so only the hung one times out.
    const hanging = new ChromiumPdfRenderer(process.env.CHROMIUM_PATH ?? LETTER_CHROMIUM_PATH, 1, 15_000);
    try {
      const before = new Set(chromiumPids());
      await hanging.render(letterHtml(9200, 'Before Hang'));
      const [hung] = chromiumPids().filter((pid) => !before.has(pid));
      expect(hung).toBeGreaterThan(0);
      process.kill(hung, 'SIGSTOP'); // the browser stops answering, as a hung one does
      // The answer is the timeout's error (a hang would be no answer at all, and the test's own timeout).
      const failure = await hanging.render(letterHtml(9201, 'During Hang')).catch((error: Error) => error);
      expect(failure).toMatchObject({ name: 'PrintTimeout' });
      expect((failure as Error).message).toContain('did not finish printing within 15 s');
      // The one lane is free again and its browser was killed, not left stopped.
      expect(await pdfText(await hanging.render(letterHtml(9202, 'After Hang')))).toContain('Request number: 9202');
      expect(chromiumPids()).not.toContain(hung);
    } finally {
      await hanging.close();
    }
  });
});

describe('a worker stopping while its browsers still start', () => {
  it('closes them and launches none after: the start-up sample letter cannot keep the process alive', async () => {
    const stopping = new ChromiumPdfRenderer(process.env.CHROMIUM_PATH ?? LETTER_CHROMIUM_PATH);
    const before = new Set(chromiumPids());
    const warming = prelaunchLetterRenderer(stopping);
    await eventually(async () => chromiumPids().some((pid) => !before.has(pid)), 60_000, 10); // a browser is starting
    await stopping.close();
    await warming; // the sample letter's failure is swallowed; it must not relaunch a browser
    await expect(stopping.render(letterHtml(1, 'After Close'))).rejects.toThrow('The PDF renderer is closed');
  });
});

describe('the environment Chromium runs in', () => {
  it('holds none of the worker\'s secrets (signing key, passwords, database address), only what a browser needs', async () => {
    // As the production worker has them (config/app-config.ts): set before the browser starts, put back after.
    const secrets: Record<string, string> = {
      LETTER_SIGNING_P12: Buffer.from('office signing key bytes').toString('base64'), LETTER_SIGNING_P12_PASSWORD: 'p12-password-7731',
      JWT_SECRET: 'jwt-secret-of-the-office-0123456789abcdef', REPLY_TOKEN_SECRET: 'reply-token-secret-0123456789abcdef',
      DATABASE_URL: 'postgres://coi_app:db-password-4410@db.internal:5432/coi_portal', SMTP_URL: 'smtp://relay:smtp-password-9902@relay.internal:25',
    };
    const saved = Object.fromEntries(Object.keys(secrets).map((name) => [name, process.env[name]]));
    Object.assign(process.env, secrets);
    const printer = new ChromiumPdfRenderer(process.env.CHROMIUM_PATH ?? LETTER_CHROMIUM_PATH, 1);
    try {
      const before = new Set(chromiumPids());
      expect(await pdfText(await printer.render(letterHtml(9300, 'Clean Environment')))).toContain('Request number: 9300');
      const [browser] = chromiumPids().filter((pid) => !before.has(pid));
      expect(browser).toBeGreaterThan(0);
      const environ = readFileSync(`/proc/${browser}/environ`, 'utf8').split('\0').filter(Boolean);
      const names = environ.map((entry) => entry.slice(0, entry.indexOf('=')));
      expect(names.filter((name) => /KEY|SECRET|PASSWORD|PASSWD|TOKEN|P12|CREDENTIAL|DATABASE|SMTP/i.test(name))).toEqual([]);
      for (const value of Object.values(secrets)) expect(environ.join('\n')).not.toContain(value);
      expect(names).toEqual(expect.arrayContaining(['PATH', 'HOME']));
    } finally {
      await printer.close();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
