/**
 * The mail-in process (`node --import tsx mail-in/main.ts`; `node dist/mail-in.js`), the portal's door for replies by
 * email: the SMTP listener (INBOUND_SMTP_PORT) and/or the mailbox poller (IMAP_HOST), both through mail-in/intake.ts.
 * At start and every minute it starts the processing of stored messages not processed yet (their workflows run on the
 * request worker, with the activities of mail-in/processing/); at start and hourly it removes the raw bytes of mail
 * processed before the keep period (mail-in/raw-mail-files.ts).
 */
import { loadConfig } from '../config/app-config';
import { createOrm } from '../db/orm';
import { DocumentFiles } from '../storage/document-files';
import { createTemporalClient } from '../temporal/connection';
import { createMailboxPoller } from './imap-poller';
import { pruneInboundMessageFiles } from './raw-mail-files';
import { resumeInboundMail, type InboundIntakeDeps } from './intake';
import { startInboundSmtpListener } from './smtp-listener';

const RESUME_EVERY_MS = 60_000;
const PRUNE_EVERY_MS = 3_600_000;

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
const prune = () => pruneInboundMessageFiles(orm.em.fork(), (name) => files.remove(name)).then(
  (n) => { if (n) log(`removed the raw bytes of ${n} message(s) processed before the keep period`); },
  (error: Error) => log(`removing old raw mail failed: ${error.message}`),
);
void prune();
const pruning = setInterval(() => void prune(), PRUNE_EVERY_MS);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    clearInterval(timer);
    clearInterval(pruning);
    void (async () => {
      await listener?.close();
      await poller?.stop();
      await temporal.connection.close();
      await orm.close();
      process.exit(0);
    })();
  });
}
