// Ranks test files by the CPU their worker spent on them, from a TEST_CPU_LOG file (tests/setup/file-cpu.ts):
//   TEST_CPU_LOG=/tmp/file-cpu.tsv bash bench/suite-cpu.sh --hog && node bench/file-cpu-summary.mjs /tmp/file-cpu.tsv
import { readFileSync } from 'node:fs';

const rows = readFileSync(process.argv[2], 'utf8').trim().split('\n').map((line) => {
  const [file, own, children, wall] = line.split('\t');
  return { file, own: Number(own), children: Number(children), wall: Number(wall) };
});
rows.sort((a, b) => b.own + b.children - (a.own + a.children));
const byProject = new Map();
let total = 0;
for (const row of rows) {
  const project = row.file.split('/')[1];
  byProject.set(project, (byProject.get(project) ?? 0) + row.own + row.children);
  total += row.own + row.children;
}
console.log(`${rows.length} files, ${total.toFixed(0)} s of CPU (own + reaped children)`);
for (const [project, cpu] of [...byProject].sort((a, b) => b[1] - a[1])) console.log(`  ${project.padEnd(10)} ${cpu.toFixed(0).padStart(5)} s`);
console.log('file\town\tchildren\twall');
for (const row of rows.slice(0, Number(process.argv[3] ?? 40))) console.log(`${row.file}\t${row.own.toFixed(1)}\t${row.children.toFixed(1)}\t${row.wall.toFixed(0)}`);
