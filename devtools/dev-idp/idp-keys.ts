/**
 * The development IdP's signing key and self-signed certificate: generated on first start (selfsigned, RSA 2048,
 * ten years) under `<DATA_DIR>/dev-idp/`, reused afterwards so the API's trust survives restarts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';

interface IdpKeys { privateKey: string; certificate: string; generated: boolean }

export async function loadOrCreateIdpKeys(dir: string): Promise<IdpKeys> {
  const keyFile = path.join(dir, 'idp-key.pem');
  const certFile = path.join(dir, 'idp-cert.pem');
  if (existsSync(keyFile) && existsSync(certFile)) {
    return { privateKey: readFileSync(keyFile, 'utf8'), certificate: readFileSync(certFile, 'utf8'), generated: false };
  }
  mkdirSync(dir, { recursive: true });
  const notAfterDate = new Date(Date.now() + 10 * 365 * 24 * 3600_000);
  const pems = await generate([{ name: 'commonName', value: 'COI portal development IdP' }], { keySize: 2048, algorithm: 'sha256', notAfterDate });
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  writeFileSync(certFile, pems.cert);
  return { privateKey: pems.private, certificate: pems.cert, generated: true };
}
