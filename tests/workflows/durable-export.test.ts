/**
 * Exports are durable work: an export is written by its workflow on a worker, so the API that
 * started it may stop (or die) right after answering and the export still completes, with its progress, and any API
 * offers the file. With Temporal away, starting an export is refused (503) and the recorded run says why, never
 * "running" forever.
 */
import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { RequestExportSchema } from '../../db/entities';
import { freePort } from '../../devtools/temporal/dev-server';
import { call, loginAdmin } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';

const harnesses: Harness[] = [];
afterAll(async () => { await Promise.all(harnesses.map((h) => h.stop().catch(() => {}))); });
async function harness(options: Parameters<typeof startHarness>[0]) {
  const h = await startHarness(options);
  harnesses.push(h);
  return h;
}

describe('an export', () => {
  it('completes after the API that started it has stopped, and another API offers the file', async () => {
    const queue = `export-${randomBytes(4).toString('hex')}`;
    const starting = await harness({ worker: false, env: { TEMPORAL_TASK_QUEUE: queue } });
    const admin = await loginAdmin(starting);
    const started = await call(starting, admin, 'POST', '/api/v1/export-requests', { filename: 'coi_export_durable' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body.state).toBe('running');
    await starting.stop();
    harnesses.splice(harnesses.indexOf(starting), 1);

    const other = await harness({ env: { TEMPORAL_TASK_QUEUE: queue } });
    const otherAdmin = await loginAdmin(other);
    const done = await eventually(async () => {
      const row = (await call(other, otherAdmin, 'GET', `/api/v1/export-requests/${started.body.id}`)).body;
      return row.state === 'done' ? row : undefined;
    }, 60_000);
    expect(done.rowsWritten).toBe(done.rowsTotal);
    const file = await other.app.inject({ method: 'GET', url: `/api/v1/export-requests/${done.id}/file`, headers: { authorization: `Bearer ${otherAdmin.token}` } });
    expect(file.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as never);
    expect(workbook.worksheets[0].getRow(1).getCell(1).value).toBe('Request Number');
    expect(workbook.worksheets[0].rowCount).toBe(done.rowsWritten + 1);
  }, 180_000);

  it('is refused with 503 while Temporal is away, and its recorded run says so', async () => {
    const h = await harness({ worker: false, temporalAddress: `127.0.0.1:${await freePort()}` });
    const admin = await loginAdmin(h);
    const refused = await call(h, admin, 'POST', '/api/v1/export-requests', { filename: 'coi_export_no_temporal' });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ name: 'Unavailable', code: 503, message: 'The export service did not answer in time. Please try again in a few minutes.' });
    const rows = await h.orm.em.fork().find(RequestExportSchema, { filename: 'coi_export_no_temporal.xlsx' });
    expect(rows.map((r) => [r.state, r.failure])).toEqual([['failed', refused.body.message]]);
  }, 60_000);
});
