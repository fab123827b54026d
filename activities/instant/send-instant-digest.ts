/**
 * Emails the office's mailbox what its instant-certificate rules issued on one office day (domain/instant-digest.ts):
 * each certificate (request number, kind, holder, rule and version, when it was issued, office time) and how many each
 * rule issued. Nothing goes out for a day without one.
 *
 * Once per day: the record `instant-digest:<day>` is inserted and the email sent in one transaction, committed after
 * the mail server took it. A second run of the day (a retry, a second start of the schedule) waits on that record and
 * finds it; a failed send rolls it back, so the retry sends. The one window left, the server took the email and the
 * commit failed, sends it again with the same Message-ID, which mail clients fold.
 */
import { ApplicationFailure } from '@temporalio/common';
import Handlebars from 'handlebars';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { formatOfficeDate, instantDigestDayOf, instantDigestKey, instantDigestRuleCounts, instantDigestSubject, PRODUCT_TITLE } from '../../domain';
import { instantDigestSent, instantIssuesOn, recordInstantDigest } from '../../services/instant/digest';
import type { InstantDigestActivities } from '../../workflows/instant-digest-activities.types';
import type { Mailer } from '../mailer';

/** Plain text (no escaping): the office reads it in its mail client. */
const DIGEST_TEXT = Handlebars.compile(`Certificates issued instantly by the office's rules on {{day}} (office time): {{issued}}.

{{#each rows}}
Request {{requestNumber}} - {{kind}}
  Holder: {{holder}}
  Rule: {{ruleName}} v{{ruleVersion}}
  Issued: {{issuedAt}}
{{/each}}

By rule:
{{#each rules}}
  {{ruleName}} ({{versions}}): {{issued}}
{{/each}}

One in N of them waits on the Check after issue list of the ${PRODUCT_TITLE}.
`, { noEscape: true });

export function sendInstantDigestActivity(deps: { orm: Orm; mailer: Mailer; config: AppConfig }): InstantDigestActivities['sendInstantDigest'] {
  return async function sendInstantDigest(input) {
    const timeZone = deps.config.clockPolicy.calendar.timeZone;
    const day = input.day ?? instantDigestDayOf(input.at, timeZone);
    const em = deps.orm.em.fork();
    if (await instantDigestSent(em, day)) return { day, outcome: 'already sent', issued: 0 };
    const rows = await instantIssuesOn(em, day, timeZone);
    if (rows.length === 0) return { day, outcome: 'none', issued: 0 };
    const to = deps.config.riskManagementEmail;
    const sent = await em.transactional(async (tx) => {
      if (!(await recordInstantDigest(tx, { day, issued: rows.length, sentTo: to }))) return false;
      const text = DIGEST_TEXT({
        day: formatOfficeDate(day, timeZone), issued: rows.length, rules: instantDigestRuleCounts(rows),
        rows: rows.map((r) => ({ ...r, requestNumber: r.requestNumber ?? '(no number)', holder: r.holder ?? '(none)' })),
      });
      try {
        await deps.mailer.sendMail({
          from: deps.config.mailFrom, to, subject: instantDigestSubject(day, rows.length), text,
          messageId: `<${instantDigestKey(day).replace(':', '.')}@${deps.config.reply.messageIdDomain}>`,
        });
      } catch (error) {
        const smtp = error as Error & { responseCode?: number; code?: string };
        if ((smtp.responseCode ?? 0) >= 500 || smtp.code === 'EENVELOPE') throw ApplicationFailure.nonRetryable(smtp.message, 'SmtpRejected');
        throw error;
      }
      return true;
    });
    return { day, outcome: sent ? 'sent' : 'already sent', issued: sent ? rows.length : 0 };
  };
}
