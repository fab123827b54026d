/**
 * Realistic CS-STARS CSV exports of any size: `npm run generate:cs-stars -- <rows> [file] [seed]`
 * (default 1,000 rows to stdout). Deterministic for a seed; claim numbers are unique per physician, so the file
 * loads cleanly and loads again without adding claims. Values follow spec 1 §3.
 */
import { createWriteStream } from 'node:fs';
import { CLAIM_COLUMNS, CLAIM_INVOLVEMENTS, CLAIM_OUTCOMES } from '../domain';

const LAST = ['Nguyen', 'Smith', 'Johnson', 'Garcia', 'Okafor', 'Patel', 'Kim', 'Larsen', 'Brown', 'Davis', 'Miller', 'Wilson',
  'Anderson', 'Thomas', 'Moore', 'Martin', 'Jackson', 'Lee', 'Harris', 'Clark', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen',
  'King', 'Wright', 'Scott', 'Torres', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', "O'Neil", 'Rivera', 'Campbell', 'Mitchell'];
const FIRST = ['Avery', 'Jordan', 'Taylor', 'Morgan', 'Casey', 'Riley', 'Jamie', 'Alex', 'Sam', 'Drew', 'Maria', 'James', 'Priya',
  'Wei', 'Olu', 'Sofia', 'Liam', 'Noah', 'Emma', 'Ava', 'Mia', 'Lucas', 'Ethan', 'Chloe', 'Zoe'];
const DESCRIPTIONS = ['Alleged delay in diagnosis', 'Medication error, dosage', 'Post-operative infection', 'Failure to obtain informed consent',
  'Fall in patient room', 'Retained surgical item', 'Birth injury, shoulder dystocia', 'Misread imaging study, "follow-up" missed',
  'Wrong-site procedure, caught before incision', 'Delayed response to alarm'];

/** A small deterministic PRNG (mulberry32). */
export function random(seed: number) {
  let t = seed >>> 0;
  return () => {
    t += 0x6d2b79f5;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r ^= r + Math.imul(r ^ (r >>> 7), 61 | r);
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
const usDate = (d: Date) => `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()}`;
const csv = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

export const CSV_HEADER = CLAIM_COLUMNS.map(([, label]) => label).join(',');

/** The CSV lines (header first) of `rows` claims. */
export function* claimLines(rows: number, seed = 1, exportDate = new Date(Date.UTC(2025, 5, 30))): Generator<string> {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  yield CSV_HEADER;
  const start = Date.UTC(2002, 6, 1);
  const span = exportDate.getTime() - start;
  for (let i = 0; i < rows; i += 1) {
    const claimDate = new Date(start + Math.floor(next() * span / 86_400_000) * 86_400_000);
    const reportDate = new Date(Math.min(claimDate.getTime() + Math.floor(next() * 400) * 86_400_000, exportDate.getTime()));
    const status = next() < 0.2 ? 'Open' : next() < 0.1 ? 'Reopened' : 'Final';
    const outcome = status === 'Open' ? '' : status === 'Reopened' && next() < 0.5 ? '' : pick(CLAIM_OUTCOMES);
    const paid = outcome === 'Settled' ? (Math.round(next() * 90_000_000) / 100).toFixed(2) : '0.00';
    yield [
      usDate(exportDate), pick(LAST), pick(FIRST), next() < 0.6 ? String.fromCharCode(65 + Math.floor(next() * 26)) : '',
      pick(CLAIM_INVOLVEMENTS), `CS-${claimDate.getUTCFullYear()}-${String(i + 1).padStart(7, '0')}`, next() < 0.7 ? 'Claim' : 'Lawsuit',
      status, outcome, usDate(claimDate), usDate(reportDate), paid, pick(DESCRIPTIONS),
    ].map(csv).join(',');
  }
}

export const claimsCsv = (rows: number, seed = 1) => [...claimLines(rows, seed)].join('\n') + '\n';

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) {
  // The positional arguments; flags (`--smoke`, the suite's run: bench/lifecycle.ts) change nothing here.
  const [rowsArg, file, seedArg] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
  const rows = Number(rowsArg ?? 1000);
  const out: NodeJS.WritableStream = file ? createWriteStream(file) : process.stdout;
  const seed = Number(seedArg ?? 1);
  for (const line of claimLines(rows, seed)) {
    if (!out.write(`${line}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  if (out !== process.stdout) out.end();
}
