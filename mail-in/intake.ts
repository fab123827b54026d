/**
 * The one way a received email enters the portal, whoever received it (the SMTP listener, the mailbox poller):
 *   1. its raw bytes are written to disk and flushed (fsync), then its row `inbound_messages`, unique by dedup key
 *      (a hash of the Message-ID, or of the bytes without one): only then may the sender hear "accepted" or the
 *      mailbox message be flagged, so a crash after that loses nothing;
 *   2. its processing workflow is started with an id from the same key, so a second delivery joins the first.
 * Starting may fail (Temporal away): the row stays `received` and `resumeInboundMail` starts it later (at every
 * start of the listener, and on a timer).
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { kysely } from '../db/kysely';
import type { Orm } from '../db/orm';
import { inboundWorkflowIdOf, normalizedMessageId } from '../domain';
import type { DocumentFiles } from '../storage/document-files';
import { INBOUND_MAIL_WORKFLOW_TYPE, type InboundMailInput } from '../workflows/inbound-mail.messages';

export interface InboundIntakeDeps { orm: Orm; files: DocumentFiles; temporal: Client; taskQueue: string; log?: (line: string) => void }

/** What is kept of a message over the size limit: enough for its header (who to answer, whether it is automated). */
export const HEADER_KEEP_BYTES = 64 * 1024;

interface IncomingMail {
  raw: Buffer;
  source: 'smtp' | 'imap';
  /** MAIL FROM ('' for `<>`), null when unknown (a mailbox message) */
  envelopeFrom: string | null;
  envelopeTo: string[];
  /** the message was over the size limit: `raw` is its start only (HEADER_KEEP_BYTES), `size` what was counted */
  tooLarge?: { size: number };
}

/** The header block of a message (up to the first empty line), unfolded. */
function headerBlockOf(raw: Buffer): string {
  const text = raw.subarray(0, 256 * 1024).toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  return (end < 0 ? text : text.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
}

function messageIdOf(raw: Buffer): string | null {
  return normalizedMessageId(/^message-id:[ \t]*(.*)$/im.exec(headerBlockOf(raw))?.[1]);
}

const START_DEADLINE_MS = 3_000;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The dedup key: the Message-ID names a message wherever it comes from; without one, its bytes do. */
function dedupKeyOf(raw: Buffer, tooLarge: boolean): string {
  const messageId = messageIdOf(raw);
  const basis = messageId ? `message-id:${messageId}` : raw;
  return sha256(tooLarge ? `too-large:${sha256(basis)}` : basis);
}

async function startInboundWorkflow(deps: InboundIntakeDeps, dedupKey: string, inboundMessageId: number): Promise<boolean> {
  try {
    // Bounded: with Temporal away the sender still hears "accepted" within seconds (the message is stored) and the
    // sweep starts the processing later, instead of every delivery waiting out the client's retries.
    await deps.temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, () => deps.temporal.workflow.start(INBOUND_MAIL_WORKFLOW_TYPE, {
      workflowId: inboundWorkflowIdOf(dedupKey), taskQueue: deps.taskQueue, args: [{ inboundMessageId } satisfies InboundMailInput],
      // A run that failed (not one that finished) may run again: the activities find what it already did.
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
    }));
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    deps.log?.(`inbound mail ${inboundMessageId}: processing not started yet (${(error as Error).message}); the sweep starts it`);
    return false;
  }
}

/** Stores the message (bytes, then row) and starts its processing; answers its row id and whether it was new. */
export async function receiveInbound(deps: InboundIntakeDeps, mail: IncomingMail): Promise<{ id: number; duplicate: boolean }> {
  const dedupKey = dedupKeyOf(mail.raw, !!mail.tooLarge);
  const storedName = `inbound-${dedupKey}.eml`;
  const db = kysely(deps.orm.em.fork());
  const stored = () => db.selectFrom('inbound_messages').select('id').where('dedup_key', '=', dedupKey).executeTakeFirst();
  const existing = await stored();
  if (existing) return { id: existing.id, duplicate: true };
  await deps.files.writeDurably(storedName, mail.raw);
  const { rows } = await sql<{ id: number }>`
    insert into "inbound_messages" ("dedup_key", "message_id", "source", "envelope_from", "envelope_to", "size", "stored_name", "outcome")
    values (${dedupKey}, ${messageIdOf(mail.raw)}, ${mail.source}, ${mail.envelopeFrom}, ${mail.envelopeTo.join(', ')},
      ${mail.tooLarge?.size ?? mail.raw.length}, ${storedName}, ${mail.tooLarge ? 'too-large' : null})
    on conflict ("dedup_key") do nothing returning "id"`.execute(db);
  if (!rows.length) {
    const again = await stored();
    return { id: again!.id, duplicate: true };
  }
  await startInboundWorkflow(deps, dedupKey, rows[0].id);
  return { id: rows[0].id, duplicate: false };
}

/** Starts the processing of every stored message not processed yet (a crash, Temporal away at receipt). */
export async function resumeInboundMail(deps: InboundIntakeDeps): Promise<number> {
  const rows = await kysely(deps.orm.em.fork()).selectFrom('inbound_messages').select(['id', 'dedup_key'])
    .where('state', '=', 'received').orderBy('id').limit(1000).execute();
  let started = 0;
  for (const row of rows) if (await startInboundWorkflow(deps, row.dedup_key, row.id)) started++;
  return started;
}
