/**
 * The order test files start in: one project after another, the longest files first within each, and the projects
 * with the most known time first (the short domain and UI files fill the gaps at the end).
 *
 * Why projects stay together: a Vitest worker process that ran a file (`isolate: false`) runs the next one only when
 * the next file in the queue belongs to the same project; otherwise it exits and a new process starts, loading the
 * server code and its packages again (seconds of CPU each time). Interleaving the projects by duration restarted a
 * worker for nearly every file.
 *
 * Why the longest first: so that the workers finish together instead of one running the last long file alone (on a
 * clean clone Vitest knows no durations and would start files by size: the chaos file, 22 lines long, started last).
 * Durations come from tests/setup/file-durations.json (`npm run test:durations` rewrites it from the last run's
 * test-results/vitest.json); a file it does not name keeps Vitest's own order after the named ones of its project.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const root = path.resolve(import.meta.dirname, '../..');
const durations = JSON.parse(readFileSync(path.join(import.meta.dirname, 'file-durations.json'), 'utf8')) as Record<string, number>;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = (spec: TestSpecification) => durations[path.relative(root, spec.moduleId).split(path.sep).join('/')] ?? 0;
    const order = new Map((await super.sort(files)).map((spec, i) => [spec, i]));
    const projectTime = new Map<string, number>();
    for (const spec of files) projectTime.set(spec.project.name, (projectTime.get(spec.project.name) ?? 0) + known(spec));
    const timeOf = (spec: TestSpecification) => projectTime.get(spec.project.name)!;
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      if (a.project !== b.project) return timeOf(b) - timeOf(a) || a.project.name.localeCompare(b.project.name);
      return known(b) - known(a) || order.get(a)! - order.get(b)!;
    });
  }
}
