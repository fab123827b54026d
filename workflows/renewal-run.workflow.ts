/**
 * One renewal run (workflows/renewal-run.messages.ts). Its items live in PostgreSQL (renewal_items), so the history
 * holds only batches: ask-first sends the questions in batches, then waits (a durable timer) until the answer date,
 * every answer arrived, or the office stops waiting; then each batch asks request workflows to renew (update-with-start,
 * update id per request and year), no faster than the configured pace and never with more than `maxWaiting` of its
 * letters queued, so the letters queue keeps room for the day's approvals. Pause holds it between batches; cancel
 * ends it, leaving the rest not renewed. A worker killed mid-batch is replaced by a retry of the batch, which repeats
 * the same update ids: nothing is renewed twice. Long runs continue as new.
 */
import { allHandlersFinished, condition, continueAsNew, proxyActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { RenewalRunActivities } from './renewal-run-activities.types';
import { renewalAnsweredSignal, renewalControlUpdate, type RenewalRunInput } from './renewal-run.messages';

const acts = proxyActivities<RenewalRunActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

const ASK_BATCH = 25;
const RENEW_BATCH = 12;
const ANSWERS_COUNTED_EVERY_MS = 3_000;
/** Events before the run continues as new (Temporal's own suggestion comes at 4 K+ by default settings, or by size). */
const HISTORY_EVENTS_MAX = 8_000;

export async function renewalRunWorkflow(input: RenewalRunInput): Promise<string> {
  const { runId } = input;
  let phase = input.phase ?? 'start';
  let paused = input.paused ?? false;
  let cancelled = false;
  let stopAsking = false;
  let answered = false;

  setHandler(renewalControlUpdate, async ({ action }) => {
    if (action === 'pause') paused = true;
    if (action === 'resume') paused = false;
    if (action === 'cancel') cancelled = true;
    if (action === 'close-asking') stopAsking = true;
    return { state: await acts.noteRenewalControl({ runId, action, phase }) };
  });
  setHandler(renewalAnsweredSignal, () => { answered = true; });

  const run = await acts.loadRenewalRun({ runId });
  if (!run) return 'gone';
  const keepShort = async () => {
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > HISTORY_EVENTS_MAX) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof renewalRunWorkflow>({ runId, phase, paused });
    }
  };

  if (phase === 'start') phase = run.mode === 'ask' ? 'ask' : 'renew';
  if (phase === 'ask') {
    while (!cancelled && (await acts.askRenewalBatch({ runId, limit: ASK_BATCH })) > 0) await keepShort();
    phase = 'wait';
  }
  if (phase === 'wait') {
    const deadline = run.answerDeadline ? Date.parse(run.answerDeadline) : Date.now();
    for (;;) {
      if (stopAsking || cancelled) break;
      const left = deadline - Date.now();
      if (left <= 0) break;
      if (!(await condition(() => answered || stopAsking || cancelled, left))) break;
      if (answered) {
        // Answers arriving together are counted once: a few seconds' wait keeps a season's answers from writing
        // an activity each into the history.
        await condition(() => stopAsking || cancelled, Math.min(ANSWERS_COUNTED_EVERY_MS, Math.max(1, deadline - Date.now())));
        answered = false;
        if ((await acts.countAwaitedAnswers({ runId })) === 0) break;
      }
      await keepShort();
    }
    phase = 'renew';
    if (!cancelled) await acts.closeRenewalQuestions({ runId });
  }
  while (phase === 'renew') {
    await condition(() => !paused || cancelled);
    if (cancelled) break;
    const started = Date.now();
    const batch = await acts.renewBatch({ runId, limit: RENEW_BATCH });
    if (batch.handled === 0 && batch.remaining === 0) break;
    // The pace: a batch of n takes at least n / perSecond seconds; a full letters queue waits a second.
    const least = batch.handled > 0 ? (batch.handled * 1000) / run.perSecond : 1000;
    const spent = Date.now() - started;
    if (spent < least) await sleep(least - spent);
    await keepShort();
  }
  await condition(allHandlersFinished);
  return acts.finishRenewalRun({ runId, cancelled });
}
