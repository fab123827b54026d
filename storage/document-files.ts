/**
 * Bytes of documents on disk under the data folder, each under a generated name (never the client's file name).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export class DocumentFiles {
  constructor(readonly dir: string) {}

  async init(): Promise<this> {
    await mkdir(this.dir, { recursive: true });
    return this;
  }

  /** A fresh stored name keeping only a safe lowercase extension. */
  static newStoredName(originalName: string): string {
    const ext = path.extname(originalName).toLowerCase().replace(/[^.a-z0-9]/g, '').slice(0, 8);
    return `${randomUUID()}${ext}`;
  }

  pathOf(storedName: string): string {
    if (!/^[a-zA-Z0-9._-]+$/.test(storedName) || storedName.includes('..')) throw new Error('Invalid stored name');
    return path.join(this.dir, storedName);
  }

  /** Writes atomically (temp file + rename) so a crash never leaves half a document under its final name. */
  async write(storedName: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(storedName);
    const temp = `${target}.part`;
    await writeFile(temp, bytes);
    await rename(temp, target);
  }

  read(storedName: string) {
    return createReadStream(this.pathOf(storedName));
  }

  async remove(storedName: string): Promise<void> {
    await rm(this.pathOf(storedName), { force: true });
  }
}
