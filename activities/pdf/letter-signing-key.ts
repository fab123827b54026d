/**
 * Which certificate signs the issued letters: the office's (LETTER_SIGNING_P12 and its password, required in
 * production: config/app-config.ts refuseUnsignedLettersInProduction), or outside production a self-signed
 * development certificate made at first start under `<DATA_DIR>/letter-signing/` (RSA 2048, ten years) and reused
 * afterwards, as the development IdP does its keys. PDF readers show a development signature as signed by
 * "COI portal development signing" with an issuer they do not know.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';
import { refuseUnsignedLettersInProduction, type AppConfig } from '../../config/app-config';
import { PRODUCT_NAME } from '../../domain';
import { createLetterSigner, type LetterSigner } from './letter-signer';

export const DEVELOPMENT_SIGNER_NAME = 'COI portal development signing';

/** A self-signed certificate and its key as a PKCS#12 file (3DES, what every reader of P12 files knows). */
export function makeSelfSignedP12(commonName: string, password: string, years = 10): Buffer {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + years * 365 * 24 * 3600_000);
  const name = [{ name: 'commonName', value: commonName }, { name: 'organizationName', value: `${PRODUCT_NAME} Risk Management` }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(key, [cert], password, { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}

/**
 * The development certificate, made once: one file holding the P12 (base64) and its password. Two processes starting
 * together may both make one: the first to link its file wins and the other reads the winner's, so every process
 * signs with the same certificate.
 */
export function loadOrCreateDevelopmentP12(dir: string): { p12: Buffer; password: string; generated: boolean } {
  const file = path.join(dir, 'development-signing.json');
  const read = () => {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { p12: string; password: string };
    return { p12: Buffer.from(stored.p12, 'base64'), password: stored.password, generated: false };
  };
  if (existsSync(file)) return read();
  mkdirSync(dir, { recursive: true });
  const password = randomBytes(18).toString('base64url');
  const p12 = makeSelfSignedP12(DEVELOPMENT_SIGNER_NAME, password);
  const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, JSON.stringify({ p12: p12.toString('base64'), password }), { mode: 0o600 });
  try {
    linkSync(tmp, file);
    return { p12, password, generated: true };
  } catch {
    return read();
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** The signer of the issued letters, or null with LETTER_SIGNING=off. Refuses production without the office's P12. */
export function loadLetterSigner(config: Pick<AppConfig, 'production' | 'letterSigning' | 'riskManagementEmail'>): LetterSigner | null {
  refuseUnsignedLettersInProduction(config);
  const settings = config.letterSigning;
  if (!settings.enabled) return null;
  const { p12, password } = settings.p12?.length
    ? { p12: settings.p12, password: settings.p12Password ?? '' }
    : loadOrCreateDevelopmentP12(settings.developmentDir);
  return createLetterSigner({
    p12, password, signerName: `${PRODUCT_NAME} Risk Management`, contactInfo: config.riskManagementEmail, location: PRODUCT_NAME,
  });
}
