/**
 * Preloaded into the API process the benches start (bench/api-process.ts, `--import`): answers over the IPC channel
 * - `mark` / `take`: every SQL statement the API sent to PostgreSQL in between, its text and the values bound to it
 *   (MikroORM's own copy of `pg`, patched), so the lists bench's bare server can run the same statements;
 * - `memory`: what the API holds after a full collection (with `--expose-gc`);
 * - `peak`: where its resident memory was at its highest since the last `peak` (bench/memory/peak-sampler.ts).
 */
import { createRequire } from 'node:module';
import { PeakSampler } from './peak-sampler';

type PgClientPrototype = { query: (...args: unknown[]) => unknown };
/** A statement as `pg` sent it: its text and the values bound to its `$n` parameters. */
interface Statement { text: string; values: unknown[] }
const captured: Statement[] = [];
// Only between `mark` and `take`: texts kept all run long would be the largest thing in the API's heap.
let capturing = false;
const ormPg = createRequire(import.meta.resolve('@mikro-orm/postgresql'))('pg') as { Client: { prototype: PgClientPrototype } };
const original = ormPg.Client.prototype.query;
ormPg.Client.prototype.query = function capture(this: unknown, ...args: unknown[]) {
  const first = args[0] as string | { text?: string; values?: unknown[] };
  const text = typeof first === 'string' ? first : first?.text;
  const values = Array.isArray(args[1]) ? args[1] : (typeof first === 'object' && first?.values) || [];
  if (capturing && text && captured.length < 10_000) captured.push({ text, values: [...values] });
  return original.apply(this, args);
};

const peaks = new PeakSampler().start();

process.on('message', (message: { id: number; type: string }) => {
  const reply = (body: Record<string, unknown>) => process.send!({ id: message.id, ...body });
  if (message.type === 'mark') {
    captured.length = 0;
    capturing = true;
    reply({});
  } else if (message.type === 'take') {
    capturing = false;
    reply({ queries: captured.splice(0) });
  } else if (message.type === 'memory') {
    (globalThis as { gc?: () => void }).gc?.();
    reply({ memory: process.memoryUsage(), collected: typeof (globalThis as { gc?: unknown }).gc === 'function' });
  } else if (message.type === 'peak') {
    reply({ peak: peaks.take() });
  }
});
process.channel?.unref(); // the probe never keeps the API alive
// The bench that started this API is gone (it failed, or was killed outright): nobody will ask or stop it.
process.on('disconnect', () => process.exit(0));
