/**
 * The upload register (table `uploads`): every upload's size, sender and request. It holds the upload quota (bytes a
 * user sent in the last 24 hours) and lets housekeeping remove uploads that no document took up (a browser closed
 * between the two steps of adding a document, or a script filling the disk). Uploads in progress hold a place in
 * `upload_slots` with the bytes they may still add, so a burst cannot all pass the same quota check.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import {
  QUOTAS, quotaMessage, UNREFERENCED_UPLOAD_TTL_MS, UPLOAD_SLOT_TTL_MS, UPLOADS_AT_ONCE_RETRY_AFTER_S,
} from '../../domain/abuse-limits';
import { pooled } from '../../db/kysely';
import { overQuota } from '../refusals';
import type { SqlRunner } from '../limits/rate-limits';

/** A place taken for an upload in progress: its id also names the partial file (`partNameOf`). */
export interface UploadSlot { id: string; userId: number; reservedBytes: number }

export const partNameOf = (slot: Pick<UploadSlot, 'id'>) => `upload-${slot.id}.part`;

/**
 * Takes one of the user's places for an upload in progress and reserves `bytes` of the day's quota, in one call to
 * PostgreSQL (reserve_upload_slot, db/migrations/Migration20261127400001_upload_slots.ts), before a byte of the file is
 * read. `byteLimit` null: the bytes are not counted (administrators). 429 in the spec's shape otherwise: the quota's
 * message as before, or "already uploading" with Retry-After in `data.retryAfterSeconds`. Every statement here runs on
 * the pool, outside any transaction of the caller.
 */
export async function reserveUploadSlot(
  runner: SqlRunner, request: { userId: number; bytes: number; byteLimit: number | null; atOnce: number },
): Promise<UploadSlot> {
  const id = randomUUID();
  const { rows } = await sql<{ refusal: 'uploadsAtOnce' | 'uploadBytesPerDay' | null; held_bytes: string }>`
    select "refusal", "held_bytes" from reserve_upload_slot(${id}, ${request.userId}, ${request.bytes}, ${request.byteLimit},
      ${QUOTAS.uploadBytesPerDay.windowMs}, ${request.atOnce}, ${UPLOAD_SLOT_TTL_MS})`.execute(pooled(runner));
  const refusal = rows[0]?.refusal ?? null;
  if (refusal === 'uploadsAtOnce') {
    throw overQuota(quotaMessage.uploadsAtOnce(request.atOnce), {
      quota: 'uploadsAtOnce', limit: request.atOnce, retryAfterSeconds: UPLOADS_AT_ONCE_RETRY_AFTER_S,
    });
  }
  if (refusal === 'uploadBytesPerDay') {
    const limit = request.byteLimit!;
    throw overQuota(quotaMessage.uploadBytesPerDay(limit), { quota: 'uploadBytesPerDay', limit, used: Number(rows[0].held_bytes) });
  }
  return { id, userId: request.userId, reservedBytes: request.bytes };
}

/**
 * The upload arrived whole: its place is freed and its register row written with the real size, in one statement
 * (the reservation becomes the settled size; nothing stays reserved). Written before the bytes take their final name,
 * so bytes under a stored name always have a row and housekeeping can remove them if no document takes them up.
 */
export async function settleUploadSlot(runner: SqlRunner, slot: UploadSlot, upload: { storedName: string; requestId: number; size: number }): Promise<void> {
  await sql`with freed as (delete from "upload_slots" where "id" = ${slot.id})
    insert into "uploads" ("stored_name", "user_id", "request_id", "size") values (${upload.storedName}, ${slot.userId}, ${upload.requestId}, ${upload.size})`
    .execute(pooled(runner));
}

/** The upload failed or was abandoned: its place and its reserved bytes are given back. */
export async function releaseUploadSlot(runner: SqlRunner, slot: UploadSlot): Promise<void> {
  await pooled(runner).deleteFrom('upload_slots').where('id', '=', slot.id).execute();
}

/**
 * Places whose time ran out (the process receiving them died): the rows first (one API process gets each), then the
 * partial files. Answers how many were removed.
 */
export async function sweepExpiredUploadSlots(em: EntityManager, removePart: (partName: string) => Promise<void>): Promise<number> {
  const rows = await pooled(em).deleteFrom('upload_slots').where('expires_at', '<=', sql<Date>`now()`).returning('id').execute();
  for (const row of rows) await removePart(partNameOf(row));
  return rows.length;
}

/**
 * Removes uploads older than a day that no document names: the row first (so only one API process gets each), then
 * the bytes. Answers the stored names removed.
 */
export async function sweepUnreferencedUploads(em: EntityManager, removeBytes: (storedName: string) => Promise<void>, now = new Date()): Promise<string[]> {
  const { rows } = await sql<{ stored_name: string }>`
    delete from "uploads" u where u."created_at" < ${new Date(now.getTime() - UNREFERENCED_UPLOAD_TTL_MS)}
       and not exists (select 1 from "documents" d where d."stored_name" = u."stored_name")
    returning u."stored_name"`.execute(pooled(em));
  for (const row of rows) await removeBytes(row.stored_name);
  return rows.map((row) => row.stored_name);
}
