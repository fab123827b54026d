/**
 * The one short answer to the sender of a refused reply (domain/inbound-mail.ts says what it says). Sent once per
 * received message: `answer_sent_at` marks it, and the Message-ID derives from the row, so the one retry window
 * (sent, worker died before the mark) gives a copy mail clients fold. It carries `Auto-Submitted: auto-replied`, so
 * no robot answers it and the listener never answers an answer; it goes to nobody when the message was automated,
 * had the null return path or came from the portal itself, and to nobody already answered within the hour.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { AppConfig } from '../../config/app-config';
import { withTurn } from '../../services/limits/turns';
import type { Orm } from '../../db/orm';
import { InboundMessageSchema } from '../../db/entities';
import { answersRefusal, INBOUND_ANSWER_INTERVAL_MS, inboundRefusalSubject, inboundRefusalText, type InboundRefusal } from '../../domain';
import type { DocumentFiles } from '../../storage/document-files';
import type { Mailer } from '../../activities/mailer';
import type { InboundMailActivities } from '../../workflows/inbound-mail-activities.types';
import { senderName } from '../../domain/reply-address';
import { automatedReasonOf, parseStored } from './process-inbound-message';

type Deps = { orm: Orm; files: DocumentFiles; mailer: Mailer; config: AppConfig };

const addressOf = (text: string | null | undefined) => (/<([^<>]*)>\s*$/.exec(text ?? '')?.[1] ?? text ?? '').trim().toLowerCase();

export function answerInboundMessageActivity(deps: Deps): InboundMailActivities['answerInboundMessage'] {
  return async function answerInboundMessage({ inboundMessageId }) {
    const em = deps.orm.em.fork();
    const row = await em.findOne(InboundMessageSchema, inboundMessageId);
    if (!row) throw ApplicationFailure.nonRetryable(`No inbound message ${inboundMessageId}`, 'NotFound');
    if (row.state !== 'refused' || row.answerSentAt || !answersRefusal(row.outcome as InboundRefusal)) return { sent: false };
    const mail = await parseStored(deps.files, row);
    if (automatedReasonOf(mail, row)) return { sent: false };
    // To the From address, never a Reply-To the sender chose: the answer goes back to whoever the mail says wrote it.
    const to = addressOf(mail?.from?.value[0]?.address ?? row.envelopeFrom ?? '');
    const ours = [addressOf(deps.config.mailFrom), deps.config.riskManagementEmail.toLowerCase()];
    const replyDomain = deps.config.reply.domain?.toLowerCase();
    if (!to || !to.includes('@') || ours.includes(to) || (replyDomain && to.endsWith(`@${replyDomain}`))) return { sent: false };
    // One answer an hour per address holds under a burst too: refusals to one address take turns (services/limits/turns.ts: an
    // advisory lock for the address, held by this transaction) to count, send and mark.
    return withTurn(em, `inbound-answer|${to}`, async (tx) => {
      const mine = await tx.findOneOrFail(InboundMessageSchema, row.id);
      if (mine.answerSentAt) return { sent: false };
      const recent = await tx.count(InboundMessageSchema, {
        answerTo: to, answerSentAt: { $gt: new Date(Date.now() - INBOUND_ANSWER_INTERVAL_MS) }, id: { $ne: row.id },
      });
      if (recent) return { sent: false };
      const text = `${inboundRefusalText(row.outcome as InboundRefusal, deps.config.publicUrl.replace(/\/$/, ''), {
        maxBytes: deps.config.inboundMail.maxBytes, messagesPerHour: deps.config.quotas.messagesPerHour,
      })}\n\n`
        + `This is an automatic answer; replies to it are not read.\n\n${senderName(deps.config.mailFrom)}\n`;
      try {
        await deps.mailer.sendMail({
          from: deps.config.mailFrom, to, subject: inboundRefusalSubject(row.outcome as InboundRefusal, mail?.subject ?? ''), text,
          messageId: `<inbound-answer.${row.id}@${deps.config.reply.messageIdDomain}>`,
          ...(row.messageId ? { inReplyTo: `<${row.messageId}>`, references: [`<${row.messageId}>`] } : {}),
          headers: { 'Auto-Submitted': 'auto-replied', 'X-Auto-Response-Suppress': 'All' },
        });
      } catch (error) {
        const smtp = error as Error & { responseCode?: number; code?: string };
        if ((smtp.responseCode ?? 0) >= 500 || smtp.code === 'EENVELOPE') return { sent: false };
        throw error;
      }
      tx.assign(mine, { answerSentAt: new Date(), answerTo: to });
      await tx.flush();
      return { sent: true };
    });
  };
}
