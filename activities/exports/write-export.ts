/**
 * Writes a recorded export's sheet (workflows/export.workflow.ts), heartbeating as it goes, and marks its row done.
 * Input the sheet cannot be made from fails the export at once; anything else (PostgreSQL away, the disk full, the
 * worker killed) is retried by Temporal, and the last attempt marks the row failed with the reason.
 */
import { Context } from '@temporalio/activity';
import { RequestExportSchema, type RequestExport } from '../../db/entities';
import { ExportInputError, exportInputOf, exportPath, whereOf, writeExportSheet } from '../../services/requests/request-export-sheet';
import { EXPORT_ATTEMPTS } from '../../workflows/export.messages';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import type { ExportActivities } from '../../workflows/export-activities.types';

export function writeExportActivity({ orm, config }: { orm: Orm; config: AppConfig }): ExportActivities['writeExport'] {
  const update = (id: number, patch: Partial<RequestExport>) =>
    orm.em.fork().nativeUpdate(RequestExportSchema, { id }, { ...patch, updatedAt: new Date() });

  return async ({ exportId }) => {
    const context = Context.current();
    const row = await orm.em.fork().findOne(RequestExportSchema, exportId);
    if (!row) return 'failed'; // removed meanwhile: nothing to write
    if (row.state === 'done') return 'done'; // an attempt that finished before its worker could report it
    const timeZone = config.clockPolicy.calendar.timeZone;
    try {
      const where = whereOf(exportInputOf(row), timeZone);
      const heartbeat = setInterval(() => context.heartbeat(), 5000);
      try {
        const { rowsWritten, size } = await writeExportSheet(config.databaseUrl, exportPath(config.dataDir, row.storedName), where, timeZone,
          async (counts) => { context.heartbeat(counts); await update(exportId, counts); });
        await update(exportId, { rowsWritten, size, state: 'done', failure: null });
        return 'done';
      } finally {
        clearInterval(heartbeat);
      }
    } catch (error) {
      const last = error instanceof ExportInputError || context.info.attempt >= EXPORT_ATTEMPTS;
      if (!last) throw error;
      await update(exportId, { state: 'failed', failure: (error as Error).message });
      return 'failed';
    }
  };
}
