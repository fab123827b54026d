/**
 * Inbound mail process entry (`node --import tsx temporal/inbound-mail.ts`): the SMTP listener (INBOUND_SMTP_PORT)
 * and/or the mailbox poller (IMAP_HOST), both through temporal/inbound-mail-intake.ts. At start and every minute it
 * starts the processing of stored messages not processed yet. Its workflows run on the request worker.
 */
import { loadConfig } from '../config/app-config';
import { createOrm } from '../db/orm';
import { DocumentFiles } from '../storage/document-files';
import { createTemporalClient } from './connection';
import { createMailboxPoller } from './inbound-imap-poller';
import { resumeInboundMail, type InboundIntakeDeps } from './inbound-mail-intake';
import { startInboundSmtpListener } from './inbound-smtp-listener';

const RESUME_EVERY_MS = 60_000;

const config = loadConfig();
const settings = config.inboundMail;
const orm = await createOrm(config.databaseUrl, { poolMax: 8 });
const files = await new DocumentFiles(config.uploadsDir).init();
const temporal = await createTemporalClient(config.temporalAddress, config.temporalNamespace, { lazy: true });
const log = (line: string) => console.log(JSON.stringify({ level: 'info', time: Date.now(), msg: line, process: 'mail-in' }));
const deps: InboundIntakeDeps = { orm, files, temporal, taskQueue: config.taskQueue, log };

const listener = settings.smtpPort > 0
  ? await startInboundSmtpListener(deps, { host: settings.smtpHost, port: settings.smtpPort, maxBytes: settings.maxBytes, reply: config.reply })
  : null;
if (listener) log(`reply listener on ${listener.url} (reply addresses ${config.reply.local}+<token>@${config.reply.domain ?? '(REPLY_TO_DOMAIN unset: none)'}, limit ${settings.maxBytes} bytes)`);
const poller = settings.imap ? createMailboxPoller(deps, settings.imap, settings.maxBytes, config.reply) : null;
if (poller) log(`polling mailbox ${settings.imap!.user} at ${settings.imap!.host} every ${settings.imap!.pollMs} ms`);
if (!listener && !poller) log('no INBOUND_SMTP_PORT and no IMAP_HOST: nothing to receive');

const resume = () => resumeInboundMail(deps).then((n) => { if (n) log(`restarted the processing of ${n} stored message(s)`); }, (error: Error) => log(`resume failed: ${error.message}`));
await resume();
const timer = setInterval(() => void resume(), RESUME_EVERY_MS);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    clearInterval(timer);
    void (async () => {
      await listener?.close();
      await poller?.stop();
      await temporal.connection.close();
      await orm.close();
      process.exit(0);
    })();
  });
}
