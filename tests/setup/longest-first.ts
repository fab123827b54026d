/**
 * The order test files start in: the longest first, across the integration projects, so that two workers finish
 * together instead of one running the last long file alone (on a clean clone Vitest knows no durations and would
 * start files by project name, then by size: the 87 s chaos file, 22 lines long, started last and ran alone).
 * Durations come from tests/setup/file-durations.json (`npm run test:durations` rewrites it from the last run's
 * test-results/vitest.json); a file it does not name keeps Vitest's own order after the named ones.
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
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      return known(b) - known(a) || order.get(a)! - order.get(b)!;
    });
  }
}
