/**
 * An in-process SMTP sink for development and tests (no Mailpit/MailHog on these machines).
 * Accepts every message (no auth, no STARTTLS, 25 MB limit) except for recipients at `.invalid` domains (RFC 2606:
 * never deliverable), which it refuses with 550 as a real server would; tests may set their own refusal rule.
 * Keeps messages in memory (raw + parsed) and, with `dir`,
 * writes it as `<timestamp>-<n>.eml`. Use with nodemailer `createTransport({ host, port, secure: false, ignoreTLS: true })`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import PostalMime, { type Address } from 'postal-mime';

const SMTP_SINK_SIZE_LIMIT = 25 * 1024 * 1024;

interface ReceivedAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
  size: number;
}

export interface Received {
  /** 1-based sequence number within this sink. */
  n: number;
  receivedAt: Date;
  /** SMTP envelope (MAIL FROM / RCPT TO), which includes Bcc recipients. */
  envelope: { from: string | null; to: string[] };
  raw: Buffer;
  /** Address of the From header (the envelope sender when the header is missing). */
  from: string;
  /** Display name of the From header, '' when none. */
  fromName: string;
  /** Addresses of the To header (the envelope recipients when the header is missing). */
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  html: string | null;
  attachments: ReceivedAttachment[];
  messageId: string | null;
  /** Addresses of the Reply-To header ([] when none). */
  replyTo: string[];
  /** The In-Reply-To and References headers, as sent (null when absent). */
  inReplyTo: string | null;
  references: string | null;
  date: Date | null;
  /** The .eml file, when the sink writes to a directory. */
  file: string | null;
}

interface SmtpSinkOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Directory for .eml copies; created when missing. */
  dir?: string;
  /** With `dir`: read the .eml files already there into memory at start (the dev outbox survives restarts). */
  loadExisting?: boolean;
}

/** Returns the 550 text for a recipient the sink refuses, or null to accept it. */
type RecipientRule = (address: string) => string | null;
export const refuseInvalidDomains: RecipientRule = (address) =>
  /\.invalid$/i.test(address) ? `550 5.1.1 <${address}>: mailbox unavailable` : null;

export interface SmtpSink {
  host: string;
  port: number;
  url: string;
  messages(): Received[];
  /** Resolves with the first message (already received or arriving later) that matches; rejects after timeoutMs. */
  waitFor(predicate?: (message: Received) => boolean, timeoutMs?: number): Promise<Received>;
  /**
   * Calls `listener` for each new message; returns an unsubscribe function. A listener that returns a promise holds
   * the server's "250 accepted" until it settles (a test that acts while the sender still waits for the answer).
   */
  subscribe(listener: (message: Received) => unknown): () => void;
  clear(): void;
  /** Replaces the rule that decides which recipients are refused (default: `.invalid` domains). */
  setRecipientRule(rule: RecipientRule): void;
  close(): Promise<void>;
}

function flattenAddresses(list: Address[] | Address | undefined): Array<{ name: string; address: string }> {
  if (!list) return [];
  const items = Array.isArray(list) ? list : [list];
  return items.flatMap((item) => (item.group ? item.group : [item])).filter((m) => !!m.address) as Array<{ name: string; address: string }>;
}

function toUint8Array(content: ArrayBuffer | Uint8Array | string): Uint8Array {
  if (typeof content === 'string') return new Uint8Array(Buffer.from(content, 'utf8'));
  return content instanceof Uint8Array ? content : new Uint8Array(content);
}

/** Parses a raw RFC 5322 message into the sink's shape. */
async function parseMessage(
  raw: Buffer,
  meta: { n: number; receivedAt: Date; envelope?: { from: string | null; to: string[] }; file?: string | null },
): Promise<Received> {
  const email = await PostalMime.parse(raw, { attachmentEncoding: 'arraybuffer' });
  const from = flattenAddresses(email.from)[0];
  const envelope = meta.envelope ?? { from: null, to: [] };
  const to = flattenAddresses(email.to).map((a) => a.address);
  const date = email.date ? new Date(email.date) : null;
  return {
    n: meta.n,
    receivedAt: meta.receivedAt,
    envelope,
    raw,
    from: from?.address ?? envelope.from ?? '',
    fromName: from?.name ?? '',
    to: to.length ? to : envelope.to,
    cc: flattenAddresses(email.cc).map((a) => a.address),
    subject: email.subject ?? '',
    text: email.text ?? '',
    html: email.html ?? null,
    attachments: email.attachments.map((a) => {
      const content = toUint8Array(a.content);
      return { filename: a.filename ?? 'attachment', contentType: a.mimeType, content, size: content.byteLength };
    }),
    messageId: email.messageId ?? null,
    replyTo: flattenAddresses(email.replyTo).map((a) => a.address),
    inReplyTo: email.inReplyTo ?? null,
    references: email.references ?? null,
    date: date && !Number.isNaN(date.getTime()) ? date : null,
    file: meta.file ?? null,
  };
}

function fileStamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace('.', '');
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const host = options.host ?? '127.0.0.1';
  const dir = options.dir ? path.resolve(options.dir) : null;
  const received: Received[] = [];
  const listeners = new Set<(message: Received) => unknown>();
  let counter = 0;
  let recipientRule: RecipientRule = refuseInvalidDomains;

  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    if (options.loadExisting) {
      const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).sort().slice(-500);
      for (const file of files) {
        const full = path.join(dir, file);
        try {
          const raw = fs.readFileSync(full);
          received.push(await parseMessage(raw, { n: ++counter, receivedAt: fs.statSync(full).mtime, file: full }));
        } catch {
          /* an unreadable file is skipped */
        }
      }
    }
  }

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    size: SMTP_SINK_SIZE_LIMIT,
    logger: false,
    disableReverseLookup: true,
    closeTimeout: 1000,
    banner: 'coi-portal development SMTP sink',
    onRcptTo(address, _session, callback) {
      const refusal = recipientRule(address.address);
      // The rule's text starts with its reply code: 550 (permanent) unless it says otherwise, e.g. 450 (try later).
      const code = /^[45]\d\d /.test(refusal ?? '') ? Number(refusal!.slice(0, 3)) : 550;
      if (refusal) return callback(Object.assign(new Error(refusal.replace(/^[45]\d\d /, '')), { responseCode: code }));
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(Object.assign(new Error('Message exceeds fixed maximum message size'), { responseCode: 552 }));
          return;
        }
        const raw = Buffer.concat(chunks);
        const receivedAt = new Date();
        const n = ++counter;
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        let file: string | null = null;
        if (dir) {
          file = path.join(dir, `${fileStamp(receivedAt)}-${n}.eml`);
          try {
            fs.writeFileSync(file, raw);
          } catch {
            file = null;
          }
        }
        parseMessage(raw, { n, receivedAt, envelope, file })
          .then(async (message) => {
            received.push(message);
            const held: Array<Promise<unknown>> = [];
            for (const listener of listeners) {
              try {
                const result = listener(message);
                if (result instanceof Promise) held.push(result);
              } catch { /* a listener's problem is not the sender's */ }
            }
            await Promise.allSettled(held);
            callback(null, `Message ${n} accepted`);
          })
          .catch((error: Error) => callback(Object.assign(new Error(`Unparseable message: ${error.message}`), { responseCode: 554 })));
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', () => { /* connection-level errors (client hung up) are not fatal for a sink */ });
  const port = (server.server.address() as AddressInfo).port;

  const subscribe = (listener: (message: Received) => unknown) => {
    listeners.add(listener);
    return () => { listeners.delete(listener); };
  };

  return {
    host,
    port,
    url: `smtp://${host}:${port}`,
    messages: () => [...received],
    subscribe,
    waitFor(predicate = () => true, timeoutMs = 60_000) {
      const found = received.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<Received>((resolve, reject) => {
        const timer = setTimeout(() => {
          unsubscribe();
          reject(new Error(`No matching mail within ${timeoutMs} ms (${received.length} received: ${
            received.slice(-5).map((m) => `"${m.subject}" to ${m.to.join(',')}`).join('; ') || 'none'})`));
        }, timeoutMs);
        const unsubscribe = subscribe((message) => {
          if (!predicate(message)) return;
          clearTimeout(timer);
          unsubscribe();
          resolve(message);
        });
      });
    },
    clear() {
      received.length = 0;
    },
    setRecipientRule(rule) {
      recipientRule = rule;
    },
    close() {
      listeners.clear();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
