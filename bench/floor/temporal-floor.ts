/**
 * Measures the Temporal floor in the bench's own run, on its dev server: the floor workflow
 * (bench/floor/floor.workflow.ts) on a worker and task queue of its own in this process, its activity writing one
 * row into the bench's database. N workflows, each started by update-with-start (its latency is the submit's floor),
 * then one more update on each (the approve's floor), at the bench's concurrency; CPU per command of this process
 * (client + worker) and of the Temporal server, as the request-flow bench counts its own.
 */
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { floorWorkflow, writeUpdate } from './floor.workflow';

export interface FloorPhase { samples: number[]; wallMs: number; cpuMs: { process: number; temporal: number | null } }
export interface Floor { updateWithStart: FloorPhase; update: FloorPhase }

type CpuOfTemporal = () => number | null;

async function timed(
  count: number, concurrency: number, temporalCpu: CpuOfTemporal, one: (i: number) => Promise<unknown>,
): Promise<FloorPhase> {
  const samples: number[] = [];
  const cpuBefore = process.cpuUsage();
  const temporalBefore = temporalCpu();
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) {
      const i = next++;
      const t0 = performance.now();
      await one(i);
      samples.push(performance.now() - t0);
    }
  }));
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const temporalAfter = temporalCpu();
  return {
    samples, wallMs,
    cpuMs: { process: (cpu.user + cpu.system) / 1000, temporal: temporalBefore === null || temporalAfter === null ? null : temporalAfter - temporalBefore },
  };
}

export async function measureFloor(options: {
  client: Client; address: string; namespace: string; databaseUrl: string;
  count: number; concurrency: number; warmup: number; temporalCpu: CpuOfTemporal;
}): Promise<Floor> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
  await pool.query('create table if not exists bench_floor_rows (id bigserial primary key, workflow_id text not null, n int not null, at timestamptz not null default now())');
  const taskQueue = `floor-${randomBytes(4).toString('hex')}`;
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection, namespace: options.namespace, taskQueue,
    workflowsPath: fileURLToPath(new URL('./floor.workflow.ts', import.meta.url)),
    activities: {
      async writeRow(workflowId: string, n: number) {
        const { rows } = await pool.query<{ id: string }>('insert into bench_floor_rows (workflow_id, n) values ($1, $2) returning id', [workflowId, n]);
        return Number(rows[0].id);
      },
    },
  });
  const running = worker.run();
  const run = randomBytes(3).toString('hex');
  const idOf = (phase: string, i: number) => `floor-${run}-${phase}-${i}`;
  const startAndWrite = (workflowId: string) => options.client.workflow.executeUpdateWithStart(writeUpdate, {
    args: [1],
    startWorkflowOperation: new WithStartWorkflowOperation(floorWorkflow, { workflowId, taskQueue, args: [workflowId], workflowIdConflictPolicy: 'FAIL' }),
  });
  const writeAgain = (workflowId: string) => options.client.workflow.getHandle(workflowId).executeUpdate(writeUpdate, { args: [2] });
  try {
    for (let i = 0; i < options.warmup; i += 1) {
      await startAndWrite(idOf('warm', i));
      await writeAgain(idOf('warm', i));
    }
    const updateWithStart = await timed(options.count, options.concurrency, options.temporalCpu, (i) => startAndWrite(idOf('bench', i)));
    const update = await timed(options.count, options.concurrency, options.temporalCpu, (i) => writeAgain(idOf('bench', i)));
    if (process.env.BENCH_HISTORY_DIR) { // beside the requests' (bench/request-flow.bench.ts)
      const events = (await options.client.workflow.getHandle(idOf('bench', 10)).fetchHistory()).events;
      writeFileSync(path.join(process.env.BENCH_HISTORY_DIR, 'floor.json'), JSON.stringify(events));
    }
    return { updateWithStart, update };
  } finally {
    worker.shutdown();
    await running.catch(() => {});
    await connection.close();
    await pool.end();
  }
}
