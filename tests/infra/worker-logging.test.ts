/**
 * The worker's log lines (worker/worker-logging.ts): JSON in pino's shape, errors readable, the task token left
 * out, and a field that cannot be written (a cycle) never turning a log call into a failed activity.
 */
import { describe, expect, it } from 'vitest';
import { jsonWorkerLogger } from '../../worker/worker-logging';

describe('the worker\'s JSON log lines', () => {
  it('are pino-shaped JSON with the fields, errors as type and message, without the task token, and never throw', () => {
    const lines: Record<string, unknown>[] = [];
    const logger = jsonWorkerLogger('INFO', (line) => lines.push(JSON.parse(line)));
    logger.debug('not written below the level');
    logger.info('activity finished', { reqId: 'abc-1', activityType: 'sendEffectEmail', taskToken: 'Q'.repeat(150), attempt: 2 });
    logger.warn('Activity failed', { error: new TypeError('connect ECONNREFUSED'), big: 12n });
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(() => logger.error('with a cycle', { cyclic, reqId: 'abc-2' })).not.toThrow();

    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'activity finished', reqId: 'abc-1', activityType: 'sendEffectEmail', attempt: 2 });
    expect(lines[0]).not.toHaveProperty('taskToken');
    expect(typeof lines[0].time).toBe('number');
    expect(Math.abs((lines[0].time as number) - Date.now())).toBeLessThan(60_000);
    expect(lines[1]).toMatchObject({ level: 40, error: { type: 'TypeError', message: 'connect ECONNREFUSED' }, big: '12' });
    expect(lines[2]).toMatchObject({ level: 50, msg: 'with a cycle', reqId: 'abc-2', unwritableFields: ['cyclic'] });
  });
});
