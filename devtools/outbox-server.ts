/**
 * A tiny web page over the SMTP sink (the development "Mailpit"): http://127.0.0.1:8025
 *   GET /                                  messages, newest first
 *   GET /messages/:n                       one message: headers, text, attachment links
 *   GET /messages/:n/html                  its HTML part (sandboxed)
 *   GET /messages/:n/raw                   the .eml
 *   GET /messages/:n/attachments/:i        download attachment i (0-based)
 *   GET /api/messages                      JSON list (no raw bytes, attachment metadata only)
 *   GET /api/inbound                       what the reply listener received (with `inbound`), newest first
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Orm } from '../db/orm';
import type { Received, SmtpSink } from './smtp-sink';

/** One message the reply listener received (table inbound_messages). */
interface InboundSummary {
  id: number; receivedAt: string; source: string; envelopeFrom: string | null; envelopeTo: string; size: number;
  state: string; outcome: string | null; requestId: number | null;
}

/** The newest received messages, for the outbox page. */
export async function recentInboundMessages(orm: Orm, limit = 100): Promise<InboundSummary[]> {
  const rows = await orm.em.getConnection().execute(
    `select "id", "received_at", "source", "envelope_from", "envelope_to", "size", "state", "outcome", "request_id"
     from "inbound_messages" order by "id" desc limit ?`, [limit], 'all',
  ) as Array<Record<string, unknown>>;
  return rows.map((r) => ({
    id: Number(r.id), receivedAt: new Date(r.received_at as string).toISOString(), source: String(r.source),
    envelopeFrom: r.envelope_from as string | null, envelopeTo: String(r.envelope_to), size: Number(r.size), state: String(r.state),
    outcome: r.outcome as string | null, requestId: r.request_id == null ? null : Number(r.request_id),
  }));
}

interface OutboxOptions {
  sink: SmtpSink;
  /** What the portal received by email (replies), listed under the sent mail. */
  inbound?: () => Promise<InboundSummary[]>;
  port?: number;
  host?: string;
}

export interface Outbox {
  port: number;
  url: string;
  close(): Promise<void>;
}

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #ddd;vertical-align:top}th{background:#f3f3f3}
a{color:#0b5cad}pre{white-space:pre-wrap;background:#f8f8f8;padding:1rem;border:1px solid #ddd}.muted{color:#777}
dl{display:grid;grid-template-columns:max-content auto;gap:.2rem 1rem}dt{font-weight:600}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    `<style>${STYLE}</style></head><body>${body}</body></html>`;
}

function formatDate(message: Received): string {
  return (message.date ?? message.receivedAt).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

function summary(message: Received) {
  return {
    n: message.n,
    receivedAt: message.receivedAt.toISOString(),
    date: message.date?.toISOString() ?? null,
    from: message.from,
    to: message.to,
    cc: message.cc,
    envelope: message.envelope,
    subject: message.subject,
    messageId: message.messageId,
    text: message.text,
    html: message.html,
    attachments: message.attachments.map((a, i) => ({
      index: i, filename: a.filename, contentType: a.contentType, size: a.size, url: `/messages/${message.n}/attachments/${i}`,
    })),
  };
}

function listPage(messages: Received[]): string {
  const rows = [...messages].reverse().map((m) => `<tr><td>${escapeHtml(formatDate(m))}</td><td>${escapeHtml(m.to.join(', '))}</td>` +
    `<td><a href="/messages/${m.n}">${escapeHtml(m.subject || '(no subject)')}</a></td>` +
    `<td>${m.attachments.map((a) => escapeHtml(a.filename)).join('<br>')}</td></tr>`).join('');
  return page('Mail outbox', `<h1>Mail outbox</h1><p class="muted">${messages.length} message(s) sent by the portal in development. ` +
    `Nothing leaves this machine. <a href="/api/messages">JSON</a></p>` +
    `<table><thead><tr><th>Date</th><th>To</th><th>Subject</th><th>Attachments</th></tr></thead><tbody>${
      rows || '<tr><td colspan="4" class="muted">No mail yet.</td></tr>'}</tbody></table>`);
}

function inboundSection(rows: InboundSummary[]): string {
  const body = rows.map((r) => `<tr><td>${escapeHtml(r.receivedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))}</td>` +
    `<td>${escapeHtml(r.envelopeFrom === '' ? '<> (null sender)' : r.envelopeFrom ?? '(mailbox)')}</td><td>${escapeHtml(r.envelopeTo)}</td>` +
    `<td>${escapeHtml(r.state)}${r.outcome && r.outcome !== r.state ? ` <span class="muted">(${escapeHtml(r.outcome)})</span>` : ''}</td>` +
    `<td>${r.size.toLocaleString('en-US')}</td></tr>`).join('');
  return `<h2>Received by the portal</h2><p class="muted">Replies to portal emails that reached the reply listener. ` +
    `<a href="/api/inbound">JSON</a></p><table><thead><tr><th>Received</th><th>From (envelope)</th><th>To</th><th>Outcome</th><th>Bytes</th></tr></thead>` +
    `<tbody>${body || '<tr><td colspan="5" class="muted">Nothing received yet.</td></tr>'}</tbody></table>`;
}

function messagePage(m: Received): string {
  const attachments = m.attachments.map((a, i) => `<li><a href="/messages/${m.n}/attachments/${i}">${escapeHtml(a.filename)}</a> ` +
    `<span class="muted">${escapeHtml(a.contentType)}, ${a.size.toLocaleString('en-US')} bytes</span></li>`).join('');
  return page(m.subject || 'Message', `<p><a href="/">&larr; Outbox</a></p><h1>${escapeHtml(m.subject || '(no subject)')}</h1>` +
    `<dl><dt>Date</dt><dd>${escapeHtml(formatDate(m))}</dd><dt>From</dt><dd>${escapeHtml(m.fromName ? `${m.fromName} <${m.from}>` : m.from)}</dd>` +
    `<dt>To</dt><dd>${escapeHtml(m.to.join(', '))}</dd>${m.cc.length ? `<dt>Cc</dt><dd>${escapeHtml(m.cc.join(', '))}</dd>` : ''}` +
    `<dt>Envelope</dt><dd>${escapeHtml(m.envelope.to.join(', '))}</dd>` +
    `<dt>Message-ID</dt><dd>${escapeHtml(m.messageId ?? '')}</dd></dl>` +
    `<p>${m.html ? `<a href="/messages/${m.n}/html">HTML version</a> · ` : ''}<a href="/messages/${m.n}/raw">Raw .eml</a></p>` +
    (attachments ? `<h2>Attachments</h2><ul>${attachments}</ul>` : '') +
    `<h2>Text</h2><pre>${escapeHtml(m.text)}</pre>`);
}

function safeFilename(name: string): string {
  return name.replace(/[^\w.\- ]+/g, '_').slice(0, 150) || 'attachment';
}

export async function startOutbox(options: OutboxOptions): Promise<Outbox> {
  const { sink, port = 8025, host = '127.0.0.1', inbound } = options;
  const server = http.createServer((req, res) => {
    const send = (status: number, type: string, body: string | Uint8Array, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'Method not allowed');
    const url = new URL(req.url ?? '/', 'http://outbox');
    const messages = sink.messages();
    const find = (n: string) => messages.find((m) => m.n === Number(n));

    if (url.pathname === '/' && inbound) {
      inbound().then(
        (rows) => send(200, 'text/html; charset=utf-8', listPage(messages).replace('</body>', `${inboundSection(rows)}</body>`)),
        () => send(200, 'text/html; charset=utf-8', listPage(messages)),
      );
      return;
    }
    if (url.pathname === '/') return send(200, 'text/html; charset=utf-8', listPage(messages));
    if (url.pathname === '/api/inbound') {
      if (!inbound) return send(404, 'text/plain', 'Not found');
      inbound().then((rows) => send(200, 'application/json', JSON.stringify(rows)), (error: Error) => send(500, 'text/plain', error.message));
      return;
    }
    if (url.pathname === '/api/messages') {
      return send(200, 'application/json', JSON.stringify([...messages].reverse().map(summary)));
    }
    let match = /^\/messages\/(\d+)$/.exec(url.pathname);
    if (match) {
      const m = find(match[1]);
      return m ? send(200, 'text/html; charset=utf-8', messagePage(m)) : send(404, 'text/plain', 'No such message');
    }
    match = /^\/messages\/(\d+)\/html$/.exec(url.pathname);
    if (match) {
      const m = find(match[1]);
      if (!m?.html) return send(404, 'text/plain', 'No HTML part');
      return send(200, 'text/html; charset=utf-8', m.html, { 'content-security-policy': 'sandbox; default-src data: cid:' });
    }
    match = /^\/messages\/(\d+)\/raw$/.exec(url.pathname);
    if (match) {
      const m = find(match[1]);
      return m
        ? send(200, 'message/rfc822', m.raw, { 'content-disposition': `attachment; filename="message-${m.n}.eml"` })
        : send(404, 'text/plain', 'No such message');
    }
    match = /^\/messages\/(\d+)\/attachments\/(\d+)$/.exec(url.pathname);
    if (match) {
      const a = find(match[1])?.attachments[Number(match[2])];
      if (!a) return send(404, 'text/plain', 'No such attachment');
      return send(200, a.contentType || 'application/octet-stream', a.content, {
        'content-disposition': `attachment; filename="${safeFilename(a.filename)}"`,
      });
    }
    return send(404, 'text/plain', 'Not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    port: actualPort,
    url: `http://${host}:${actualPort}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
