/**
 * The mailbox way in, against a real IMAP server (a throwaway Dovecot): a reply to the portal's status email lands
 * in the office's mailbox; the poller signs in with OAuth2 (XOAUTH2, its token from a client-credentials endpoint as
 * Microsoft's) and, where the server takes one, a password; the message takes the listener's path (stored, then its
 * workflow) and is posted once, flagged seen only after it was stored; one over the size limit is fetched only as far
 * as its header and refused as too large; one to a reply address nobody signed is never stored.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscussionSchema } from '../../db/entities';
import type { ImapSettings } from '../../config/inbound-mail-config';
import { call, credentialingDraft, loginRequester, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';
import { inboundRow, processed, replyAbove, replyAddressOf } from '../support/inbound-mail-helpers';
import { HEADER_KEEP_BYTES } from '../../mail-in/intake';
import { dovecotAvailable, startDovecot, type Dovecot } from '../support/throwaway-dovecot';
import { createMailboxPoller } from '../../mail-in/imap-poller';
import { DEV_REQUESTER_EMAIL } from './fixtures-constants';

let h: Harness;
let requester: Session;
let dovecot: Dovecot;
let tokenServer: http.Server;
const tokenRequests: URLSearchParams[] = [];

beforeAll(async () => {
  if (!dovecotAvailable()) return;
  h = await startHarness();
  requester = await loginRequester(h);
  dovecot = await startDovecot();
  // Microsoft's token endpoint, as far as the client-credentials grant goes.
  tokenServer = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const form = new URLSearchParams(body);
      tokenRequests.push(form);
      const ok = form.get('grant_type') === 'client_credentials' && form.get('client_id') === 'app-id' && form.get('client_secret') === 'app-secret';
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { token_type: 'Bearer', expires_in: 3599, access_token: dovecot.validToken } : { error: 'invalid_client' }));
    });
  });
  await new Promise<void>((resolve) => tokenServer.listen(0, '127.0.0.1', resolve));
}, 120_000);
afterAll(async () => {
  await dovecot?.stop();
  if (tokenServer) await new Promise<void>((resolve) => tokenServer.close(() => resolve()));
  await h?.stop();
});

const settings = (overrides: Partial<ImapSettings>): ImapSettings => ({
  host: '127.0.0.1', port: dovecot.port, secure: false, user: dovecot.user, mailbox: 'INBOX', pollMs: 3_600_000, password: null, oauth: null, ...overrides,
});

async function deliverToMailbox(raw: Buffer): Promise<void> {
  const client = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: dovecot.user, pass: dovecot.password }, logger: false });
  await client.connect();
  await client.append('INBOX', raw);
  await client.logout();
}

async function unseen(): Promise<number> {
  const client = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: dovecot.user, pass: dovecot.password }, logger: false });
  await client.connect();
  const lock = await client.getMailboxLock('INBOX');
  try {
    return ((await client.search({ seen: false }, { uid: true })) || []).length;
  } finally {
    lock.release();
    await client.logout();
  }
}

async function replyRaw(text: string, messageId: string) {
  const id = await credentialingDraft(h, requester);
  const res = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  const number = res.body.requestNumber as number;
  const mail = await h.sink.waitFor((m) => m.to.includes(DEV_REQUESTER_EMAIL) && m.subject.includes(String(number)), 30_000);
  const address = await replyAddressOf(h, mail, number);
  const built = await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail({
    from: DEV_REQUESTER_EMAIL, to: address, subject: `Re: ${mail.subject}`, messageId, text: replyAbove(text, mail),
  });
  return { id, raw: built.message as Buffer };
}

describe.skipIf(!dovecotAvailable())('the mailbox poller (IMAP)', () => {
  it('signs in with XOAUTH2 (client-credentials token), posts the reply once, flags it seen', async () => {
    const messageId = `<imap-oauth-${Date.now()}@phone.example>`;
    const { id, raw } = await replyRaw('Signed release attached soon.', messageId);
    await deliverToMailbox(raw);
    const poller = createMailboxPoller(
      { orm: h.orm, files: h.files, temporal: h.temporal, taskQueue: h.config.taskQueue },
      settings({ oauth: { tokenUrl: `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/tenant/oauth2/v2.0/token`, clientId: 'app-id', clientSecret: 'app-secret', scope: 'https://outlook.office365.com/.default' } }),
      h.config.inboundMail.maxBytes, h.config.reply,
    );
    try {
      expect(await poller.pollOnce()).toBe(1);
      expect(tokenRequests.at(-1)?.get('scope')).toBe('https://outlook.office365.com/.default');
      expect(dovecot.introspected).toContain(dovecot.validToken);
      expect(await processed(h, messageId)).toBe('posted');
      expect(await unseen()).toBe(0);
      // The same message again (unflagged by a person, say): the same row, nothing posted twice.
      await deliverToMailbox(raw);
      expect(await poller.pollOnce()).toBe(1);
      expect(await processed(h, messageId)).toBe('posted'); // the same row and workflow, finished
      const rows = await h.orm.em.fork().find(DiscussionSchema, { requestId: id, byEmail: true });
      expect(rows.map((r) => r.message)).toEqual(['Signed release attached soon.']);
    } finally {
      await poller.stop();
    }
  }, 120_000);

  it('a refused token stops the poll; a password signs in where the server takes one', async () => {
    const bad = createMailboxPoller(
      { orm: h.orm, files: h.files, temporal: h.temporal, taskQueue: h.config.taskQueue },
      settings({}), h.config.inboundMail.maxBytes, h.config.reply, async () => 'not-a-valid-token',
    );
    await expect(bad.pollOnce()).rejects.toThrow();
    await bad.stop();

    const messageId = `<imap-password-${Date.now()}@phone.example>`;
    const { id, raw } = await replyRaw('Posted through the password login.', messageId);
    await deliverToMailbox(raw);
    const poller = createMailboxPoller(
      { orm: h.orm, files: h.files, temporal: h.temporal, taskQueue: h.config.taskQueue }, settings({ password: dovecot.password }),
      h.config.inboundMail.maxBytes, h.config.reply,
    );
    try {
      expect(await poller.pollOnce()).toBe(1);
      expect(await processed(h, messageId)).toBe('posted');
      const rows = await h.orm.em.fork().find(DiscussionSchema, { requestId: id, byEmail: true });
      expect(rows.map((r) => r.message)).toEqual(['Posted through the password login.']);
    } finally {
      await poller.stop();
    }
  }, 120_000);

  it('a message to no reply address this portal signed is left unstored and unanswered, and flagged seen', async () => {
    const messageId = `<imap-forged-${Date.now()}@phone.example>`;
    const { raw } = await replyRaw('Change the holder to me.', messageId);
    // The same reply with a reply address nobody signed.
    const forged = Buffer.from(raw.toString('latin1').replace(/(reply\+\d+-)[a-z2-7]{6}/g, '$1aaaaaa'), 'latin1');
    await deliverToMailbox(forged);
    const poller = createMailboxPoller(
      { orm: h.orm, files: h.files, temporal: h.temporal, taskQueue: h.config.taskQueue }, settings({ password: dovecot.password }),
      h.config.inboundMail.maxBytes, h.config.reply,
    );
    try {
      expect(await poller.pollOnce()).toBe(0);
      expect(await inboundRow(h, messageId)).toBeNull();
      expect(await unseen()).toBe(0);
    } finally {
      await poller.stop();
    }
  }, 120_000);

  it('a message over the size limit is fetched only as far as its header, refused as too large, and its sender answered once', async () => {
    const messageId = `<imap-large-${Date.now()}@phone.example>`;
    const { id, raw } = await replyRaw('All the scans, attached.', messageId);
    // The same reply with a megabyte of attachment, against a limit of 256 kB (the portal's is 20 MB).
    const large = Buffer.concat([raw, Buffer.from(`\r\n${'A'.repeat(76)}`.repeat(14_000))]);
    await deliverToMailbox(large);
    const poller = createMailboxPoller(
      { orm: h.orm, files: h.files, temporal: h.temporal, taskQueue: h.config.taskQueue }, settings({ password: dovecot.password }), 256 * 1024, h.config.reply,
    );
    try {
      expect(await poller.pollOnce()).toBe(1);
      expect(await processed(h, messageId)).toBe('refused');
      const row = await inboundRow(h, messageId);
      expect(row).toMatchObject({ state: 'refused', outcome: 'too-large' });
      expect(row!.size).toBeGreaterThan(1_000_000);
      // What was fetched and kept is the message's start, never the whole.
      expect((await readFile(h.files.pathOf(row!.storedName!))).length).toBeLessThanOrEqual(HEADER_KEEP_BYTES);
      const answer = await h.sink.waitFor((m) => m.to.includes(DEV_REQUESTER_EMAIL) && m.subject.startsWith('Not posted'), 60_000);
      expect(answer.text).toContain('larger than');
      expect(await h.orm.em.fork().count(DiscussionSchema, { requestId: id, byEmail: true })).toBe(0);
      expect(await unseen()).toBe(0);
    } finally {
      await poller.stop();
    }
  }, 120_000);
});
