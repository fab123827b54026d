/**
 * The request-flow bench's instant scenario (`npm run bench -- --instant N`): an office rule issues Event certificates
 * without patient care, the office's switch is on, and an employee submits N complete Event drafts one after another
 * (concurrency 1). Times the submit call and submit → the approval email with its certificate PDF in the SMTP sink,
 * and, from each request's workflow history, the rule's decision (the `decideInstant` activity, scheduled → completed:
 * what evaluating the rules adds before the approval). The decision runs after the submit has answered, so the submit
 * call is compared with the Temporal floor at concurrency 1 as the bench compares the others.
 *
 *   targets: submit → certificate email p95 ≤ 5 s; submit call p95 ≤ 1.5× update-with-start's; decision p95 ≤ 10 ms
 */
import { performance } from 'node:perf_hooks';
import type { Client } from '@temporalio/client';
import { addDays, officeToday } from '../domain';
import { requestWorkflowId } from '../workflows/request.messages';
import type { MailSinkProcess, MailSummary } from './mail-sink-process';

interface BenchApi {
  call(token: string | null, method: string, url: string, body?: unknown, expect?: number[]): Promise<any>;
}

interface Summary { n: number; p50: number; p95: number; max: number }

export interface InstantScenarioResult {
  /** request numbers of the warm-up and the measured requests: each must get one confirmation and one approval */
  warmupNumbers: number[];
  numbers: number[];
  samplesMs: { submitCall: number[]; submitToCertificate: number[]; decision: number[]; decisionActivity: number[] };
}

/** The rule the scenario enables: Event certificates without patient care, no daily cap the run could reach. */
export const INSTANT_BENCH_RULE = {
  name: 'Bench: events without patient care', kinds: ['Event'], checkEvery: 0, dailyCap: 10_000,
  conditions: { combinator: 'and', rules: [{ field: 'eventPatientCare', operator: '=', value: 'No' }] },
};

const iso = (day: string) => `${day}T11:00:00.000Z`;

/** A complete Event draft the rule covers (no patient care), a month ahead, with the document an Event needs. */
async function eventDraft(api: BenchApi, token: string, i: number, timeZone: string, pdf: Buffer): Promise<number> {
  const day = addDays(officeToday(timeZone), 30);
  const created = await api.call(token, 'POST', '/requests', {
    requestType: 'certificate', certificateType: 'Event', certificateHolder: 'City of Portland Parks', certificateHolderAddress: '1 Main St, Portland, OR 97201',
    lastName: 'Diaz', firstName: `Rosa${i}`, eventName: `Bench fair ${i}`, eventType: 'Community Service', eventLocation: 'Pioneer Square',
    eventDescription: 'Information tables', eventStartDate: iso(day), eventEndDate: iso(day), eventPatientCare: 'No', isProviderEmployRelated: 'Yes',
  }, [201]);
  const id = created.id as number;
  const form = new FormData();
  form.append('requestId', String(id));
  form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'contract.pdf');
  const uploaded = await api.call(token, 'POST', '/upload', form, [201]);
  await api.call(token, 'POST', '/documents', { requestId: id, filename: 'Contract.pdf', description: 'Supporting document', storedName: uploaded.storedName }, [201]);
  return id;
}

const APPROVAL = /^Request (\d+) approved:/;
const hasPdf = (m: MailSummary) => m.attachments.some((a) => a.contentType === 'application/pdf' && Buffer.from(a.content.subarray(0, 5)).toString('latin1') === '%PDF-');

/** When each approval email with a PDF arrived (performance.now()), by request number: subscribed before the first submit. */
function certificateArrivals(sink: MailSinkProcess) {
  const arrived = new Map<number, number>();
  const waiters = new Map<number, (at: number) => void>();
  const unsubscribe = sink.subscribe((message) => {
    const m = APPROVAL.exec(message.subject);
    if (!m || !hasPdf(message) || arrived.has(Number(m[1]))) return;
    const at = performance.now();
    arrived.set(Number(m[1]), at);
    waiters.get(Number(m[1]))?.(at);
  });
  return {
    close: unsubscribe,
    of(number: number, timeoutMs: number): Promise<number> {
      const known = arrived.get(number);
      if (known !== undefined) return Promise.resolve(known);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => { waiters.delete(number); reject(new Error(`instant request ${number}: no certificate email within ${timeoutMs / 1000} s`)); }, timeoutMs);
        waiters.set(number, (at) => { clearTimeout(timer); waiters.delete(number); resolve(at); });
      });
    },
  };
}

type Timestamp = { seconds?: number | { toNumber(): number } | null; nanos?: number | null } | null | undefined;
const msOf = (t: Timestamp) => {
  const s = t?.seconds;
  return (typeof s === 'object' && s !== null ? s.toNumber() : Number(s ?? 0)) * 1000 + (t?.nanos ?? 0) / 1e6;
};

/**
 * The rule's decision in the request's history: `decideInstant` scheduled → completed (all it adds before the
 * approval, the activity task's dispatch included) and started → completed (the activity itself), ms.
 */
async function decisionMs(temporal: Client, number: number): Promise<{ total: number; activity: number } | null> {
  const events = (await temporal.workflow.getHandle(requestWorkflowId(number)).fetchHistory()).events ?? [];
  const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'decideInstant');
  if (!scheduled) return null;
  const of = (e: { scheduledEventId?: unknown } | null | undefined) => Number(e?.scheduledEventId ?? -1) === Number(scheduled.eventId);
  const started = events.find((e) => of(e.activityTaskStartedEventAttributes));
  const completed = events.find((e) => of(e.activityTaskCompletedEventAttributes));
  if (!started || !completed) return null;
  const at = (e: typeof scheduled) => msOf(e.eventTime as Timestamp);
  return { total: at(completed) - at(scheduled), activity: at(completed) - at(started) };
}

export async function runInstantScenario(options: {
  api: BenchApi; adminToken: string; requesterToken: string; sink: MailSinkProcess; temporal: Client; timeZone: string;
  count: number; warmup: number; pdf: Buffer; log: (line: string) => void; stallMs: number;
}): Promise<InstantScenarioResult> {
  const { api, log } = options;
  const rule = await api.call(options.adminToken, 'POST', '/instant-rules', INSTANT_BENCH_RULE, [201]);
  await api.call(options.adminToken, 'PUT', `/instant-rules/${rule.id}/enabled`, { enabled: true }, [200]);
  await api.call(options.adminToken, 'PUT', '/instant-settings', { enabled: true }, [200]);
  const total = options.warmup + options.count;
  const ids: number[] = [];
  for (let i = 0; i < total; i++) ids.push(await eventDraft(api, options.requesterToken, i, options.timeZone, options.pdf));
  log(`instant: rule ${rule.id} on, office switch on, ${total} Event drafts without patient care (untimed)`);

  const arrivals = certificateArrivals(options.sink);
  try {
    return await submitEach(options, ids, arrivals);
  } finally {
    arrivals.close();
  }
}

async function submitEach(
  options: Parameters<typeof runInstantScenario>[0], ids: number[], arrivals: ReturnType<typeof certificateArrivals>,
): Promise<InstantScenarioResult> {
  const { api } = options;
  const submitCall: number[] = [];
  const submitToCertificate: number[] = [];
  const warmupNumbers: number[] = [];
  const numbers: number[] = [];
  for (const [index, id] of ids.entries()) {
    const counted = index >= options.warmup;
    const t0 = performance.now();
    const body = await api.call(options.requesterToken, 'PATCH', `/requests/${id}`, { status: 'Submitted' }, [200]);
    const answered = performance.now();
    const number = body.requestNumber as number;
    if (body.status !== 'Submitted' || !number) throw new Error(`instant submit ${id}: unexpected answer ${JSON.stringify(body).slice(0, 300)}`);
    const arrived = await arrivals.of(number, options.stallMs);
    (counted ? numbers : warmupNumbers).push(number);
    if (!counted) continue;
    submitCall.push(answered - t0);
    submitToCertificate.push(arrived - t0);
  }
  const decision: number[] = [];
  const decisionActivity: number[] = [];
  for (const number of numbers) {
    const ms = await decisionMs(options.temporal, number);
    if (ms === null) throw new Error(`instant request ${number}: no completed decideInstant activity in its history`);
    decision.push(ms.total);
    decisionActivity.push(ms.activity);
  }
  return { warmupNumbers, numbers, samplesMs: { submitCall, submitToCertificate, decision, decisionActivity } };
}

/** The scenario's lines of the report, with its three targets (printed, as the bench's others: the run's exit code says only whether every email came once). */
export function printInstant(result: InstantScenarioResult, summarize: (samples: number[]) => Summary, floorUpdateWithStartP95: number | null,
  print: (line: string) => void): Array<{ target: string; ours: number; limit: string; met: boolean }> {
  const s = {
    call: summarize(result.samplesMs.submitCall), toEmail: summarize(result.samplesMs.submitToCertificate),
    decision: summarize(result.samplesMs.decision), activity: summarize(result.samplesMs.decisionActivity),
  };
  const row = (name: string, x: Summary) => `  ${name.padEnd(52)} n ${String(x.n).padStart(3)}  p50 ${x.p50.toFixed(1).padStart(7)}  p95 ${x.p95.toFixed(1).padStart(7)}  max ${x.max.toFixed(1).padStart(7)} ms`;
  print(`Instant scenario: ${result.numbers.length} Event certificates issued by a rule, concurrency 1 (warm-up ${result.warmupNumbers.length}, not counted):`);
  print(row('submit call (PATCH Submitted)', s.call));
  print(row('submit → certificate email with PDF received', s.toEmail));
  print(row('rule decision (decideInstant, scheduled → done)', s.decision));
  print(row('  of it the activity itself (started → done)', s.activity));
  const targets = [
    { target: 'instant: submit → certificate email p95 (ms)', ours: s.toEmail.p95, limit: '≤ 5000', met: s.toEmail.p95 <= 5000 },
    ...(floorUpdateWithStartP95 === null ? [] : [{
      target: `instant: submit call p95 (ms) vs update-with-start p95 ${floorUpdateWithStartP95} (ratio ${(s.call.p95 / floorUpdateWithStartP95).toFixed(2)})`,
      ours: s.call.p95, limit: '≤ 1.5× floor', met: s.call.p95 <= 1.5 * floorUpdateWithStartP95,
    }]),
    { target: 'instant: rule decision p95 (ms)', ours: s.decision.p95, limit: '≤ 10', met: s.decision.p95 <= 10 },
  ];
  for (const t of targets) print(`  ${t.met ? 'met ' : 'NO  '} ${t.target}: ${t.ours} (${t.limit})`);
  return targets;
}
