/**
 * The SMTP listener a university MTA forwards reply mail to (Nodemailer's smtp-server). It takes only recipients
 * that are reply addresses this portal signed (`<local>+<token>@<domain>`, domain/reply-address.ts,
 * services/reply-token.ts): a forged or mistyped one is refused at RCPT, so it is never stored, parsed or answered (a
 * sender who makes up addresses gets the MTA's bounce, not mail from the office). It advertises its size limit (SIZE, RFC 1870: a declared larger
 * message is refused at MAIL FROM) and counts the bytes of every message: one over the limit is refused with 552
 * after its header is kept, so its sender is answered once. A message is answered 250 only once it is stored
 * (mail-in/intake.ts); if it cannot be stored the answer is 451 and the MTA tries again later.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { genuineReplyToken } from '../services/reply-token';
import { HEADER_KEEP_BYTES, receiveInbound, type InboundIntakeDeps } from './intake';

interface InboundSmtpOptions {
  host: string;
  port: number;
  maxBytes: number;
  reply: { local: string; domain: string | null; tokenKey: string };
}

export interface InboundSmtpListener { host: string; port: number; url: string; close(): Promise<void> }

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

export async function startInboundSmtpListener(deps: InboundIntakeDeps, options: InboundSmtpOptions): Promise<InboundSmtpListener> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: options.maxBytes,
    logger: false,
    disableReverseLookup: true,
    closeTimeout: 2000,
    // Each connection may hold up to `size` bytes while a message arrives: 20 at once bounds that memory; a university
    // MTA forwarding replies needs a few. A reply names one reply address; 10 recipients is room to spare.
    maxClients: 20,
    maxRecipients: 10,
    banner: 'coi-portal reply listener',
    onRcptTo(address, _session, callback) {
      if (!genuineReplyToken([address.address], options.reply)) return callback(smtpError(550, `5.1.1 <${address.address}>: not a reply address of this portal`));
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let kept = 0;
      stream.on('data', (chunk: Buffer) => {
        // Past the limit nothing more is kept (the start holds the header); smtp-server counts the rest.
        if (kept < options.maxBytes) chunks.push(chunk);
        kept += chunk.length;
      });
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
        const whole = Buffer.concat(chunks);
        const mail = stream.sizeExceeded
          ? { raw: whole.subarray(0, HEADER_KEEP_BYTES), source: 'smtp' as const, envelopeFrom, envelopeTo, tooLarge: { size: stream.byteLength } }
          : { raw: whole, source: 'smtp' as const, envelopeFrom, envelopeTo };
        receiveInbound(deps, mail).then(
          ({ id }) => mail.tooLarge
            ? callback(smtpError(552, `5.3.4 Message exceeds fixed maximum message size of ${options.maxBytes} bytes (${Math.floor(options.maxBytes / 1048576)} MB)`))
            : callback(null, `2.0.0 stored as ${id}`),
          (error: Error) => {
            deps.log?.(`inbound mail not stored: ${error.message}`);
            callback(smtpError(451, '4.3.0 Temporary problem storing the message, please try again later'));
          },
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => deps.log?.(`inbound SMTP: ${error.message}`));
  const port = (server.server.address() as AddressInfo).port;
  return {
    host: options.host, port, url: `smtp://${options.host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
