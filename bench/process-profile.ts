/**
 * Where the bench process's CPU goes ("profile API, worker and Temporal separately"):
 *
 * - `threadCpu()`: CPU-ms per thread of this process from /proc/self/task, grouped by thread name. The main thread
 *   runs the API, the activities and the SDK's JavaScript; workflow code runs in the SDK's worker threads; the SDK's
 *   Rust core (gRPC to the server, task polling) in tokio threads; V8's GC and compiler in their own.
 * - `MainThreadProfiler`: the inspector's CPU profiler on the main thread, its self time summed by where the code
 *   lives (our api/, activities/, db/, the ORM, pg, Fastify, the Temporal SDK, Node internals).
 */
import { Context } from '@temporalio/activity';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';

const TICK_MS = 10; // USER_HZ = 100 on Linux

/** Thread groups named after what runs there (Linux thread names are cut to 15 characters). */
function threadGroup(tid: number, comm: string, pid: number): string {
  if (tid === pid) return 'main thread (API, activities, SDK JS)';
  if (/tokio|temporal|core/i.test(comm)) return 'Temporal core (Rust, tokio)';
  if (/libuv/i.test(comm)) return 'libuv pool (fs, dns, crypto)';
  if (/^V8|DefaultWorke|DelayedTask/i.test(comm)) return 'V8 (GC, compiler)';
  if (/^node$|Worker/i.test(comm)) return 'JS worker threads (workflows)';
  return `other (${comm})`;
}

/**
 * CPU-ms per thread group of this process (or of the process `pid`, the worker's) so far (threads that ended are not
 * counted: sample before and after).
 */
export function threadCpu(pid = process.pid): Map<string, number> {
  const groups = new Map<string, number>();
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return groups;
  }
  for (const tid of tids) {
    try {
      const comm = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
      const group = threadGroup(Number(tid), comm, pid);
      groups.set(group, (groups.get(group) ?? 0) + (f[11] + f[12]) * TICK_MS);
    } catch { /* the thread ended */ }
  }
  return groups;
}

export function threadCpuDelta(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [group, ms] of after) delta[group] = ms - (before.get(group) ?? 0);
  return delta;
}

interface ProfileNode { id: number; callFrame: { url: string; functionName: string }; children?: number[] }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** Where a frame's code lives, coarse enough to read: ours by folder, libraries by package. */
function categoryOf(url: string, functionName: string): string {
  if (!url) return functionName === '(garbage collector)' ? 'GC' : functionName === '(idle)' || functionName === '(program)' ? functionName : 'native/builtin';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) {
    const name = pkg[1];
    if (name.startsWith('@mikro-orm/') || name === 'knex' || name === 'kysely') return 'ORM (MikroORM)';
    if (name.startsWith('@temporalio/')) return `Temporal SDK (${name.slice('@temporalio/'.length)})`;
    if (name === 'fastify' || name.startsWith('@fastify/') || name === 'avvio' || name === 'find-my-way' || name === 'light-my-request') return 'Fastify';
    if (name === 'pg' || name.startsWith('pg-')) return 'pg driver';
    if (name === 'protobufjs' || name.startsWith('@grpc/')) return 'gRPC/protobuf (client)';
    return `lib ${name}`;
  }
  if (url.startsWith('node:')) return 'Node internals';
  const ours = /\/(api|activities|db|domain|temporal|workflows|bench|devtools|storage|config)\//.exec(url);
  if (ours) return `ours: ${ours[1]}/`;
  return 'other';
}

/** The inspector's sampling profiler on this (main) thread; `stop()` answers self time per category (ms). */
export class MainThreadProfiler {
  private session = new Session();

  async start(): Promise<void> {
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.setSamplingInterval', { interval: 500 });
    await this.session.post('Profiler.start');
  }

  /**
   * `self`: self time per category. `owner`: each sample charged to the nearest caller in our own code (api/ =
   * the HTTP side, activities/ = the worker's activities), else to its own category (SDK polling, GC, idle).
   */
  async stop(file?: string): Promise<{ self: Array<[string, number]>; owner: Array<[string, number]> }> {
    const { profile } = await this.session.post('Profiler.stop') as unknown as { profile: CpuProfile };
    this.session.disconnect();
    if (file) fs.writeFileSync(file, JSON.stringify(profile));
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const ownerOf = (id: number): string => {
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const { url } = nodes.get(at)!.callFrame;
        const ours = /\/(api|activities|db|domain|temporal|storage)\/[^/]+/.exec(url);
        if (ours && !url.includes('node_modules')) return `ours: ${ours[0].slice(1)}`;
      }
      return categoryOf(nodes.get(id)!.callFrame.url, nodes.get(id)!.callFrame.functionName);
    };
    const self = new Map<string, number>();
    const owner = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      const node = nodes.get(id)!;
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      const category = categoryOf(node.callFrame.url, node.callFrame.functionName);
      self.set(category, (self.get(category) ?? 0) + ms);
      const o = ownerOf(id);
      owner.set(o, (owner.get(o) ?? 0) + ms);
    });
    const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
    return { self: sorted(self), owner: sorted(owner) };
  }
}

interface HistoryEvent { eventType?: unknown; [key: string]: unknown }

/** An event's type as a short name (`WorkflowTaskCompleted`), whatever form the SDK gives it in. */
function eventName(event: HistoryEvent): string {
  const key = Object.keys(event).find((k) => k.endsWith('EventAttributes') && event[k]);
  return key ? key.replace(/EventAttributes$/, '').replace(/^./, (c) => c.toUpperCase()) : String(event.eventType);
}

export interface HistoryShare { events: number; workflowTasks: number; activityTasks: number; localActivities: number; timers: number; searchAttributeUpserts: number }

/**
 * What one request's workflow cost the server: its history split at the second update (the approval): events,
 * workflow tasks completed, activity tasks scheduled, local activities (markers), timers and search attribute upserts.
 */
export function historyShares(events: HistoryEvent[]): { submit: HistoryShare; approve: HistoryShare; types: Record<string, number>; sequence: string[] } {
  const empty = (): HistoryShare => ({ events: 0, workflowTasks: 0, activityTasks: 0, localActivities: 0, timers: 0, searchAttributeUpserts: 0 });
  const shares = { submit: empty(), approve: empty() };
  const types: Record<string, number> = {};
  const sequence: string[] = [];
  let updates = 0;
  for (const event of events) {
    const name = eventName(event);
    types[name] = (types[name] ?? 0) + 1;
    const upserted = (event.upsertWorkflowSearchAttributesEventAttributes as { searchAttributes?: { indexedFields?: object } } | undefined)
      ?.searchAttributes?.indexedFields;
    sequence.push(upserted ? `${name}(${Object.keys(upserted).join(',')})` : name);
    if (name === 'WorkflowExecutionUpdateAccepted') updates += 1;
    const share = updates >= 2 ? shares.approve : shares.submit;
    share.events += 1;
    if (name === 'WorkflowTaskCompleted') share.workflowTasks += 1;
    if (name === 'ActivityTaskScheduled') share.activityTasks += 1;
    if ((event.markerRecordedEventAttributes as { markerName?: string } | undefined)?.markerName === 'core_local_activity') share.localActivities += 1;
    if (name === 'TimerStarted') share.timers += 1;
    if (name === 'UpsertWorkflowSearchAttributes') share.searchAttributeUpserts += 1;
  }
  return { ...shares, types, sequence };
}

/**
 * Counts PostgreSQL round trips of this process by who made them: the activity type (its Temporal context), else
 * the API. Patches the `pg` client the ORM loads (a diagnostic of `--profile 1`, never of the portal itself).
 */
export function countQueries(): { take(): Record<string, number> } {
  const requireHere = createRequire(import.meta.url);
  const pg = createRequire(requireHere.resolve('@mikro-orm/postgresql'))('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
  let counts: Record<string, number> = {};
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function query(this: unknown, ...args: unknown[]) {
    let who = 'API';
    try {
      who = `activity ${Context.current().info.activityType}`;
    } catch { /* not in an activity */ }
    counts[who] = (counts[who] ?? 0) + 1;
    return original.apply(this, args);
  };
  return { take() { const taken = counts; counts = {}; return taken; } };
}

// Where the bench's processes are found: bench/lifecycle.ts (which kills those left running); re-exported for callers.
export { descendants } from './lifecycle';

/** Resident memory of process `pid` in bytes (VmRSS), 0 when it is gone or the system has no /proc. */
export function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}
