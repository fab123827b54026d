/**
 * The Temporal floor: the least a command can cost on this stack. A workflow started by
 * update-with-start whose update runs one activity writing one row and answers; one more update does the same; the
 * run ends after the second. Nothing else: no search attributes, no queries, no timers.
 */
import { allHandlersFinished, condition, defineUpdate, proxyActivities, setHandler } from '@temporalio/workflow';

export const writeUpdate = defineUpdate<number, [number]>('write');

interface FloorActivities { writeRow(workflowId: string, n: number): Promise<number> }
const { writeRow } = proxyActivities<FloorActivities>({ startToCloseTimeout: '30 seconds' });

export async function floorWorkflow(workflowId: string): Promise<void> {
  let writes = 0;
  setHandler(writeUpdate, async (n) => {
    const id = await writeRow(workflowId, n);
    writes += 1;
    return id;
  });
  await condition(() => writes >= 2 && allHandlersFinished());
}
