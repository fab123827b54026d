/** Real dependencies of the activities, from configuration. */
import type { ActivityDeps } from '../activities';
import { createMailer } from '../activities/mailer';
import { ChromiumPdfRenderer } from '../activities/pdf/chromium-pdf-renderer';
import { prelaunchLetterRenderer } from '../activities/pdf/letter-documents';
import { loadLetterSigner } from '../activities/pdf/letter-signing-key';
import { createReplyTextReader, type ReplyTextReader } from '../mail-in/processing/reply-text-reader';
import type { AppConfig } from '../config/app-config';
import { createOrm } from '../db/orm';
import { DocumentFiles } from '../storage/document-files';

export async function createActivityDeps(config: AppConfig): Promise<ActivityDeps & { replies: ReplyTextReader; close(): Promise<void> }> {
  if (!config.smtpUrl) throw new Error('SMTP_URL is not set: the worker needs an SMTP server to send email');
  // Production refuses to start without the office's signing certificate; development makes its own at first start.
  const signer = loadLetterSigner(config);
  const orm = await createOrm(config.databaseUrl);
  const mailer = createMailer(config.smtpUrl);
  const pdf = new ChromiumPdfRenderer(config.chromiumPath);
  void prelaunchLetterRenderer(pdf); // while the worker bundles its workflows and connects
  const files = await new DocumentFiles(config.uploadsDir).init();
  const replies = createReplyTextReader();
  return {
    orm, mailer, pdf, files, config, signer, replies,
    async close() {
      await replies.close();
      await pdf.close();
      mailer.close();
      await orm.close();
    },
  };
}
