/**
 * Live dashboards. PostgreSQL triggers NOTIFY `request_events` when a request is created or changes status, when a
 * message is posted and when an audit row is written, whoever made the change (API, workflow activity, import): see
 * Migration20261122064000 and Migration20261126050000. The API holds one LISTEN connection and passes each event to the signed-in users who
 * may see the request, by the rules of the lists (request-access.ts `canSee`). What a browser receives is the
 * kind of change and the request id, never a field: it reloads what it shows through the ordinary, authorised calls.
 */
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestEvent } from '../../contract/request-events.schema';
import type { SessionUser } from '../../contract/session-user.schema';
import { canSee } from '../../services/requests/request-access';

const REQUEST_EVENTS_CHANNEL = 'request_events';

/**
 * The trigger's payload: the event a browser receives (contract/request-events.schema.ts) plus who may see the
 * request (kept on the server). `resync` is the hub's own, after a reconnect.
 */
interface Notification { kind: Exclude<RequestEvent['kind'], 'resync'>; requestId: number; requesterId: number | null; email: string | null }

interface Subscriber { user: SessionUser; send(event: RequestEvent): void }

export class RequestEventHub {
  private client: pg.Client | null = null;
  private readonly subscribers = new Set<Subscriber>();
  private stopped = false;
  private retryMs = 1000;
  private connectedOnce = false;

  constructor(private readonly databaseUrl: string, private readonly log: FastifyBaseLogger) {}

  /** Connects and LISTENs; reconnects with backoff (1 s doubling to 30 s) whenever the connection drops. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: 'coi-portal-request-events' });
    client.on('notification', (message) => this.dispatch(message.payload));
    client.on('error', (error) => this.log.warn({ err: error }, 'request events: LISTEN connection failed'));
    client.on('end', () => { if (this.client === client) this.reconnectLater(); });
    try {
      await client.connect();
      await client.query(`LISTEN ${REQUEST_EVENTS_CHANNEL}`);
    } catch (error) {
      this.log.warn({ err: error }, 'request events: cannot LISTEN yet');
      await client.end().catch(() => undefined);
      this.reconnectLater();
      return;
    }
    if (this.stopped) { await client.end().catch(() => undefined); return; }
    this.client = client;
    this.retryMs = 1000;
    // Events that happened while the connection was down are lost: ask every browser to reload once.
    if (this.connectedOnce) this.broadcast({ kind: 'resync', requestId: null });
    this.connectedOnce = true;
  }

  private reconnectLater(): void {
    this.client = null;
    if (this.stopped) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 30_000);
    setTimeout(() => { void this.connect(); }, delay).unref();
  }

  private dispatch(payload: string | undefined): void {
    let note: Notification;
    try {
      note = JSON.parse(payload ?? '') as Notification;
    } catch {
      return;
    }
    if (!Number.isInteger(note.requestId)) return;
    const event: RequestEvent = { kind: note.kind, requestId: note.requestId };
    const access = { requesterId: note.requesterId ?? -1, email: note.email ?? null };
    for (const subscriber of this.subscribers) {
      if (canSee(subscriber.user, access)) subscriber.send(event);
    }
  }

  private broadcast(event: RequestEvent): void {
    for (const subscriber of this.subscribers) subscriber.send(event);
  }

  subscribe(user: SessionUser, send: (event: RequestEvent) => void): () => void {
    const subscriber: Subscriber = { user, send };
    this.subscribers.add(subscriber);
    return () => { this.subscribers.delete(subscriber); };
  }

  get listening(): boolean { return this.client !== null; }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
