/**
 * `npm run test:durations`: rewrites tests/setup/file-durations.json (the order files start in, longest first:
 * tests/setup/longest-first.ts) from the last run's test-results/vitest.json. Files under 3 s are left out: their
 * order hardly matters and the table stays short.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const report = JSON.parse(readFileSync(path.join(root, 'test-results', 'vitest.json'), 'utf8')) as {
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
};
const rows = report.testResults
  .map((file) => [path.relative(root, file.name).split(path.sep).join('/'), Math.round((file.endTime - file.startTime) / 1000)] as const)
  .filter(([, seconds]) => seconds >= 3)
  .sort((a, b) => b[1] - a[1]);
writeFileSync(path.join(root, 'tests', 'setup', 'file-durations.json'), `${JSON.stringify(Object.fromEntries(rows), null, 1)}\n`);
console.log(`tests/setup/file-durations.json: ${rows.length} files, ${rows.reduce((n, [, s]) => n + s, 0)} s in all`);
