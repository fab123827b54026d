/**
 * Where a process's resident memory is at its peak, sampled from inside it: every `intervalMs` it reads
 * `process.memoryUsage()` and, whenever RSS reaches a new high, V8's heap spaces and the kernel's split of the
 * resident pages (/proc/self/smaps_rollup: anonymous, file-backed). The bench's API process runs it, so a peak can be
 * told apart into V8's heap (young generation = new space, old generation), memory outside it (Buffers and other
 * external memory, the allocator's arenas, code) and mapped files.
 */
import fs from 'node:fs';
import v8 from 'node:v8';

export interface MemoryPeak {
  /** the highest RSS seen and what the process held at that sample */
  rssBytes: number; heapTotalBytes: number; heapUsedBytes: number; externalBytes: number; arrayBuffersBytes: number;
  /** committed size of each V8 heap space at that sample (new_space = the young generation's semi-spaces) */
  spaces: Record<string, number>;
  /** smaps_rollup at that sample, bytes */
  anonymousBytes: number; fileBytes: number;
  /** the anonymous part by who mapped it (`anonymousByOwner`), at the last new high read (at most one a second) */
  anonymousOwners: ReturnType<typeof anonymousByOwner>;
  /** the highest value each figure reached on its own, at any sample */
  highs: { heapTotalBytes: number; heapUsedBytes: number; externalBytes: number; arrayBuffersBytes: number };
  /** the kernel's own high-water mark of RSS (VmHWM) since the process started */
  hwmBytes: number;
}

/**
 * Resident anonymous memory by who mapped it, from /proc/self/smaps: glibc's malloc arenas (the main one is `[heap]`;
 * each thread arena is a 64 MiB-aligned reservation of 64 MiB), thread stacks, and the rest: V8's heap pages (Node is
 * built without pointer compression, so they are separate mmaps the kernel merges with their neighbours) and other
 * mmaps (malloc's large blocks). A lower bound for the arenas: one merged with a neighbour counts as `other`.
 */
export function anonymousByOwner(): Record<'mallocMain' | 'mallocThreadArenas' | 'stacks' | 'other', number> {
  const owners = { mallocMain: 0, mallocThreadArenas: 0, stacks: 0, other: 0 };
  let text: string;
  try { text = fs.readFileSync('/proc/self/smaps', 'utf8'); } catch { return owners; }
  // contiguous unnamed mappings form one reservation (a guard or permission change splits it into several)
  type Region = { start: number; end: number; anonymous: number; name: string };
  const regions: Region[] = [];
  let current: Region | null = null;
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const start = parseInt(header[1], 16);
      const end = parseInt(header[2], 16);
      const name = header[3].trim();
      if (current && !name && !current.name && current.end === start) current.end = end;
      else { current = { start, end, anonymous: 0, name }; regions.push(current); }
      continue;
    }
    const anonymous = /^Anonymous:\s+(\d+) kB/.exec(line);
    if (anonymous && current) current.anonymous += Number(anonymous[1]) * 1024;
  }
  const MiB = 1 << 20;
  for (const region of regions) {
    const size = region.end - region.start;
    if (!region.anonymous) continue;
    if (region.name === '[heap]') owners.mallocMain += region.anonymous;
    else if (region.name.startsWith('[stack')) owners.stacks += region.anonymous;
    else if (region.name) owners.other += region.anonymous;
    else if (size === 64 * MiB && region.start % (64 * MiB) === 0) owners.mallocThreadArenas += region.anonymous;
    else if (size === 8 * MiB + 4096 || size === 8 * MiB) owners.stacks += region.anonymous;
    else owners.other += region.anonymous;
  }
  return owners;
}

function smapsRollup(): { anonymousBytes: number; fileBytes: number } {
  try {
    const text = fs.readFileSync('/proc/self/smaps_rollup', 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) * 1024;
    return { anonymousBytes: kb('Anonymous'), fileBytes: kb('Rss') - kb('Anonymous') };
  } catch {
    return { anonymousBytes: 0, fileBytes: 0 };
  }
}

export function hwmOf(pid: number | 'self'): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

export class PeakSampler {
  private peak: Omit<MemoryPeak, 'hwmBytes'> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private ownersReadAt = 0;

  start(intervalMs = 100): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs).unref();
    return this;
  }

  stop(): void { if (this.timer) clearInterval(this.timer); }

  /** The peak since the start or the last `take`, and a fresh start from now. */
  take(): MemoryPeak {
    this.sample();
    const peak = { ...this.peak!, hwmBytes: hwmOf('self') };
    this.peak = null;
    this.sample();
    return peak;
  }

  private sample(): void {
    const usage = process.memoryUsage();
    const highs = this.peak?.highs ?? { heapTotalBytes: 0, heapUsedBytes: 0, externalBytes: 0, arrayBuffersBytes: 0 };
    const nextHighs = {
      heapTotalBytes: Math.max(highs.heapTotalBytes, usage.heapTotal), heapUsedBytes: Math.max(highs.heapUsedBytes, usage.heapUsed),
      externalBytes: Math.max(highs.externalBytes, usage.external), arrayBuffersBytes: Math.max(highs.arrayBuffersBytes, usage.arrayBuffers),
    };
    if (this.peak && usage.rss <= this.peak.rssBytes) {
      this.peak.highs = nextHighs;
      return;
    }
    // reading smaps walks every mapping: at most once a second, and always for the first sample
    const readOwners = !this.peak || Date.now() - this.ownersReadAt >= 1000;
    if (readOwners) this.ownersReadAt = Date.now();
    const anonymousOwners = readOwners ? anonymousByOwner() : this.peak!.anonymousOwners;
    const spaces: Record<string, number> = {};
    for (const space of v8.getHeapSpaceStatistics()) spaces[space.space_name] = space.space_size;
    this.peak = {
      rssBytes: usage.rss, heapTotalBytes: usage.heapTotal, heapUsedBytes: usage.heapUsed, externalBytes: usage.external,
      arrayBuffersBytes: usage.arrayBuffers, spaces, ...smapsRollup(), anonymousOwners, highs: nextHighs,
    };
  }
}

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)}`;

/** One line: the peak and its parts, MiB. */
export function describePeak(peak: MemoryPeak): string {
  const s = peak.spaces;
  const o = peak.anonymousOwners;
  const young = (s.new_space ?? 0) + (s.new_large_object_space ?? 0);
  const old = (s.old_space ?? 0) + (s.large_object_space ?? 0);
  const code = (s.code_space ?? 0) + (s.code_large_object_space ?? 0);
  return `RSS peak ${mib(peak.rssBytes)} MiB (kernel high-water mark ${mib(peak.hwmBytes)}): V8 heap ${mib(peak.heapTotalBytes)} committed `
    + `(young generation ${mib(young)}, old ${mib(old)}, code ${mib(code)}; ${mib(peak.heapUsedBytes)} used), `
    + `outside the heap ${mib(peak.rssBytes - peak.heapTotalBytes)} (external ${mib(peak.externalBytes)}, of it array buffers ${mib(peak.arrayBuffersBytes)}); `
    + `anonymous ${mib(peak.anonymousBytes)} (malloc main arena ${mib(o.mallocMain)}, malloc thread arenas ${mib(o.mallocThreadArenas)}, `
    + `stacks ${mib(o.stacks)}, V8 pages and other mmaps ${mib(o.other)}), file-backed ${mib(peak.fileBytes)}; highs alone: heap ${mib(peak.highs.heapTotalBytes)} committed, `
    + `external ${mib(peak.highs.externalBytes)}`;
}
