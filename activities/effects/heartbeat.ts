/**
 * Keeps an activity heartbeating while it works, so a worker that dies mid-effect is noticed within the
 * activity's heartbeat timeout (seconds) instead of its start-to-close timeout. Outside an activity (a test
 * calling the function directly) it just runs the work.
 */
import { Context } from '@temporalio/activity';

export async function withHeartbeat<T>(work: () => Promise<T>, everyMs = 1000): Promise<T> {
  let context: Context;
  try {
    context = Context.current();
  } catch {
    return work();
  }
  // No heartbeat at the start: the server measures the heartbeat timeout from the activity's start until the first
  // one, so a worker dying early is noticed all the same, and work done within `everyMs` (a letter, an email: well
  // under a second) costs no heartbeat call to the server at all (one per letter and email otherwise).
  const timer = setInterval(() => context.heartbeat(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
