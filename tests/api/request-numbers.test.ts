/** Request numbers: first 50001, then +1, never shared, under concurrent submits (real PostgreSQL). */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { dropDatabase } from '../../db/database';
import { prepareDatabase } from '../../db/prepare-database';
import { RequestSchema } from '../../db/entities';
import { assignRequestNumber } from '../../services/requests/request-numbers';
import { createOrm, type Orm } from '../../db/orm';

let databaseUrl: string;
let orm: Orm;

beforeAll(async () => {
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/coi_test_${process.pid}_numbers_${randomBytes(3).toString('hex')}`;
  databaseUrl = url.toString();
  await prepareDatabase(databaseUrl);
  orm = await createOrm(databaseUrl, { poolMax: 12 });
});
afterAll(async () => {
  await orm?.close();
  await dropDatabase(databaseUrl);
});

async function draft(): Promise<number> {
  const em = orm.em.fork();
  const r = em.create(RequestSchema, { requestType: 'credentialing', source: 'external', employerType: 'external', requesterId: 1 });
  await em.flush();
  return r.id;
}

describe('assignRequestNumber', () => {
  it('gives the first request 50001 and the next 50002', async () => {
    const a = await draft();
    const b = await draft();
    expect(await assignRequestNumber(orm.em.fork(), a)).toBe(50001);
    expect(await assignRequestNumber(orm.em.fork(), b)).toBe(50002);
  });

  it('keeps the number of a request submitted again', async () => {
    const a = await draft();
    const first = await assignRequestNumber(orm.em.fork(), a);
    expect(await assignRequestNumber(orm.em.fork(), a)).toBe(first);
  });

  it('hands out distinct consecutive numbers to 40 concurrent submits, and one number to 10 concurrent submits of one request', async () => {
    const ids = await Promise.all(Array.from({ length: 40 }, draft));
    const before = (await orm.em.fork().getConnection().execute(`select last_request_number from counters where name = 'request'`))[0].last_request_number;
    const numbers = await Promise.all(ids.map((id) => assignRequestNumber(orm.em.fork(), id)));
    expect(new Set(numbers).size).toBe(40);
    expect([...numbers].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => before + 1 + i));

    const one = await draft();
    const same = await Promise.all(Array.from({ length: 10 }, () => assignRequestNumber(orm.em.fork(), one)));
    expect(new Set(same).size).toBe(1);
  });
});
