/**
 * Sums V8 CPU profiles (`.cpuprofile`, e.g. from TEST_CPU_PROF=<dir> npm test) by where the code lives: our folders
 * by name, packages by name, Node's own code, GC and the idle/program buckets; then the top functions by self time.
 *   node bench/cpu-profile-summary.mjs <dir> [top N]
 */
import fs from 'node:fs';
import path from 'node:path';

const [dir, topArg] = process.argv.slice(2);
if (!dir) { console.error('usage: node bench/cpu-profile-summary.mjs <dir> [top N]'); process.exit(2); }
const top = Number(topArg ?? 25);
const root = path.resolve(import.meta.dirname, '..');

function placeOf({ url, functionName }) {
  if (!url) return `(${functionName || 'anonymous'})`;
  const file = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return pkg[1];
  if (file.startsWith('node:')) return 'node internals';
  if (file.startsWith(root)) return file.slice(root.length + 1).split('/')[0] + '/';
  return file.split('/').slice(0, 3).join('/');
}

const byPlace = new Map();
const byFunction = new Map();
let total = 0;
for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id).callFrame;
    if (frame.functionName === '(idle)') continue;
    total += us;
    const place = placeOf(frame);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
    const fn = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*node_modules\//, '').replace(root + '/', '')}:${frame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  }
}
const s = (us) => (us / 1e6).toFixed(1).padStart(7);
console.log(`${s(total)} s of samples (idle excluded)`);
for (const [place, us] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${s(us)} s  ${place}`);
console.log('--- functions');
for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${s(us)} s  ${fn}`);
