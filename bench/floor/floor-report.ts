/**
 * Each target beside the floor measured in the same run: our figure, the ratio and whether it is met; an earlier
 * rough measurement of the floor (ISSUE_FLOOR) printed beside ours.
 */
import type { Floor, FloorPhase } from './temporal-floor';

export interface Ours {
  concurrency: number;
  submitCall: { p50: number; p95: number };
  approveCall: { p50: number; p95: number };
  approveToEmail: { p95: number };
  submitsPerSecond: number;
  approvalsPerSecond: number;
  /** all processes: API + worker, Temporal, Chromium */
  cpuMsPerSubmit: number | null;
}

export interface TargetRow { target: string; floor: number | null; ours: number; ratio: number | null; limit: string; met: boolean }

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
export function floorFigures(phase: FloorPhase, count: number) {
  const sorted = [...phase.samples].sort((a, b) => a - b);
  const cpu = phase.cpuMs.temporal === null ? null : (phase.cpuMs.process + phase.cpuMs.temporal) / count;
  return {
    p50: Math.round(percentile(sorted, 50) * 10) / 10, p95: Math.round(percentile(sorted, 95) * 10) / 10,
    perSecond: count / (phase.wallMs / 1000),
    cpuMsPerCommand: cpu === null ? null : Math.round(cpu * 10) / 10,
    cpuMsSplit: { clientAndWorker: Math.round((phase.cpuMs.process / count) * 10) / 10, temporal: phase.cpuMs.temporal === null ? null : Math.round((phase.cpuMs.temporal / count) * 10) / 10 },
  };
}

/** An earlier rough measurement of the floor on this machine kind, printed beside the run's own. */
export const ISSUE_FLOOR = {
  1: { updateWithStart: { p50: 98, p95: 103 }, update: { p50: 52, p95: 61 } },
  8: { updateWithStart: { p95: 268 }, update: { p95: 204 }, cpuMsPerCommand: 35 },
} as const;

export function targetRows(floor: Floor, count: number, ours: Ours): TargetRow[] {
  const uws = floorFigures(floor.updateWithStart, count);
  const upd = floorFigures(floor.update, count);
  const within = (target: string, f: number | null, o: number, factor = 1.5): TargetRow => ({
    target, floor: f, ours: o, ratio: f ? Math.round((o / f) * 100) / 100 : null, limit: `≤ ${factor}× floor`, met: f !== null && o <= factor * f,
  });
  const atLeast = (target: string, o: number, min: number): TargetRow => ({ target, floor: null, ours: Math.round(o * 10) / 10, ratio: null, limit: `≥ ${min}`, met: o >= min });
  const atMost = (target: string, o: number, max: number): TargetRow => ({ target, floor: null, ours: o, ratio: null, limit: `≤ ${max}`, met: o <= max });
  if (ours.concurrency === 1) {
    return [
      within('2. submit call p50 (ms) vs update-with-start', uws.p50, ours.submitCall.p50),
      within('2. submit call p95 (ms) vs update-with-start', uws.p95, ours.submitCall.p95),
      within('2. approve call p50 (ms) vs later update', upd.p50, ours.approveCall.p50),
      within('2. approve call p95 (ms) vs later update', upd.p95, ours.approveCall.p95),
      atMost('4. approve → email with PDF p95 (ms)', ours.approveToEmail.p95, 400),
    ];
  }
  return [
    within(`3. submit call p95 (ms) vs update-with-start, concurrency ${ours.concurrency}`, uws.p95, ours.submitCall.p95),
    within(`3. approve call p95 (ms) vs later update, concurrency ${ours.concurrency}`, upd.p95, ours.approveCall.p95),
    atLeast('3. submits/s with their confirmations', ours.submitsPerSecond, 25),
    atLeast('3. approvals with letter and email/s', ours.approvalsPerSecond, 15),
    ...(ours.cpuMsPerSubmit === null ? [] : [within('3. CPU-ms per submit, all processes, vs per floor command', uws.cpuMsPerCommand, Math.round(ours.cpuMsPerSubmit * 10) / 10)]),
  ];
}

export function printFloor(floor: Floor, count: number, concurrency: number, print: (line: string) => void) {
  const uws = floorFigures(floor.updateWithStart, count);
  const upd = floorFigures(floor.update, count);
  const issue = concurrency === 1 ? ISSUE_FLOOR[1] : concurrency === 8 ? ISSUE_FLOOR[8] : null;
  const issueUws = issue ? ` (issue's: ${'p50' in issue.updateWithStart ? `p50 ${issue.updateWithStart.p50} / ` : ''}p95 ${issue.updateWithStart.p95})` : '';
  const issueUpd = issue ? ` (issue's: ${'p50' in issue.update ? `p50 ${issue.update.p50} / ` : ''}p95 ${issue.update.p95})` : '';
  print(`Temporal floor, this run, concurrency ${concurrency}, ${count} workflows:`);
  print(`  update-with-start (one activity writing one row): p50 ${uws.p50} / p95 ${uws.p95} ms${issueUws}, ${uws.perSecond.toFixed(1)}/s, ` +
    `CPU-ms per command ${uws.cpuMsPerCommand ?? '?'} (client + worker ${uws.cpuMsSplit.clientAndWorker}, Temporal ${uws.cpuMsSplit.temporal ?? '?'})` +
    `${issue && 'cpuMsPerCommand' in issue ? ` (issue's: ${issue.cpuMsPerCommand})` : ''}`);
  print(`  later update (the same):                         p50 ${upd.p50} / p95 ${upd.p95} ms${issueUpd}, ${upd.perSecond.toFixed(1)}/s, ` +
    `CPU-ms per command ${upd.cpuMsPerCommand ?? '?'}`);
}

export function printTargets(rows: TargetRow[], print: (line: string) => void) {
  print('targets:');
  const width = Math.max(...rows.map((r) => r.target.length));
  for (const r of rows) {
    print(`  ${r.target.padEnd(width)}  floor ${String(r.floor ?? '—').padStart(6)}  ours ${String(r.ours).padStart(7)}  ` +
      `ratio ${String(r.ratio ?? '—').padStart(5)}  (${r.limit})  met ${r.met ? 'yes' : 'NO'}`);
  }
}
