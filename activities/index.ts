/**
 * createActivities(deps): the worker wires real dependencies (ORM, SMTP transport, Chromium, file store);
 * tests pass their own (a test database, the SMTP sink). Never imported by workflow code.
 */
import type { AppConfig } from '../config/app-config';
import type { Orm } from '../db/orm';
import type { DocumentFiles } from '../storage/document-files';
import { sendAccountEmailActivity } from './accounts/account-email';
import type { AccountEmailActivities } from '../workflows/account-email-activities.types';
import { queueEmailActivity } from './effects/queue-email';
import { queueDiscussionEmailActivity } from './effects/queue-discussion-email';
import { finishLetterEffectActivity, queueLetterActivity } from './effects/queue-letter';
import { recordStatusActivity } from './effects/record-status';
import { recordAdminFieldsActivity } from './effects/record-admin-fields';
import { decideInstantIssueActivity } from './effects/decide-instant-issue';
import { recordClockEffectActivity, recordSignedReleaseActivity, runStartActivity } from './effects/request-clocks';
import { notingAttemptFailures } from './effects/note-attempt-failure';
import { issueLetterAndEmailActivity } from './effects/issue-letter-and-email';
import { renderEffectLetterActivity } from './effects/render-letter';
import { revokeCertificateActivity } from './effects/revoke-certificate';
import { askRenewalActivity, renewCertificateActivity } from './effects/renew-certificate';
import { recordEffectFailureActivity, sendEffectEmailActivity } from './effects/send-email';
import type { Mailer } from './mailer';
import type { ChromiumPdfRenderer } from './pdf/chromium-pdf-renderer';
import type { LetterSigner } from './pdf/letter-signer';
import type { RequestActivities } from '../workflows/request-activities.types';
import type { WakeUpActivities } from '../workflows/wake-up-activities.types';
import type { ExportActivities } from '../workflows/export-activities.types';
import type { InstantDigestActivities } from '../workflows/instant-digest-activities.types';
import { writeExportActivity } from './exports/write-export';
import { findRequestsToWakeActivity } from './wake-ups/find-requests-to-wake';
import { wakeRequestActivity } from './wake-ups/wake-request';
import { sendInstantDigestActivity } from './instant/send-instant-digest';
import { webhookDeliveryActivities } from './webhooks/webhook-delivery';
import type { WebhookDeliveryActivities } from '../workflows/webhook-delivery-activities.types';
import type { RenewalRunActivities } from '../workflows/renewal-run-activities.types';
import { renewalRunActivities } from './renewals/renewal-run';

export interface ActivityDeps {
  orm: Orm; mailer: Mailer; pdf: ChromiumPdfRenderer; files: DocumentFiles; config: AppConfig;
  /** the office's signature on issued PDFs (null: LETTER_SIGNING=off); when absent, read from `config` */
  signer?: LetterSigner | null;
}

/** Activities of the request task queue (everything but Chromium). */
export function createActivities(deps: ActivityDeps): Omit<RequestActivities, 'renderEffectLetter' | 'issueLetterAndEmail'> & AccountEmailActivities & WakeUpActivities & ExportActivities & InstantDigestActivities & WebhookDeliveryActivities & RenewalRunActivities {
  return {
    sendAccountEmail: sendAccountEmailActivity(deps),
    recordStatus: recordStatusActivity(deps),
    queueEmail: queueEmailActivity(deps),
    queueDiscussionEmail: queueDiscussionEmailActivity(deps),
    sendEffectEmail: notingAttemptFailures(deps.orm, sendEffectEmailActivity(deps)),
    recordEffectFailure: recordEffectFailureActivity(deps),
    queueLetter: queueLetterActivity(deps),
    finishLetterEffect: finishLetterEffectActivity(deps),
    runStart: runStartActivity(deps),
    recordClockEffect: recordClockEffectActivity(deps),
    recordSignedRelease: recordSignedReleaseActivity(deps),
    recordAdminFields: recordAdminFieldsActivity(deps),
    decideInstant: decideInstantIssueActivity(deps),
    findRequestsToWake: findRequestsToWakeActivity(deps),
    wakeRequest: wakeRequestActivity(deps),
    writeExport: writeExportActivity(deps),
    revokeCertificate: revokeCertificateActivity(deps),
    renewCertificate: renewCertificateActivity(deps),
    askRenewal: askRenewalActivity(deps),
    sendInstantDigest: sendInstantDigestActivity(deps),
    ...webhookDeliveryActivities(deps),
    ...renewalRunActivities(deps),
  };
}

/** Activities of the letters task queue (Chromium), apart so a PDF backlog never delays a status save. */
export function createLetterActivities(deps: ActivityDeps): Pick<RequestActivities, 'renderEffectLetter' | 'issueLetterAndEmail'> {
  return {
    renderEffectLetter: notingAttemptFailures(deps.orm, renderEffectLetterActivity(deps)),
    issueLetterAndEmail: notingAttemptFailures(deps.orm, issueLetterAndEmailActivity(deps)),
  };
}
