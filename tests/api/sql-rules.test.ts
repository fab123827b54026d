/**
 * The rules PostgreSQL holds beside domain/, held against domain/ over random inputs on the real database (migrated
 * to the end, as every database is once the migrations have run):
 * - `report_kind_of` (db/sql-functions.ts) names a request's kind as domain requestTypeLabelOf does;
 * - the reports' roll-up calls a request finished exactly when its last status is one of domain FINISHED_STATUSES;
 * - the office calendar (`office_calendar_days` after `office_calendar_refresh`, and the business time the reports
 *   compute from it: services/desk/office-calendar.ts) counts office hours as domain/business-calendar.ts does, across
 *   time zones, daylight saving changes, holidays and weekends.
 * The inputs come from a seeded generator; the seed is in every failure message, and SQL_RULES_SEED=<seed> runs the
 * same inputs again.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kysely } from '../../db/kysely';
import { createOrm, type Orm } from '../../db/orm';
import {
  addDays, ALL_STATUSES, AUTO_TYPES, businessMsBetween, CERTIFICATE_TYPES, FINISHED_STATUSES, isBusinessDay, officeDayMs,
  requestTypeLabelOf, STATUS, STATUS_CHANGE_ACTIVITY, SUBMISSION_ACTIVITY, zonedDay, zonedInstant, type BusinessCalendar, type RequestStatus,
} from '../../domain';
import { sqlFunctionsBehind } from '../../db/sql-function-definitions';
import { templateLiteral } from '../../scripts/create-sql-functions-migration';
import { businessDaysSql, calendarJoin, ensureOfficeCalendar } from '../../services/desk/office-calendar';
import { fileDatabaseUrl } from '../support/file-database';
import { seededRandom } from '../support/seeded-random';

const SEED = Number(process.env.SQL_RULES_SEED ?? Math.floor(Math.random() * 2 ** 31));


let orm: Orm;
const em = () => orm.em.fork();

beforeAll(async () => {
  orm = await createOrm(fileDatabaseUrl(), { poolMax: 2 });
});
afterAll(async () => {
  await orm?.close();
});

describe('the SQL functions of db/sql-functions.ts', () => {
  it('are what the migrations leave in a database: a change of their text (or of the domain/ rules in it) ships in a migration', async () => {
    const behind = await sqlFunctionsBehind(kysely(em()));
    expect(behind.map((b) => b.fn.name), 'write the migration with `npm run migration:sql-functions -- <name>`').toEqual([]);
  });

  it('are written into a migration as they are (quotes, backslashes, dollars and backticks kept)', () => {
    for (const text of ["select '\\d+' ~ $1, `x`, ${y} $$ $fn$", 'a\\`b\\${c}\n\td']) {
      expect(new Function(`return ${templateLiteral(text)};`)()).toBe(text);
    }
  });
});

describe(`SQL rules held against domain/ (SQL_RULES_SEED=${SEED})`, () => {
  it('report_kind_of names every kind of request as requestTypeLabelOf does', async () => {
    const random = seededRandom(SEED);
    const types = ['credentialing', 'certificate', 'certificate', 'certificate', 'a type of a later version'];
    const certificates = [...CERTIFICATE_TYPES, 'Auto Liability', 'Auto Liability', null, '', 'Aircraft'];
    const autos = [...AUTO_TYPES, 'Rental', null, '', 'Boat'];
    const cases = Array.from({ length: 400 }, () => ({ requestType: random.pick(types), certificateType: random.pick(certificates), autoType: random.pick(autos) }));
    const { rows } = await sql<{ kind: string | null }>`
      select "report_kind_of"(x.t, x.c, x.a) as "kind"
      from unnest(${cases.map((c) => c.requestType)}::text[], ${cases.map((c) => c.certificateType)}::text[], ${cases.map((c) => c.autoType)}::text[])
        with ordinality as x(t, c, a, n)
      order by x.n`.execute(kysely(em()));
    const differing = cases.map((c, i) => ({ ...c, sql: rows[i].kind, domain: requestTypeLabelOf(c) })).filter((c) => c.sql !== c.domain);
    expect(differing, `seed ${SEED}`).toEqual([]);
  });

  it('the reports call a request finished exactly when the status its history ends in is a finished one', async () => {
    const random = seededRandom(SEED + 1);
    const { rows: [requester] } = await sql<{ id: number }>`select id from users order by id limit 1`.execute(kysely(em()));
    const requests = Array.from({ length: 150 }, (_, i) => {
      const requestType = random.pick(['credentialing', 'certificate'] as const);
      const certificateType = requestType === 'certificate' ? random.pick(CERTIFICATE_TYPES) : null;
      const autoType = certificateType === 'Auto Liability' ? random.pick([...AUTO_TYPES, null]) : null;
      // A submission, then up to four changes to any status (a reopening, a resubmission, a decision …).
      const start = Date.UTC(2026, 0, 5) + random.int(0, 300) * 86_400_000 + random.int(0, 86_399) * 1000;
      const statuses: RequestStatus[] = [STATUS.submitted, ...Array.from({ length: random.int(0, 4) }, () => random.pick(ALL_STATUSES))];
      let at = start;
      const history = statuses.map((status, j) => {
        if (j > 0) at += random.int(1, 200) * 3_600_000;
        return { status, at: new Date(at) };
      });
      return { number: 990_000 + i, requestType, certificateType, autoType, history };
    });
    const { rows: ids } = await sql<{ id: number; request_number: number }>`
      insert into requests (created_at, updated_at, request_number, request_type, certificate_type, auto_type, status, source, submit_date,
        requester_id, employer_type, version)
      select now(), now(), x.n, x.t, x.c, x.a, x.s, 'external', x.submitted, ${requester.id}, 'external', 1
      from unnest(${requests.map((r) => r.number)}::int[], ${requests.map((r) => r.requestType)}::text[], ${requests.map((r) => r.certificateType)}::text[],
        ${requests.map((r) => r.autoType)}::text[], ${requests.map((r) => r.history.at(-1)!.status)}::text[],
        ${requests.map((r) => r.history[0].at)}::timestamptz[]) as x(n, t, c, a, s, submitted)
      returning id, request_number`.execute(kysely(em()));
    const idOf = new Map(ids.map((r) => [r.request_number, r.id]));
    // The audit rows as the status activity writes them, all in one statement (one run of the roll-up's trigger).
    const rows = requests.flatMap((r) => r.history.map((h, j) => ({
      requestId: idOf.get(r.number)!, at: h.at, type: j === 0 ? SUBMISSION_ACTIVITY : STATUS_CHANGE_ACTIVITY,
      from: j === 0 ? STATUS.draft : r.history[j - 1].status, to: h.status,
    })));
    await sql`
      insert into request_activity (created_at, updated_at, request_id, date, activity_type, activity_text, status_from, status_to, performed_by)
      select now(), now(), x.r, x.d, x.t, 'Status changed from "' || x.f || '" to "' || x.s || '"', x.f, x.s, 'SQL rules test'
      from unnest(${rows.map((r) => r.requestId)}::int[], ${rows.map((r) => r.at)}::timestamptz[], ${rows.map((r) => r.type)}::text[],
        ${rows.map((r) => r.from)}::text[], ${rows.map((r) => r.to)}::text[]) as x(r, d, t, f, s)`.execute(kysely(em()));
    const { rows: facts } = await sql<{ request_id: number; kind: string; last_status: string; finished_at: Date | null }>`
      select request_id, kind, last_status, finished_at from request_report_facts where request_id = any(${ids.map((r) => r.id)}::int[])`.execute(kysely(em()));
    const factOf = new Map(facts.map((f) => [f.request_id, f]));
    const differing = requests.flatMap((r) => {
      const last = r.history.at(-1)!;
      const expected = { kind: requestTypeLabelOf(r), lastStatus: last.status, finishedAt: FINISHED_STATUSES.includes(last.status) ? last.at.toISOString() : null };
      const fact = factOf.get(idOf.get(r.number)!);
      const actual = { kind: fact?.kind, lastStatus: fact?.last_status, finishedAt: fact?.finished_at ? new Date(fact.finished_at).toISOString() : null };
      return JSON.stringify(actual) === JSON.stringify(expected) ? [] : [{ statuses: r.history.map((h) => h.status), expected, actual }];
    });
    expect(differing, `seed ${SEED}`).toEqual([]);
    // Every status was the last one of some request (so each was judged finished or not).
    expect(new Set(requests.map((r) => r.history.at(-1)!.status)).size, `seed ${SEED}`).toBe(ALL_STATUSES.length);
  });

  it('the office calendar and the business time of the reports count office hours as domain/business-calendar.ts does', async () => {
    const random = seededRandom(SEED + 2);
    // Zones with daylight saving changes on both hemispheres, half-hour and 45-minute offsets, a 30-minute change
    // (Lord Howe), one that gave up daylight saving (São Paulo, 2019), none at all. Their changes fall between 00:00
    // and 03:00, so office hours from 06:00 on are whole on every day (as the clocks' configuration expects).
    const zones = [
      'America/Los_Angeles', 'America/New_York', 'America/Phoenix', 'Pacific/Honolulu', 'Europe/London', 'Europe/Berlin',
      'Australia/Sydney', 'Australia/Lord_Howe', 'Pacific/Auckland', 'Asia/Kolkata', 'Asia/Kathmandu', 'America/Sao_Paulo', 'UTC',
    ];
    const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    const day = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    // Days: any, or in the months daylight saving changes (March, April, September, October, November).
    const randomDay = () => (random.next() < 0.5
      ? day(random.int(2001, 2057), random.int(1, 12), random.int(1, 28))
      : day(random.int(2001, 2057), random.pick([3, 4, 9, 10, 11]), random.int(1, 28)));
    let compared = 0;
    for (let c = 0; c < 8; c++) {
      const open = random.int(6 * 4, 10 * 4) * 15;
      const workDays = random.next() < 0.5 ? [1, 2, 3, 4, 5] : [1, 2, 3, 4, 5, 6, 7].filter(() => random.next() < 0.7);
      if (!workDays.length) workDays.push(random.int(1, 7));
      const calendar: BusinessCalendar = {
        timeZone: random.pick(zones),
        officeHours: { start: hhmm(open), end: hhmm(Math.min(open + random.int(4 * 4, 11 * 4) * 15, 21 * 60)) },
        workDays,
        holidays: [],
      };
      // Instants: anywhere in a day, or on the minute of opening or closing; the second one a few minutes to two years on.
      const pairs = Array.from({ length: 45 }, () => {
        const d = randomDay();
        const from = random.next() < 0.2
          ? zonedInstant(d, random.pick([calendar.officeHours.start, calendar.officeHours.end]), calendar.timeZone)
          : zonedInstant(d, '00:00', calendar.timeZone) + random.int(0, 86_399) * 1000;
        const span = random.pick([60_000, 3_600_000, 86_400_000, 7 * 86_400_000, 60 * 86_400_000, 730 * 86_400_000]);
        return { from, to: from + Math.floor(random.next() * span) };
      });
      // Holidays on some of the days the pairs touch (work days or not), so they are counted out where it matters.
      calendar.holidays = [...new Set(pairs.flatMap((p) => [zonedDay(p.from, calendar.timeZone), addDays(zonedDay(p.from, calendar.timeZone), 1)])
        .filter(() => random.next() < 0.3))].sort();
      const label = `seed ${SEED}, calendar ${JSON.stringify(calendar)}`;
      await ensureOfficeCalendar(em(), calendar);

      const days = [...new Set(pairs.flatMap((p) => [zonedDay(p.from, calendar.timeZone), zonedDay(p.to, calendar.timeZone)]))];
      const { rows: calendarDays } = await sql<{ day: string; business: boolean; open_at: Date; close_at: Date }>`
        select to_char(day, 'YYYY-MM-DD') as day, business, open_at, close_at from office_calendar_days
        where day = any(${days}::date[]) order by day`.execute(kysely(em()));
      expect(calendarDays.map((r) => r.day), label).toEqual([...days].sort());
      const wrongDays = calendarDays.map((r) => ({
        day: r.day, sql: [r.business, new Date(r.open_at).toISOString(), new Date(r.close_at).toISOString()],
        domain: [isBusinessDay(calendar, r.day), new Date(zonedInstant(r.day, calendar.officeHours.start, calendar.timeZone)).toISOString(),
          new Date(zonedInstant(r.day, calendar.officeHours.end, calendar.timeZone)).toISOString()],
      })).filter((r) => JSON.stringify(r.sql) !== JSON.stringify(r.domain));
      expect(wrongDays, label).toEqual([]);

      const t1 = sql.raw('x.t1');
      const t2 = sql.raw('x.t2');
      const { rows: measured } = await sql<{ days: number }>`
        select ${businessDaysSql(calendar, t1, t2)} as "days"
        from unnest(${pairs.map((p) => new Date(p.from))}::timestamptz[], ${pairs.map((p) => new Date(p.to))}::timestamptz[]) with ordinality as x(t1, t2, n)
        ${calendarJoin(calendar, 'c1', t1)}${calendarJoin(calendar, 'c2', t2)}
        order by x.n`.execute(kysely(em()));
      expect(measured, label).toHaveLength(pairs.length);
      const wrongTimes = pairs.map((p, i) => ({
        from: new Date(p.from).toISOString(), to: new Date(p.to).toISOString(),
        sql: Number(measured[i].days), domain: businessMsBetween(calendar, p.from, p.to) / officeDayMs(calendar),
      })).filter((r) => Math.abs(r.sql - r.domain) > 1e-9 * Math.max(1, Math.abs(r.domain)));
      expect(wrongTimes, label).toEqual([]);
      compared += pairs.length;
    }
    expect(compared).toBe(8 * 45);
  });
});
