/**
 * Starts a delivery workflow for each webhook delivery the database owes (rows the trigger `webhook_deliveries_fan_out`
 * writes in the event's transaction, and the owner's "Send again"). Woken at once by the trigger's notification on a
 * connection of its own, and every `sweepMs` as well, so a notification missed while the worker was away or
 * Temporal was down is caught up. Workflow ids are the row's: two workers (or a start repeated after a crash
 * between the start and its mark) start it once.
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import pg from 'pg';
import { sql } from 'kysely';
import { queryOn } from '../db/kysely';
import type { WebhookSettings } from '../config/webhook-config';
import { createTemporalClient } from '../temporal/connection';
import { WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflowId, type WebhookDeliveryInput } from '../workflows/webhook-delivery.messages';

const BATCH = 100;

export interface WebhookDispatcherOptions {
  databaseUrl: string;
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  settings: WebhookSettings;
}

export class WebhookDispatcher {
  private listener: pg.Client | null = null;
  private client: Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly options: WebhookDispatcherOptions) {}

  async start(): Promise<void> {
    this.client = await createTemporalClient(this.options.temporalAddress, this.options.namespace, { lazy: true });
    await this.listen();
    this.timer = setInterval(() => this.wake(), this.options.settings.sweepMs);
    this.timer.unref();
    this.wake();
  }

  /** LISTEN on a connection of its own; when it drops, the sweep carries on and the next wake listens again. */
  private async listen(): Promise<void> {
    const listener = new pg.Client({ connectionString: this.options.databaseUrl });
    listener.on('error', () => { if (this.listener === listener) this.listener = null; });
    listener.on('end', () => { if (this.listener === listener) this.listener = null; });
    listener.on('notification', () => this.wake());
    try {
      await listener.connect();
      await listener.query('listen webhook_deliveries');
      this.listener = listener;
    } catch (error) {
      await listener.end().catch(() => {});
      console.warn(`webhook dispatcher: not listening (${(error as Error).message}); the sweep still runs`);
    }
  }

  /** Runs a pass now, or once more right after the one running. */
  private wake(): void {
    if (this.stopped) return;
    if (this.running) { this.again = true; return; }
    this.running = this.pass()
      .catch((error) => console.warn(`webhook dispatcher: ${(error as Error).message}`))
      .finally(() => {
        this.running = null;
        if (this.again) { this.again = false; this.wake(); }
      });
  }

  private async pass(): Promise<void> {
    if (!this.listener) await this.listen();
    const db = this.listener;
    if (!db || !this.client) return;
    for (;;) {
      const { rows } = await queryOn(db, sql<{ id: string }>`select id from webhook_deliveries where workflow_started_at is null order by id limit ${BATCH}`);
      if (!rows.length) return;
      for (const { id } of rows) {
        if (this.stopped) return;
        const input: WebhookDeliveryInput = { deliveryId: Number(id), retry: this.options.settings.retry };
        try {
          await this.client.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, {
            workflowId: webhookDeliveryWorkflowId(id), taskQueue: this.options.taskQueue, args: [input],
          });
        } catch (error) {
          if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
        }
        await queryOn(db, sql`update webhook_deliveries set workflow_started_at = now() where id = ${id} and workflow_started_at is null`);
      }
      if (rows.length < BATCH) return;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await this.listener?.end().catch(() => {});
    await this.client?.connection.close();
  }
}
