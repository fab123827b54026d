/**
 * The bench's SMTP sink as a process of its own, so that parsing the emails it receives (a 40 KB approval email with
 * its PDF is about 5 CPU-ms) is not counted as the API's CPU, which shares the bench process: the mail server is
 * not part of the portal. The parent hears of each message over IPC: its subject, its To addresses and, per
 * attachment, its name, type and first bytes (all the benches check).
 *
 *   startMailSinkProcess() in the bench; this file is the child's entry.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSmtpSink } from '../devtools/smtp-sink';

/** What the bench keeps of a received message. */
export interface MailSummary {
  subject: string;
  /** the To header's addresses (the envelope's recipients when it has none) */
  to: string[];
  attachments: Array<{ filename: string; contentType: string; content: Uint8Array }>;
}

type ChildMessage = { type: 'ready'; url: string } | { type: 'mail'; subject: string; to: string[]; attachments: Array<{ filename: string; contentType: string; head: string }> };

export interface MailSinkProcess {
  url: string;
  pid: number;
  subscribe(listener: (message: MailSummary) => void): () => void;
  /** messages received so far */
  count(): number;
  close(): Promise<void>;
}

export async function startMailSinkProcess(): Promise<MailSinkProcess> {
  const child = fork(fileURLToPath(import.meta.url), ['--child'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const listeners = new Set<(message: MailSummary) => void>();
  let received = 0;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the mail sink exited with ${code} before it listened`)));
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') { resolve(message.url); return; }
      received += 1;
      const summary: MailSummary = {
        subject: message.subject,
        to: message.to,
        attachments: message.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.head, 'base64') })),
      };
      for (const listener of listeners) listener(summary);
    });
  });
  return {
    url, pid: child.pid!,
    subscribe(listener) { listeners.add(listener); return () => listeners.delete(listener); },
    count: () => received,
    async close() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.argv.includes('--child')) {
  const sink = await startSmtpSink();
  sink.subscribe((message) => process.send!({
    type: 'mail', subject: message.subject, to: message.to,
    attachments: message.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, head: Buffer.from(a.content.subarray(0, 8)).toString('base64') })),
  } satisfies ChildMessage));
  process.send!({ type: 'ready', url: sink.url } satisfies ChildMessage);
  process.on('SIGTERM', () => { void sink.close().finally(() => process.exit(0)); });
  process.on('disconnect', () => { void sink.close().finally(() => process.exit(0)); });
}
