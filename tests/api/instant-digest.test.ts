/**
 * The office's daily digest of instant certificates, on the real worker, Temporal dev server, PostgreSQL and SMTP
 * sink: what the rules issued on the office day before goes to the office's mailbox in one email (each certificate
 * with its rule, version and time, and the count per rule); a day run twice, at once or later, sends once; a day
 * without an issue sends nothing; the worker's Schedule runs it every morning in the office's zone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, formatOfficeDateTime, instantDigestKey, officeDayAfter, officeDayStart, officeToday } from '../../domain';
import { ensureInstantDigestSchedule, INSTANT_DIGEST_HOUR } from '../../worker/instant-digest-schedule';
import type { InstantDigestResult } from '../../workflows/instant-digest-activities.types';
import { INSTANT_DIGEST_SCHEDULE_ID, INSTANT_DIGEST_WORKFLOW, type InstantDigestInput } from '../../workflows/instant-digest.messages';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let timeZone: string;
let yesterday: string;

const sql = (text: string, params: unknown[] = []) => h.orm.em.fork().getConnection().execute(text, params, 'all');
const hoursInto = (day: string, hours: number) => new Date(officeDayStart(day, timeZone).getTime() + hours * 3_600_000);

async function certificate(number: number, certificateType: string, holder: string, autoType: string | null = null): Promise<number> {
  const [{ id: requesterId }] = await sql(`select id from users order by id limit 1`);
  const [{ id }] = await sql(`insert into requests (created_at, updated_at, request_number, request_type, certificate_type, auto_type, status, source,
      submit_date, requester_id, employer_type, certificate_holder, version)
    values (now(), now(), ?, 'certificate', ?, ?, 'Approved', 'COI Portal', now(), ?, 'internal', ?, 1) returning id`,
  [number, certificateType, autoType, requesterId, holder]);
  return id;
}

async function rule(name: string, version: number): Promise<number> {
  const [{ id }] = await sql(`insert into instant_rules (name, kinds, conditions, version, enabled) values (?, '["Event"]', '{"combinator":"and","rules":[]}', ?, true) returning id`, [name, version]);
  return id;
}

async function decision(requestId: number, at: Date, outcome: 'issued' | 'stopped', r: { id: number; name: string; version: number }): Promise<void> {
  await sql(`insert into instant_decisions (request_id, key, decided_at, outcome, rule_id, rule_name, rule_version, stopped_by)
    values (?, ?, ?, ?, ?, ?, ?, ?)`, [requestId, `test:${requestId}:${at.getTime()}`, at, outcome, r.id, r.name, r.version, outcome === 'stopped' ? 'a condition' : null]);
}

const runDigest = (workflowId: string, input: InstantDigestInput) =>
  h.temporal.workflow.execute(INSTANT_DIGEST_WORKFLOW, { taskQueue: h.config.taskQueue, workflowId, args: [input] }) as Promise<InstantDigestResult>;
const digests = (day: string) => h.sink.messages().filter((m) => m.subject.startsWith(`Instant certificates issued on ${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`));

const issuedAt: Record<string, Date> = {};

beforeAll(async () => {
  h = await startHarness();
  timeZone = h.config.clockPolicy.calendar.timeZone;
  yesterday = addDays(officeToday(timeZone), -1);
  const events = { id: await rule('Events without patient care', 2), name: 'Events without patient care', version: 2 };
  const eventsV3 = { ...events, version: 3 }; // the same rule, saved again during the day
  const rentals = { id: await rule('Named-employee rentals', 1), name: 'Named-employee rentals', version: 1 };
  // Yesterday, office time: three issued by two rules (one of them under two versions), one stopped.
  issuedAt.a = hoursInto(yesterday, 9.25);
  issuedAt.b = hoursInto(yesterday, 13.5);
  issuedAt.c = new Date(officeDayAfter(yesterday, timeZone).getTime() - 60_000); // the last minute of the office's day
  await decision(await certificate(71001, 'Event', 'City Arena LLC'), issuedAt.a, 'issued', events);
  await decision(await certificate(71002, 'Auto Liability', 'Hertz Corporation', 'Rental'), issuedAt.b, 'issued', rentals);
  await decision(await certificate(71003, 'Event', 'Riverfront Hall'), issuedAt.c, 'issued', eventsV3);
  await decision(await certificate(71004, 'Event', 'Stopped Venue'), hoursInto(yesterday, 10), 'stopped', events);
  // Not yesterday: the office's midnights bound the day (issued at 00:00 today, and at 23:59 the day before).
  await decision(await certificate(71005, 'Event', 'Today Venue'), officeDayAfter(yesterday, timeZone), 'issued', events);
  await decision(await certificate(71006, 'Event', 'Earlier Venue'), new Date(officeDayStart(yesterday, timeZone).getTime() - 60_000), 'issued', events);
}, 120_000);
afterAll(async () => { await h?.stop(); });

describe('the daily digest of instant certificates', () => {
  it('sends the office one email for yesterday, however often the day runs', async () => {
    // Two starts of the same day at once (a schedule and a person, say), one of them naming no day: "yesterday".
    const [first, second] = await Promise.all([
      runDigest('test-instant-digest-a', {}),
      runDigest('test-instant-digest-b', { day: yesterday }),
    ]);
    expect([first.outcome, second.outcome].sort()).toEqual(['already sent', 'sent']);
    expect(first.day).toBe(yesterday);
    // Later again: already sent.
    expect(await runDigest('test-instant-digest-c', { day: yesterday })).toMatchObject({ day: yesterday, outcome: 'already sent' });

    const mail = await h.sink.waitFor((m) => digests(yesterday).includes(m));
    expect(digests(yesterday)).toHaveLength(1);
    expect(mail.to).toEqual([h.config.riskManagementEmail]);
    expect(mail.subject).toBe(`Instant certificates issued on ${yesterday.slice(5, 7)}/${yesterday.slice(8, 10)}/${yesterday.slice(0, 4)}: 3`);
    expect(mail.messageId).toBe(`<${instantDigestKey(yesterday).replace(':', '.')}@${h.config.reply.messageIdDomain}>`);
    const text = mail.text;
    expect(text).toContain([
      'Request 71001 - COI Request: Event', '  Holder: City Arena LLC', '  Rule: Events without patient care v2',
      `  Issued: ${formatOfficeDateTime(issuedAt.a, timeZone)}`,
    ].join('\n'));
    expect(text).toContain(['Request 71002 - COI Request: Rental', '  Holder: Hertz Corporation', '  Rule: Named-employee rentals v1',
      `  Issued: ${formatOfficeDateTime(issuedAt.b, timeZone)}`].join('\n'));
    expect(text).toContain(['Request 71003 - COI Request: Event', '  Holder: Riverfront Hall', '  Rule: Events without patient care v3',
      `  Issued: ${formatOfficeDateTime(issuedAt.c, timeZone)}`].join('\n'));
    // In issue order; nothing stopped, nothing of another day.
    expect(text.indexOf('71001')).toBeLessThan(text.indexOf('71002'));
    expect(text.indexOf('71002')).toBeLessThan(text.indexOf('71003'));
    for (const other of ['71004', '71005', '71006']) expect(text).not.toContain(other);
    expect(text).toContain('By rule:\n  Events without patient care (v2, v3): 2\n  Named-employee rentals (v1): 1\n');

    const [row] = await sql(`select day::text as day, issued, sent_to from instant_digests where key = ?`, [instantDigestKey(yesterday)]);
    expect(row).toEqual({ day: yesterday, issued: 3, sent_to: h.config.riskManagementEmail });
  });

  it('sends nothing for a day without an issue', async () => {
    const quiet = addDays(yesterday, -5);
    const before = h.sink.messages().length;
    expect(await runDigest('test-instant-digest-quiet', { day: quiet })).toEqual({ day: quiet, outcome: 'none', issued: 0 });
    expect(h.sink.messages().length).toBe(before);
    expect(await sql(`select 1 from instant_digests where key = ?`, [instantDigestKey(quiet)])).toEqual([]);
  });

  it('is scheduled by the worker every morning in the office\'s zone', async () => {
    const schedule = h.temporal.schedule.getHandle(INSTANT_DIGEST_SCHEDULE_ID);
    try {
      await ensureInstantDigestSchedule(h.temporal, h.config.taskQueue, timeZone); // what worker/worker.ts does at start
      await ensureInstantDigestSchedule(h.temporal, h.config.taskQueue, timeZone); // and at its next start
      const described = await schedule.describe();
      expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: INSTANT_DIGEST_WORKFLOW });
      expect(described.spec.timezone).toBe(timeZone);
      expect(described.spec.calendars?.[0]).toMatchObject({ hour: [{ start: INSTANT_DIGEST_HOUR, end: INSTANT_DIGEST_HOUR, step: 1 }] });
      const next = described.info.nextActionTimes[0];
      expect(formatOfficeDateTime(next, timeZone)).toMatch(new RegExp(` ${INSTANT_DIGEST_HOUR}:00 AM$`));
    } finally {
      await schedule.delete().catch(() => {});
    }
  });
});
