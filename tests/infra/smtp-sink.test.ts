import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../devtools/smtp-sink';
import { startOutbox, type Outbox } from '../../devtools/outbox-server';

describe('development SMTP sink', () => {
  let sink: SmtpSink;
  let outbox: Outbox;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coi-sink-'));
    sink = await startSmtpSink({ port: 0, dir });
    outbox = await startOutbox({ sink, port: 0 });
  });

  afterAll(async () => {
    await outbox?.close();
    await sink?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('receives a message with an attachment through nodemailer and writes an .eml file', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255]), Buffer.from('\n%%EOF\n')]);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: sink.port, secure: false, ignoreTLS: true });
    expect(sink.url).toBe(`smtp://127.0.0.1:${sink.port}`);

    const waiting = sink.waitFor((m) => m.subject.startsWith('Request 1042'), 60_000);
    const info = await transport.sendMail({
      from: 'Risk Management <riskmanagement@coi-portal.local>',
      to: 'Casey Requester <requester@hospital.example>',
      bcc: 'audit@coi-portal.local',
      subject: 'Request 1042 approved: certificate of insurance <&>',
      text: 'Your certificate of insurance is attached.',
      html: '<p>Your certificate of insurance is attached.</p>',
      attachments: [{ filename: 'certificate-1042.pdf', content: pdf, contentType: 'application/pdf' }],
    });
    transport.close();
    const message = await waiting;

    expect(info.accepted).toContain('requester@hospital.example');
    expect(message.subject).toBe('Request 1042 approved: certificate of insurance <&>');
    expect(message.from).toBe('riskmanagement@coi-portal.local');
    expect(message.fromName).toBe('Risk Management');
    expect(message.to).toEqual(['requester@hospital.example']);
    expect(message.envelope.to).toEqual(['requester@hospital.example', 'audit@coi-portal.local']);
    expect(message.text.trim()).toBe('Your certificate of insurance is attached.');
    expect(message.html).toContain('<p>Your certificate');
    expect(message.messageId).toBe(info.messageId);
    expect(message.date).toBeInstanceOf(Date);
    expect(message.attachments).toHaveLength(1);
    expect(message.attachments[0].filename).toBe('certificate-1042.pdf');
    expect(message.attachments[0].contentType).toBe('application/pdf');
    expect(message.attachments[0].content).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(message.attachments[0].content).equals(pdf)).toBe(true);

    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{8}T\d{9}Z-1\.eml$/);
    expect(message.file).toBe(path.join(dir, files[0]));
    const eml = fs.readFileSync(path.join(dir, files[0]));
    expect(eml.equals(message.raw)).toBe(true);
    expect(eml.toString()).toContain('certificate-1042.pdf');
    expect(sink.messages()).toHaveLength(1);
  });

  it('shows the message in the outbox (escaped) and serves the attachment', async () => {
    const list = await fetch(`${outbox.url}/`);
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain('Request 1042 approved: certificate of insurance &lt;&amp;&gt;');
    expect(html).toContain('certificate-1042.pdf');
    expect(html).not.toContain('insurance <&>');

    const api = (await (await fetch(`${outbox.url}/api/messages`)).json()) as Array<{ n: number; attachments: Array<{ url: string; size: number }> }>;
    expect(api).toHaveLength(1);
    const page = await (await fetch(`${outbox.url}/messages/${api[0].n}`)).text();
    expect(page).toContain('Your certificate of insurance is attached.');
    const download = await fetch(`${outbox.url}${api[0].attachments[0].url}`);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toContain('certificate-1042.pdf');
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(sink.messages()[0].attachments[0].content))).toBe(true);
    expect((await fetch(`${outbox.url}/messages/999`)).status).toBe(404);
  });

  it('waitFor rejects with a helpful message when nothing matches, and clear() empties the list', async () => {
    await expect(sink.waitFor((m) => m.subject === 'never sent', 200)).rejects.toThrow(/No matching mail within 200 ms/);
    sink.clear();
    expect(sink.messages()).toHaveLength(0);
  });

  it('reloads the .eml files of a previous run when asked', async () => {
    const second = await startSmtpSink({ port: 0, dir, loadExisting: true });
    try {
      expect(second.messages().map((m) => m.subject)).toEqual(['Request 1042 approved: certificate of insurance <&>']);
    } finally {
      await second.close();
    }
  });
});
