/** Feathers-style query strings on /requests (spec 2 §7.1), parsed as the original client serialized them. */
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createExternalUser, login, loginAdmin, type Session } from '../support/api-helpers';
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
    for (const query of [{ lastName: { $regex: '.*' } }, { passwordHash: 'x' }, { $sort: { nope: 1 } }, { lastCommandId: 'x' }]) {
      const res = await find(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.name).toBe('BadRequest');
    }
  });

  it('converts values to the field type: integers, booleans, dates, null and $in', async () => {
    expect(names(await find({ id: ids[1] }))).toEqual(['Baker']);
    expect(names(await find({ id: { $in: [ids[0], ids[2]] }, $sort: { id: 1 } }))).toEqual(['Abbott', 'Bakersfield']);
    expect((await find({ verified: 'false' })).body.total).toBe(3);
    expect((await find({ verified: 'true' })).body.total).toBe(0);
    expect((await find({ submitDate: 'null' })).body.total).toBe(3);
    expect(names(await find({ dateFrom: { $gt: '2019-12-31' } }))).toEqual(['Bakersfield']);
  });
});

describe('query values are checked per field type (400 BadRequest, never 500)', () => {
  const refused: Array<[string, string]> = [
    ['$like on an integer field', 'id[$like]=1%'],
    ['$like on a date field', 'dateFrom[$like]=2020%'],
    ['$like on a boolean field', 'verified[$like]=t%'],
    ['a non-integer id', 'id=abc'],
    ['a decimal id', 'id=1.5'],
    ['a non-integer in $in', 'id[$in][0]=1&id[$in][1]=x'],
    ['$in that is not a list', 'id[$in]=1'],
    ['a comparison with a non-integer', 'requestNumber[$gte]=soon'],
    ['a date that is not a date', 'dateFrom[$gte]=yesterday'],
    ['an impossible date', 'dateFrom[$lte]=2024-13-45'],
    ['a bare number as a date', 'dateFrom=1'],
    ['a boolean that is not true or false', 'verified=maybe'],
    ['a range on a boolean', 'verified[$gt]=false'],
    ['a comparison with null', 'requestNumber[$lt]=null'],
    ['several values for one field', 'lastName[0]=a&lastName[1]=b'],
    ['an object as a $like pattern', 'lastName[$like][x]=1'],
    ['a negative $limit', '$limit=-1'],
    ['a text $limit', '$limit=ten'],
    ['a decimal $skip', '$skip=1.5'],
    ['a list as $limit', '$limit[0]=1'],
    ['a $sort direction other than 1 or -1', '$sort[lastName]=up'],
    ['$sort that is not an object', '$sort=lastName'],
    ['an unknown $select field', '$select[0]=lastCommandId'],
    ['$or that is not a list of queries', '$or=abc'],
    ['$or of values instead of queries', '$or[0]=abc'],
    ['a wrongly typed value inside $or', '$or[0][id][$like]=1%'],
    ['an unknown top-level operator', '$populate=requester'],
  ];

  it.each(refused)('refuses %s', async (_label, query) => {
    const res = await call(h, me, 'GET', `/api/v1/requests?${query}`);
    expect(res.status, query).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['className', 'code', 'data', 'errors', 'message', 'name']);
    expect(res.body).toMatchObject({ name: 'BadRequest', code: 400, className: 'bad-request' });
  });

  it('names the offending field in errors', async () => {
    const res = await call(h, me, 'GET', '/api/v1/requests?id[$like]=1%25');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ id: '$like applies to text fields only, not id' });
  });

  it('checks the documents and audit-trail queries the same way', async () => {
    const admin = await loginAdmin(h);
    for (const url of [
      `/api/v1/documents?requestId=abc`,
      `/api/v1/documents?requestId=${ids[0]}&size[$like]=1%25`,
      `/api/v1/documents?requestId=${ids[0]}&$limit=-5`,
    ]) {
      const res = await call(h, me, 'GET', url);
      expect(res.status, url).toBe(400);
      expect(res.body.name).toBe('BadRequest');
    }
    for (const url of ['/api/v1/request-activity?requestId=abc', '/api/v1/request-activity?date[$like]=2024%25', '/api/v1/request-activity?idempotencyKey=x']) {
      const res = await call(h, admin, 'GET', url);
      expect(res.status, url).toBe(400);
      expect(res.body.name).toBe('BadRequest');
    }
    expect((await call(h, admin, 'GET', `/api/v1/request-activity?requestId=${ids[0]}&$sort[date]=-1`)).status).toBe(200);
  });
});
