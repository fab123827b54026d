/**
 * The office's signature on issued PDFs: which certificate signs (the office's P12 from the settings, or a development
 * one made at first start and kept), production's refusal to start the worker without it, and what poppler's pdfsig
 * says of a signed letter and of a copy with one byte changed.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChromiumPdfRenderer } from '../../activities/pdf/chromium-pdf-renderer';
import { renderLetterDocument } from '../../activities/pdf/letter-documents';
import { DEVELOPMENT_SIGNER_NAME, loadLetterSigner, makeSelfSignedP12 } from '../../activities/pdf/letter-signing-key';
import { ConfigError, LETTER_CHROMIUM_PATH, loadConfig } from '../../config/app-config';
import { alteredCopy, pdfsig } from '../support/pdfsig';

const OFFICE = {
  NODE_ENV: 'production', JWT_SECRET: randomBytes(36).toString('base64'), PUBLIC_URL: 'https://coi.university.example',
  RISK_MANAGEMENT_PHONE: '503-494-7700', RISK_MANAGEMENT_EMAIL: 'riskmanagement@university.example',
};
let dataDir: string;
let printed: Buffer;
const pdf = new ChromiumPdfRenderer(process.env.CHROMIUM_PATH ?? LETTER_CHROMIUM_PATH);

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-signing-'));
  printed = Buffer.from(await pdf.render(renderLetterDocument({
    kind: 'credentialing-letter', requestNumber: 50001, issuedOn: '2026-11-27', clinicianName: 'Avery Nguyen', birthDate: null,
    dateFrom: '2024-07-01T00:00:00.000Z', dateTo: '2025-06-30T00:00:00.000Z', recipientName: 'Casey', recipientCompany: null, claims: [], policyYears: [],
  }).html));
});
afterAll(async () => {
  await pdf.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('production', () => {
  it('the worker refuses to start without the office\'s certificate and its password, naming each; the API\'s settings load', () => {
    const config = loadConfig({ ...OFFICE, DATA_DIR: dataDir });
    expect(config.letterSigning.enabled).toBe(true);
    expect(() => loadLetterSigner(config)).toThrow(ConfigError);
    expect(() => loadLetterSigner(config)).toThrow(
      "With NODE_ENV=production the worker does not start without the office's signing certificate: LETTER_SIGNING_P12, LETTER_SIGNING_P12_PASSWORD.\n"
      + "  LETTER_SIGNING_P12 is not set: the office's signing certificate and key (PKCS#12), base64: every issued PDF is signed with it\n"
      + '  LETTER_SIGNING_P12_PASSWORD is not set: the password of that PKCS#12 file');
    const withoutPassword = loadConfig({ ...OFFICE, DATA_DIR: dataDir, LETTER_SIGNING_P12: makeSelfSignedP12('x', 'pw').toString('base64') });
    expect(() => loadLetterSigner(withoutPassword)).toThrow(/certificate: LETTER_SIGNING_P12_PASSWORD\./);
    // no development certificate was made in production
    expect(existsSync(path.join(dataDir, 'letter-signing'))).toBe(false);
  });

  it('signs with the office\'s certificate: pdfsig says valid, names it, and one changed byte is a Digest Mismatch', async () => {
    const password = 'office-pass-1';
    const config = loadConfig({
      ...OFFICE, DATA_DIR: dataDir, LETTER_SIGNING_P12: makeSelfSignedP12('OHSU Risk Management Office', password).toString('base64'),
      LETTER_SIGNING_P12_PASSWORD: password,
    });
    const signer = loadLetterSigner(config)!;
    expect(signer.signedBy).toBe('OHSU Risk Management Office');
    const signed = await signer.sign(printed, 'Certificate of Insurance issued by the Risk Management Office');
    expect(signed.subarray(0, printed.length - 10).equals(printed.subarray(0, printed.length - 10))).toBe(true); // an incremental update
    const report = await pdfsig(signed);
    expect(report.output).toContain('Signature Validation: Signature is Valid.');
    expect(report).toMatchObject({ valid: true, count: 1, signedBy: 'OHSU Risk Management Office', signatureType: 'ETSI.CAdES.detached', wholeDocument: true });
    for (const at of [200, Math.floor(printed.length / 2), signed.length - 20]) {
      const altered = await pdfsig(alteredCopy(signed, at));
      expect(altered.valid, `byte ${at}`).toBe(false);
    }
    expect((await pdfsig(alteredCopy(signed))).validation).toBe('Digest Mismatch.');

    // PAdES baseline B: the signer's certificate bound by ESS signing-certificate-v2 in the signed attributes, no
    // signing time there (it is the signature dictionary's /M)
    const text = signed.toString('latin1');
    const cms = Buffer.from(/\/Contents\s*<([0-9a-fA-F]+)>/.exec(text)![1], 'hex');
    const oid = (hex: string) => Buffer.from(hex.replace(/ /g, ''), 'hex');
    expect(cms.includes(oid('06 0B 2A 86 48 86 F7 0D 01 09 10 02 2F')), 'signing-certificate-v2').toBe(true);
    expect(cms.includes(oid('06 09 2A 86 48 86 F7 0D 01 09 05')), 'no signingTime attribute').toBe(false);
    expect(text).toMatch(/\/SubFilter\s*\/ETSI\.CAdES\.detached/);
    expect(text).toMatch(/\/M\s*\(D:\d{14}/);
    expect((await pdfsig(printed)).count).toBe(0);
  });

  it('refuses a wrong password with a message that says so; LETTER_SIGNING=off signs nothing and needs nothing', () => {
    const config = loadConfig({ ...OFFICE, DATA_DIR: dataDir, LETTER_SIGNING_P12: makeSelfSignedP12('x', 'right').toString('base64'), LETTER_SIGNING_P12_PASSWORD: 'wrong' });
    expect(() => loadLetterSigner(config)).toThrow(/could not be read \(wrong password/);
    expect(loadLetterSigner(loadConfig({ ...OFFICE, DATA_DIR: dataDir, LETTER_SIGNING: 'off' }))).toBeNull();
    expect(() => loadConfig({ ...OFFICE, LETTER_SIGNING: 'maybe' })).toThrow(/LETTER_SIGNING must be on or off/);
  });
});

describe('development', () => {
  it('makes a self-signed certificate at first start and keeps it: later starts sign with the same one', async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = loadLetterSigner(config)!;
    const file = path.join(dataDir, 'letter-signing', 'development-signing.json');
    expect(existsSync(file)).toBe(true);
    const stored = readFileSync(file, 'utf8');
    const second = loadLetterSigner(config)!;
    expect(readFileSync(file, 'utf8')).toBe(stored);
    expect(first.signedBy).toBe(DEVELOPMENT_SIGNER_NAME);
    const a = await pdfsig(await first.sign(printed, 'test'));
    const b = await pdfsig(await second.sign(printed, 'test'));
    expect(a.valid && b.valid).toBe(true);
    const dn = (output: string) => /Signer full Distinguished Name: (.+)/.exec(output)?.[1];
    expect(dn(a.output)).toBe(dn(b.output));
  });
});
