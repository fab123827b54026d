import Handlebars from 'handlebars';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { DocumentSchema, RequestEffectSchema, EmailTemplateSchema, RequestActivitySchema, RequestSchema } from '../../db/entities';
import { AUTOMATED_EMAIL_ACTOR, automatedEmailAuditText, emailRecipients } from '../../domain';
import { templateVariables } from '../effects/request-snapshot';
import type { DocumentFiles } from '../../storage/document-files';
import type { Mailer } from '../mailer';
import type { SendTemplatedEmailInput, SendTemplatedEmailResult } from '../../workflows/request-activities.types';

/**
 * LEGACY activity of runs recorded before the `commands-and-effects` patch (see workflows/legacy/).
 * Renders a template for a request and sends it. A delivery row keyed by the workflow's idempotency key is claimed
 * before sending and marked sent after: a retry of a sent email does nothing. (A crash between the SMTP answer and
 * the mark can repeat one email; the Message-ID derived from the key lets a mail client fold the copy.)
 */
export function sendTemplatedEmailActivity(deps: { orm: Orm; mailer: Mailer; files: DocumentFiles; config: AppConfig }) {
  return async function sendTemplatedEmail(input: SendTemplatedEmailInput): Promise<SendTemplatedEmailResult> {
    const em = deps.orm.em.fork();
    const existing = await em.findOne(RequestEffectSchema, { idempotencyKey: input.key });
    if (existing?.sentAt) {
      return { messageId: existing.messageId!, recipients: existing.recipients!.split(', '), alreadySent: true };
    }
    const request = await em.findOneOrFail(RequestSchema, input.requestId);
    const template = await em.findOneOrFail(EmailTemplateSchema, { title: input.templateTitle });
    const recipients = emailRecipients(request);
    const vars = templateVariables(request, deps.config.publicUrl);
    const subject = Handlebars.compile(template.subject, { noEscape: true })(vars);
    const text = Handlebars.compile(template.body, { noEscape: true })(vars);
    const documents = input.attachmentDocumentIds.length
      ? await em.find(DocumentSchema, { id: { $in: input.attachmentDocumentIds }, requestId: request.id })
      : [];
    const messageId = `<${input.key.replace(/[^A-Za-z0-9.-]/g, '.')}@coi-portal>`;
    const delivery = existing ?? em.create(RequestEffectSchema, {
      idempotencyKey: input.key, requestId: request.id, kind: 'email', templateTitle: template.title, snapshot: vars,
      recipients: recipients.join(', '), messageId, claimedAt: new Date(),
    });
    await em.flush();

    await deps.mailer.sendMail({
      from: deps.config.mailFrom,
      to: recipients,
      subject,
      text,
      messageId,
      attachments: documents.map((d) => ({ filename: d.name, contentType: d.mimeType, path: deps.files.pathOf(d.storedName) })),
    });

    await em.transactional(async (tx) => {
      tx.assign(delivery, { sentAt: new Date(), state: 'sent' });
      tx.persist(delivery);
      tx.create(RequestActivitySchema, {
        requestId: request.id,
        date: new Date(),
        activityType: 'Email',
        activityText: automatedEmailAuditText(template.title),
        performedBy: AUTOMATED_EMAIL_ACTOR,
        recipients: recipients.join(', '),
        channel: 'Email',
        idempotencyKey: `${input.key}:email`,
      });
    });
    return { messageId, recipients, alreadySent: false };
  };
}
