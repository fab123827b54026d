/**
 * The worker's half of the command id (the API's half is temporal/command-context.ts): the activity
 * interceptor puts the `reqId` the workflow handed on in the activity's log lines, and the worker writes its lines as
 * JSON in the shape of the API's (pino): one object a line, `level`, `time`, `msg`, then the fields.
 */
import { DefaultLogger, type ActivityInterceptorsFactory, type LogEntry, type LogLevel } from '@temporalio/worker';
import { REQ_ID, reqIdOf } from '../workflows/log-header';

/**
 * Puts the command's `reqId` in the activity's log lines (the SDK's "Activity completed", "Activity failed" and our
 * code's), and writes one INFO line per finished activity, so a command's path reads at the production level.
 */
export const reqIdActivityInterceptor: ActivityInterceptorsFactory = (ctx) => {
  let reqId: string | undefined;
  return {
    inbound: {
      async execute(input, next) {
        reqId = reqIdOf(input.headers);
        const started = performance.now();
        const result = await next(input);
        ctx.log.info('activity finished', { durationMs: Math.round(performance.now() - started), attempt: ctx.info.attempt });
        return result;
      },
    },
    outbound: {
      getLogAttributes: (attributes, next) => next(reqId ? { ...attributes, [REQ_ID]: reqId } : attributes),
    },
  };
};

/** pino's numbers, so one query (`level >= 40`) reads the API's and the worker's lines alike. */
const PINO_LEVEL: Record<LogLevel, number> = { TRACE: 10, DEBUG: 20, INFO: 30, WARN: 40, ERROR: 50 };

const jsonSafe = (_key: string, value: unknown) => {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return { type: value.name, message: value.message, stack: value.stack };
  return value;
};

/** The SDK's attributes no reader needs: an activity's task token is 150 characters of base64 on every line. */
const DROPPED = new Set(['taskToken']);

/**
 * The worker's logger (Runtime.install): JSON lines on stdout, `LOG_LEVEL` the least level written. A field that
 * cannot be written as JSON (a cycle) is left out and named: a log call must never fail the activity or workflow
 * task that makes it.
 */
export function jsonWorkerLogger(level: LogLevel, write: (line: string) => void = (line) => process.stdout.write(line)): DefaultLogger {
  return new DefaultLogger(level, (entry: LogEntry) => {
    const head = { level: PINO_LEVEL[entry.level], time: Number(entry.timestampNanos / 1_000_000n), pid: process.pid, msg: entry.message };
    const fields = Object.fromEntries(Object.entries(entry.meta ?? {}).filter(([key]) => !DROPPED.has(key)));
    let line: string;
    try {
      line = JSON.stringify({ ...head, ...fields }, jsonSafe);
    } catch {
      const writable = (value: unknown) => { try { JSON.stringify(value, jsonSafe); return true; } catch { return false; } };
      const kept = Object.entries(fields).filter(([, value]) => writable(value));
      const dropped = Object.keys(fields).filter((key) => !kept.some(([k]) => k === key));
      line = JSON.stringify({ ...head, ...Object.fromEntries(kept), unwritableFields: dropped }, jsonSafe);
    }
    write(`${line}\n`);
  });
}
