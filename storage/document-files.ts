/**
 * Bytes of documents on disk under the data folder, each under a generated name (never the client's file name).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A stream that went past the bytes allowed: what was written of it is already removed. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes`);
  }
}

export interface ReceivedFile { size: number; head: Buffer }

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

  /**
   * Writes a stream to `partName` as it arrives (never whole in memory), counting its bytes: past `maxBytes` the
   * write stops, the partial file is removed and FileTooLargeError thrown; any other failure (the sender went away)
   * removes it too, as does `signal` aborting (the stream is then destroyed). Answers the size and the first
   * `headBytes` bytes (for sniffing the type).
   */
  async receive(partName: string, source: Readable, limits: { maxBytes: number; headBytes: number; signal?: AbortSignal }): Promise<ReceivedFile> {
    const target = this.pathOf(partName);
    let size = 0;
    const head: Buffer[] = [];
    let headSize = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > limits.maxBytes) return done(new FileTooLargeError(limits.maxBytes));
        if (headSize < limits.headBytes) {
          const taken = Buffer.from(chunk.subarray(0, limits.headBytes - headSize));
          head.push(taken);
          headSize += taken.length;
        }
        return done(null, chunk);
      },
    });
    try {
      await pipeline(source, meter, createWriteStream(target, { flags: 'wx' }), { signal: limits.signal });
    } catch (error) {
      await rm(target, { force: true });
      throw error;
    }
    return { size, head: Buffer.concat(head) };
  }

  /** Gives a complete received file its stored name (a rename: it appears whole or not at all). */
  async place(partName: string, storedName: string): Promise<void> {
    await rename(this.pathOf(partName), this.pathOf(storedName));
  }

  read(storedName: string) {
    return createReadStream(this.pathOf(storedName));
  }

  /**
   * Writes and flushes to the disk (fsync) before answering: what a sender was told "accepted" for survives a power
   * cut. Temp file + rename as `write`.
   */
  async writeDurably(storedName: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(storedName);
    const temp = `${target}.part`;
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  }

  readAll(storedName: string): Promise<Buffer> {
    return readFile(this.pathOf(storedName));
  }

  async remove(storedName: string): Promise<void> {
    await rm(this.pathOf(storedName), { force: true });
  }
}
