/** Answering portal emails by email in tests: the reply listener beside a harness, replies built from sink mail. */
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { InboundMessageSchema } from '../../db/entities';
import { inboundWorkflowIdOf } from '../../domain';
import type { Received } from '../../devtools/smtp-sink';
import { startInboundSmtpListener, type InboundSmtpListener } from '../../mail-in/smtp-listener';
import { eventually } from './eventually';
import type { Harness } from './portal-harness';

export async function startReplyListener(h: Harness, maxBytes = h.config.inboundMail.maxBytes): Promise<InboundSmtpListener> {
  return startInboundSmtpListener(
    { orm: h.orm, files: h.files, temporal: h.temporal, taskQueue: h.config.taskQueue },
    { host: '127.0.0.1', port: 0, maxBytes, reply: h.config.reply },
  );
}

export function replyTransport(listener: InboundSmtpListener) {
  return nodemailer.createTransport({ host: listener.host, port: listener.port, secure: false, ignoreTLS: true });
}

/** The address a mail client's Reply goes to: the Reply-To the portal put on the email. */
export async function replyAddressOf(_h: Harness, mail: Received, _requestNumber: number): Promise<string> {
  const replyTo = (await simpleParser(mail.raw)).replyTo?.value[0]?.address;
  if (!replyTo) throw new Error(`the portal's email "${mail.subject}" carries no Reply-To`);
  return replyTo;
}

/** A reply as a phone's mail app writes it: the new text above "On … wrote:" and the quoted email. */
export function replyAbove(newText: string, original: Received): string {
  const quoted = original.text.split(/\r?\n/).map((line) => `> ${line}`).join('\n');
  return `${newText}\n\nOn Fri, Nov 27, 2026 at 9:14 AM Risk Management <riskmanagement@coi-portal.local> wrote:\n${quoted}\n`;
}

export const inboundRow = (h: Harness, messageId: string) =>
  h.orm.em.fork().findOne(InboundMessageSchema, { messageId: messageId.replace(/^<|>$/g, '') });

/** Waits until the received message's workflow finished; answers its outcome. */
export async function processed(h: Harness, messageId: string, timeoutMs = 60_000): Promise<string> {
  const row = await eventually(() => inboundRow(h, messageId), timeoutMs);
  return h.temporal.workflow.getHandle(inboundWorkflowIdOf(row.dedupKey)).result() as Promise<string>;
}

export type ReplyMail = Mail.Options;
