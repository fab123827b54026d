/**
 * The webhook delivery workflow's activities: one attempt (services/webhooks/webhook-delivery.ts), closing a delivery
 * that failed, and telling the owner once that their endpoint was disabled.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { kysely } from '../../db/kysely';
import { PRODUCT_TITLE, WEBHOOK_MESSAGES, formatOfficeDateTime } from '../../domain';
import { attemptWebhookDelivery, closeFailedDelivery, WebhookAttemptFailed } from '../../services/webhooks/webhook-delivery';
import { WEBHOOK_FINAL_FAILURE } from '../../workflows/webhook-delivery.messages';
import type { WebhookDeliveryActivities } from '../../workflows/webhook-delivery-activities.types';
import type { Mailer } from '../mailer';

type Deps = { orm: Orm; mailer: Mailer; config: AppConfig };

export function webhookDeliveryActivities(deps: Deps): WebhookDeliveryActivities {
  return {
    async deliverWebhook(deliveryId) {
      try {
        return await attemptWebhookDelivery(deps.orm.em.fork(), deliveryId, {
          ...deps.config.webhooks, publicUrl: deps.config.publicUrl,
        });
      } catch (error) {
        if (!(error instanceof WebhookAttemptFailed)) throw error;
        // No stack: the message (the endpoint's status or the network error) is what the history should show.
        throw error.final
          ? ApplicationFailure.nonRetryable(error.message, WEBHOOK_FINAL_FAILURE)
          : ApplicationFailure.retryable(error.message, 'WebhookAttemptFailed');
      }
    },

    async closeFailedWebhookDelivery(deliveryId) {
      return closeFailedDelivery(deps.orm.em.fork(), deliveryId);
    },

    async sendWebhookDisabledEmail(endpointId) {
      const db = kysely(deps.orm.em.fork());
      const row = await db.selectFrom('webhook_endpoints as e').innerJoin('users as u', 'u.id', 'e.owner_id')
        .select(['e.id', 'e.url', 'e.disabled_at', 'e.disabled_reason', 'e.disabled_emailed_at', 'u.email', 'u.first_name', 'u.last_name'])
        .where('e.id', '=', endpointId).executeTakeFirst();
      if (!row) return { sent: false, reason: 'endpoint gone' };
      if (!row.disabled_at) return { sent: false, reason: 'enabled again' };
      if (row.disabled_emailed_at) return { sent: false, reason: 'already sent' };
      const disabledAt = new Date(row.disabled_at);
      const when = formatOfficeDateTime(disabledAt, deps.config.clockPolicy.calendar.timeZone);
      // The Message-ID derives from the disabling, so the one retry window (sent, mark not written) gives a copy
      // mail clients fold.
      await deps.mailer.sendMail({
        from: deps.config.mailFrom, to: row.email, subject: WEBHOOK_MESSAGES.disabledSubject,
        messageId: `<webhook-disabled.${row.id}.${disabledAt.getTime()}@${deps.config.reply.messageIdDomain}>`,
        text: `Dear ${row.first_name} ${row.last_name},\n\n`
          + `Deliveries to your webhook endpoint\n  ${row.url}\nhave failed for three days, so on ${when} the ${PRODUCT_TITLE} stopped sending to it.\n\n`
          + `Last error: ${row.disabled_reason ?? 'unknown'}\n\n`
          + 'Once the endpoint answers again, sign in, open Webhooks and choose "Send again" on a delivery: that enables the endpoint.\n\nRisk Management\n',
      });
      await db.updateTable('webhook_endpoints').set({ disabled_emailed_at: new Date() }).where('id', '=', endpointId)
        .where('disabled_at', '=', row.disabled_at).execute();
      return { sent: true };
    },
  };
}
