/**
 * The upload register (table `uploads`, issue #16 item 5): every upload's size, sender and request. It holds the
 * upload quota (bytes a user sent in the last 24 hours) and lets housekeeping remove uploads that no document took
 * up (a browser closed between the two steps of adding a document, or a script filling the disk).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { QUOTAS, quotaMessage, UNREFERENCED_UPLOAD_TTL_MS } from '../../domain/abuse-limits';
import { ApiError } from '../errors';
import type { SqlRunner } from './rate-limits';

export async function uploadedBytesInWindow(sql: SqlRunner, userId: number): Promise<number> {
  const rows = await sql.getConnection().execute(
    `select coalesce(sum("size"), 0)::bigint as bytes from "uploads" where "user_id" = ? and "created_at" > now() - ? * interval '1 millisecond'`,
    [userId, QUOTAS.uploadBytesPerDay.windowMs], 'all',
  ) as Array<{ bytes: string | number }>;
  return Number(rows[0]?.bytes ?? 0);
}

/** 429 when `userId` has used the day's `limit` of upload bytes (with `incoming` more, once their size is known). */
export async function assertUploadQuota(sql: SqlRunner, userId: number, limit: number, incoming = 0): Promise<void> {
  const used = await uploadedBytesInWindow(sql, userId);
  if (used + incoming > limit || used >= limit) {
    throw new ApiError(429, quotaMessage.uploadBytesPerDay(limit), { quota: 'uploadBytesPerDay', limit, used });
  }
}

export async function recordUpload(sql: SqlRunner, upload: { storedName: string; userId: number; requestId: number; size: number }): Promise<void> {
  await sql.getConnection().execute(
    'insert into "uploads" ("stored_name", "user_id", "request_id", "size") values (?, ?, ?, ?)',
    [upload.storedName, upload.userId, upload.requestId, upload.size], 'run',
  );
}

/**
 * Removes uploads older than a day that no document names: the row first (so only one API process gets each), then
 * the bytes. Answers the stored names removed.
 */
export async function sweepUnreferencedUploads(em: EntityManager, removeBytes: (storedName: string) => Promise<void>, now = new Date()): Promise<string[]> {
  const rows = await em.getConnection().execute(
    `delete from "uploads" u where u."created_at" < ? and not exists (select 1 from "documents" d where d."stored_name" = u."stored_name")
     returning u."stored_name"`,
    [new Date(now.getTime() - UNREFERENCED_UPLOAD_TTL_MS)], 'all',
  ) as Array<{ stored_name: string }>;
  for (const row of rows) await removeBytes(row.stored_name);
  return rows.map((row) => row.stored_name);
}
