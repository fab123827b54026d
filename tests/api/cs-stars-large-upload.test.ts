/**
 * A large CS-STARS export through the upload route, sent as a stream (the file is generated as it is sent, never
 * built whole): every claim loaded, the re-upload changes nothing, and a bad line near the end, which the checker
 * reaches long after PostgreSQL has copied the start of the file, still refuses the whole file. The memory the API
 * uses for 100,000 rows is measured by `npm run bench:cs-stars-upload`.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimLines } from '../../bench/generate-cs-stars';
import { loginAdmin, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

const ROWS = 20_000;

let h: Harness;
let admin: Session;
beforeAll(async () => {
  h = await startHarness({ worker: false });
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

const claims = async () => Number((await h.orm.em.fork().getConnection().execute('select count(*) as n from claims_data', [], 'all'))[0].n);

/** The export of `rows` claims as a multipart body produced line by line; `edit` may change a line (1 = header). */
function streamedUpload(rows: number, edit: (line: string, number: number) => string = (line) => line) {
  const boundary = `----large${Math.random().toString(16).slice(2)}`;
  function* body(): Generator<Buffer> {
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="limit"\r\n\r\n10\r\n`
      + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="claims.csv"\r\nContent-Type: text/csv\r\n\r\n`);
    let number = 0;
    let batch: string[] = [];
    for (const line of claimLines(rows, 7)) {
      number += 1;
      batch.push(`${edit(line, number)}\n`);
      if (batch.length === 500) { yield Buffer.from(batch.join('')); batch = []; }
    }
    yield Buffer.from(`${batch.join('')}\r\n--${boundary}--\r\n`);
  }
  return h.app.inject({
    method: 'POST', url: '/api/v1/cs-stars', payload: Readable.from(body(), { objectMode: false }),
    headers: { authorization: `Bearer ${admin.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

describe('a large CS-STARS export', () => {
  it(`loads ${ROWS.toLocaleString('en-US')} claims sent as a stream, and the same export again changes nothing`, async () => {
    const before = await claims();
    const first = await streamedUpload(ROWS);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ rows: ROWS, inserted: ROWS, updated: 0, unchanged: 0, total: before + ROWS });
    expect(await claims()).toBe(before + ROWS);
    const again = await streamedUpload(ROWS);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ rows: ROWS, inserted: 0, updated: 0, unchanged: ROWS });
    expect(await claims()).toBe(before + ROWS);
  });

  it('refuses the whole file for one bad line near its end, keeping nothing of it', async () => {
    const before = await claims();
    const badLine = ROWS - 5;
    // A fresh export (other claim numbers would be new claims) with one report date that is no date.
    const refused = await streamedUpload(ROWS, (line, number) => (number === badLine ? line.replace(/,(\d\d\/\d\d\/\d{4}),(\d+\.\d\d),/, ',13/45/2020,$2,') : line.replace(/,CS-(\d{4})-/, ',CX-$1-')));
    expect(refused.statusCode).toBe(400);
    const body = refused.json();
    expect(body.data.badLines).toBe(1);
    expect(body.data.lines).toEqual([{ line: badLine, reasons: expect.arrayContaining(['reportDate "13/45/2020" is not a date (mm/dd/yyyy)']) }]);
    expect(await claims()).toBe(before);
  });
});
