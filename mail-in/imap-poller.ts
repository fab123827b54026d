/**
 * Polling an office's mailbox (IMAP, imapflow) for replies, where no MTA can forward to the listener. Each unseen
 * message goes through the same intake as the listener's (stored, then processed by its workflow) and is flagged
 * \Seen only once stored: a crash in between leaves it unseen, and the next poll stores it again as the same row
 * (its dedup key), so it is processed once. A message over the size limit is never read whole (a mailbox takes mail
 * of any size, and the whole source would sit in this process's memory): its size is asked first, then only its start
 * is fetched, as the listener keeps of one (the header: who to answer), and it takes the same too-large path. Signs
 * in with OAuth2 (XOAUTH2: Microsoft 365 and Google refuse passwords) or, where a server still takes one, a password.
 */
import { ImapFlow } from 'imapflow';
import type { ImapSettings } from '../config/inbound-mail-config';
import { genuineReplyToken } from '../services/reply-token';
import { HEADER_KEEP_BYTES, receiveInbound, type InboundIntakeDeps } from './intake';
import { clientCredentialsTokenSource, type AccessTokenSource } from './mailbox-token';

interface MailboxPoller { pollOnce(): Promise<number>; stop(): Promise<void> }

/** `maxBytes`: the largest message taken whole (INBOUND_MAX_BYTES, as the listener's). */
/**
 * `reply`: the reply-address settings. A message addressed to no reply address this portal signed (forged, mistyped,
 * or mail that is no reply at all) is flagged \Seen and left in the mailbox unstored and unanswered, as the listener
 * refuses one at RCPT.
 */
export function createMailboxPoller(
  deps: InboundIntakeDeps, settings: ImapSettings, maxBytes: number, reply: { local: string; domain: string | null; tokenKey: string },
  tokenSource?: AccessTokenSource,
): MailboxPoller {
  const token = tokenSource ?? (settings.oauth ? clientCredentialsTokenSource(settings.oauth) : null);
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let running: Promise<number> | null = null;

  async function signIn(): Promise<ImapFlow> {
    const auth = token ? { user: settings.user, accessToken: await token() } : { user: settings.user, pass: settings.password ?? '' };
    const client = new ImapFlow({ host: settings.host, port: settings.port, secure: settings.secure, auth, logger: false, tls: { rejectUnauthorized: settings.secure } });
    client.on('error', (error: Error) => deps.log?.(`mailbox ${settings.user}@${settings.host}: ${error.message}`));
    await client.connect();
    return client;
  }

  async function poll(): Promise<number> {
    const client = await signIn();
    let stored = 0;
    try {
      const lock = await client.getMailboxLock(settings.mailbox);
      try {
        const unseen = (await client.search({ seen: false }, { uid: true })) || [];
        for (const uid of unseen) {
          const message = await client.fetchOne(String(uid), { size: true, envelope: true }, { uid: true });
          if (!message || message.size === undefined) continue;
          const to = [...(message.envelope?.to ?? []), ...(message.envelope?.cc ?? [])].map((a) => a.address ?? '').filter(Boolean);
          if (!genuineReplyToken(to, reply)) {
            deps.log?.(`mailbox message ${uid} names no reply address of this portal: left unstored`);
            await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
            continue;
          }
          const tooLarge = message.size > maxBytes;
          const { source } = (await client.fetchOne(String(uid), { source: tooLarge ? { maxLength: HEADER_KEEP_BYTES } : true }, { uid: true })) || {};
          if (!source) continue;
          await receiveInbound(deps, {
            raw: source, source: 'imap', envelopeFrom: null, envelopeTo: to, ...(tooLarge ? { tooLarge: { size: message.size } } : {}),
          });
          await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
          stored++;
        }
      } finally {
        lock.release();
      }
    } finally {
      await client.logout().catch(() => client.close());
    }
    return stored;
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = poll().catch((error: Error) => {
        deps.log?.(`mailbox poll failed: ${error.message}`);
        return 0;
      });
      void running.finally(schedule);
    }, settings.pollMs);
  };
  schedule();

  return {
    pollOnce: () => poll(),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
