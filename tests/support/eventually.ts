/**
 * Polls `probe` until it returns a truthy value (side effects of workflows land asynchronously), for at most
 * `timeoutMs`: a generous bound, since a slower or busy machine only makes the event later. The first asks come every
 * `intervalMs`, then less and less often (up to every 500 ms), so a long wait costs little CPU.
 */
export async function eventually<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let interval = intervalMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, interval));
    interval = Math.min(Math.max(interval, Math.round(interval * 1.25)), Math.max(intervalMs, 500));
  }
}
