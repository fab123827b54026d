/**
 * Business time in PostgreSQL, as domain/business-calendar.ts counts it (office hours on work days that are not
 * holidays, in the office's zone): the clocks' calendar is the table `office_calendar_days` (one row per day with the
 * office seconds before it, built by `office_calendar_refresh`, db/sql-functions.ts), so the business time between
 * two instants is two key lookups and a subtraction. The reports (reports.ts) measure with these fragments;
 * tests/api/sql-rules.test.ts holds them against domain businessMsBetween over random instants.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type RawBuilder } from 'kysely';
import { officeDayMs, type BusinessCalendar } from '../../domain';
import { kysely } from '../../db/kysely';

type Sql = RawBuilder<unknown>;
const expr = (text: string) => sql.raw(text);

/**
 * Makes `office_calendar_days` the calendar of this configuration: rebuilt in PostgreSQL only when the configuration
 * it was built from differs (one cheap call otherwise).
 */
export async function ensureOfficeCalendar(em: EntityManager, calendar: BusinessCalendar): Promise<void> {
  const signature = JSON.stringify([calendar.timeZone, calendar.officeHours, [...calendar.workDays].sort(), [...calendar.holidays].sort()]);
  await sql`select "office_calendar_refresh"(${signature}, ${calendar.timeZone}, string_to_array(${calendar.workDays.join(',')}, ',')::int[],
    string_to_array(${calendar.holidays.join(',')}, ',')::date[], ${calendar.officeHours.start}::time, ${calendar.officeHours.end}::time) as "rebuilt"`
    .execute(kysely(em));
}

/**
 * Business seconds from the calendar's first day to `instant` (a timestamptz), with `c` the `office_calendar_days`
 * row of the instant's office day: the office seconds before that day plus the part of its office hours gone.
 */
const clockSql = (c: 'c1' | 'c2', instant: Sql): Sql => {
  const col = (name: string) => expr(`${c}."${name}"`);
  return sql`(${col('before')} + case when ${col('business')} then extract(epoch from least(greatest(${instant}, ${col('open_at')}), ${col('close_at')}) - ${col('open_at')}) else 0 end)`;
};

/** `join office_calendar_days <c>` on the office day of `instant` (the zone a literal, as the day index reads it). */
export const calendarJoin = (calendar: BusinessCalendar, c: 'c1' | 'c2', instant: Sql): Sql =>
  sql` join "office_calendar_days" ${expr(c)} on ${expr(`${c}."day"`)} = (${instant} at time zone ${sql.lit(calendar.timeZone)})::date`;

/** Business days between two instants (the second later), their calendar rows joined as `c1` and `c2` (calendarJoin). */
export const businessDaysSql = (calendar: BusinessCalendar, from: Sql, to: Sql): Sql =>
  sql`((${clockSql('c2', to)} - ${clockSql('c1', from)}) / ${sql.lit(officeDayMs(calendar) / 1000)}::float8)`;
