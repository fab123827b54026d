/** The certificates migration numbers the drafts an older release left without a number. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { dropDatabase, ensureDatabase } from '../../db/database';
import { createOrm, type Orm } from '../../db/orm';

let databaseUrl: string;
let orm: Orm;

beforeAll(async () => {
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/coi_test_${process.pid}_migration_${randomBytes(3).toString('hex')}`;
  databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  orm = await createOrm(databaseUrl);
});
afterAll(async () => {
  await orm?.close();
  await dropDatabase(databaseUrl);
});

describe('Migration20261122034500_certificates_and_people', () => {
  it('gives numberless drafts the next numbers in creation order and moves the counter past them', async () => {
    await orm.migrator.up({ to: 'Migration20261122023000_commands_and_effects' });
    const sql = orm.em.getConnection();
    await sql.execute(`insert into counters (name, last_request_number) values ('request', 50005)`);
    const insert = (number: number | null, created: string, status = 'Draft') => sql.execute(
      `insert into requests (created_at, updated_at, request_number, request_type, status, source, requester_id, employer_type, verified, version)
       values (?, now(), ?, 'credentialing', ?, 'external', 1, 'external', false, 1) returning id`, [created, number, status]);
    const [later] = await insert(null, '2026-11-20T10:00:00Z');
    const [submitted] = await insert(50005, '2026-11-01T10:00:00Z', 'Submitted');
    const [earlier] = await insert(null, '2026-11-19T10:00:00Z');
    await orm.migrator.up();
    const rows = await sql.execute<{ id: number; request_number: number }[]>('select id, request_number from requests');
    const numberOf = (id: number) => rows.find((r) => r.id === id)!.request_number;
    expect(numberOf(submitted.id)).toBe(50005);
    expect(numberOf(earlier.id)).toBe(50006);
    expect(numberOf(later.id)).toBe(50007);
    const [counter] = await sql.execute(`select last_request_number from counters where name = 'request'`);
    expect(counter.last_request_number).toBe(50007);
  });
});
