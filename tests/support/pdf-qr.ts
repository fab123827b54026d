/** The text of the QR code printed on a PDF's first page, read back as a phone would (pdftoppm, then zbarimg). */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function qrOf(pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'coi-qr-'));
  try {
    await writeFile(path.join(dir, 'letter.pdf'), pdf);
    await run('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', path.join(dir, 'letter.pdf'), path.join(dir, 'page')]);
    const png = (await readdir(dir)).find((name) => name.endsWith('.png'))!;
    return (await run('zbarimg', ['--raw', '-q', path.join(dir, png)])).stdout.trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
