/**
 * createActivities(deps): the worker wires real dependencies (ORM, SMTP transport, Chromium, file store);
 * tests pass their own (a test database, the SMTP sink). Never imported by workflow code.
 */
import type { AppConfig } from '../config/app-config';
import type { Orm } from '../db/orm';
import type { DocumentFiles } from '../storage/document-files';
import { generateLetterActivity } from './generate-letter';
import type { Mailer } from './mailer';
import type { ChromiumPdfRenderer } from './pdf/chromium-pdf-renderer';
import { recordStatusChangeActivity } from './record-status-change';
import type { RequestActivities } from './request-activities.types';
import { sendTemplatedEmailActivity } from './send-templated-email';

export interface ActivityDeps { orm: Orm; mailer: Mailer; pdf: ChromiumPdfRenderer; files: DocumentFiles; config: AppConfig }

export function createActivities(deps: ActivityDeps): RequestActivities {
  return {
    recordStatusChange: recordStatusChangeActivity(deps.orm),
    generateLetter: generateLetterActivity(deps),
    sendTemplatedEmail: sendTemplatedEmailActivity(deps),
  };
}
