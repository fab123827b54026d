/** Feathers-style query strings on /requests (spec 2 §7.1), parsed as the original client serialized them. */
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createExternalUser, login, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let me: Session;
const ids: number[] = [];

beforeAll(async () => {
  h = await startHarness({ worker: false });
  await createExternalUser(h, 'query@clinic.example', 'Query-Pass1');
  me = await login(h, 'query@clinic.example', 'Query-Pass1');
  for (const [lastName, dateFrom] of [['Abbott', '2010-01-01'], ['Baker', '2015-06-01'], ['Bakersfield', '2020-03-01']] as const) {
    const res = await call(h, me, 'POST', '/api/v1/requests', { requestType: 'credentialing', lastName, dateFrom: `${dateFrom}T11:00:00.000Z` });
    ids.push(res.body.id);
  }
});
afterAll(async () => { await h?.stop(); });

const find = (query: object) => call(h, me, 'GET', `/api/v1/requests?${qs.stringify(query, { arrayFormat: 'indices' })}`);
const names = (res: { body: { data: { lastName: string }[] } }) => res.body.data.map((r) => r.lastName);

describe('GET /api/v1/requests query operators', () => {
  it('exact match, $sort, $limit and $skip, answering { total, limit, skip, data }', async () => {
    expect(names(await find({ lastName: 'Baker' }))).toEqual(['Baker']);
    const page = await find({ $sort: { lastName: 1 }, $limit: 2, $skip: 1 });
    expect(page.body).toMatchObject({ total: 3, limit: 2, skip: 1 });
    expect(names(page)).toEqual(['Baker', 'Bakersfield']);
  });

  it('$like, $gte and $lte', async () => {
    expect(names(await find({ lastName: { $like: 'Baker%' }, $sort: { lastName: 1 } }))).toEqual(['Baker', 'Bakersfield']);
    expect(names(await find({ dateFrom: { $gte: '2012-01-01T00:00:00.000Z', $lte: '2019-01-01T00:00:00.000Z' } }))).toEqual(['Baker']);
  });

  it('$or and $and', async () => {
    expect(names(await find({ $or: [{ lastName: 'Abbott' }, { lastName: 'Bakersfield' }], $sort: { lastName: -1 } }))).toEqual(['Bakersfield', 'Abbott']);
    expect(names(await find({ $and: [{ lastName: { $like: 'B%' } }, { dateFrom: { $lte: '2016-01-01T00:00:00.000Z' } }] }))).toEqual(['Baker']);
  });

  it('$select returns only the chosen fields (and the id)', async () => {
    const res = await find({ $select: ['lastName'], lastName: 'Abbott' });
    expect(res.body.data).toEqual([{ id: ids[0], lastName: 'Abbott' }]);
  });

  it('refuses unknown operators and fields with BadRequest', async () => {
    for (const query of [{ lastName: { $regex: '.*' } }, { passwordHash: 'x' }, { $sort: { nope: 1 } }]) {
      const res = await find(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.name).toBe('BadRequest');
    }
  });
});
