/**
 * poppler's `pdfsig` on PDF bytes: what a PDF reader says of the digital signatures (poppler-utils is installed by
 * the bootstrap). `alteredCopy` changes one byte inside the signed range, which must make the signature invalid.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface PdfSignatureReport {
  /** pdfsig's whole answer */
  output: string;
  /** signatures found */
  count: number;
  /** every signature says "Signature is Valid." */
  valid: boolean;
  /** the first signature's "Signature Validation" line (e.g. "Signature is Valid.", "Digest Mismatch.") */
  validation: string | null;
  /** the signer's certificate common name */
  signedBy: string | null;
  /** the sub-filter ("ETSI.CAdES.detached" for PAdES) */
  signatureType: string | null;
  /** the signature covers the whole file */
  wholeDocument: boolean;
}

export async function pdfsig(bytes: Uint8Array): Promise<PdfSignatureReport> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'coi-pdfsig-'));
  const file = path.join(dir, 'signed.pdf');
  try {
    await writeFile(file, bytes);
    const output = await new Promise<string>((resolve) => {
      // pdfsig exits non-zero for an invalid or absent signature: its report is what matters, not the code.
      execFile('pdfsig', [file], (_error, stdout, stderr) => resolve(`${stdout}${stderr}`));
    });
    const field = (name: string) => new RegExp(`${name}: (.+)`).exec(output)?.[1]?.trim() ?? null;
    const validations = [...output.matchAll(/Signature Validation: (.+)/g)].map((m) => m[1].trim());
    return {
      output,
      count: [...output.matchAll(/^Signature #\d+:/gm)].length,
      valid: validations.length > 0 && validations.every((v) => v === 'Signature is Valid.'),
      validation: validations[0] ?? null,
      signedBy: field('Signer Certificate Common Name'),
      signatureType: field('Signature Type'),
      wholeDocument: /Total document signed/.test(output),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A copy with one byte changed in the document's first bytes that the signature covers (after the header). */
export function alteredCopy(bytes: Uint8Array, at = 200): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] = copy[at] === 0x41 ? 0x42 : 0x41;
  return copy;
}
