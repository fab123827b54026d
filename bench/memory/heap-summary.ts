/**
 * What a V8 heap snapshot holds, by kind: objects by constructor name, the rest by node type ("(string)",
 * "(closure)", "(code)", …), with their count and self size. Two summaries subtract to what an interval added.
 */
import { readFileSync } from 'node:fs';

export type HeapSummary = Map<string, { count: number; bytes: number }>;

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

export function summarizeHeapSnapshot(file: string): HeapSummary {
  const { snapshot, nodes, strings } = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = snapshot.meta.node_fields;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const types = snapshot.meta.node_types[0];
  const summary: HeapSummary = new Map();
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + typeAt]];
    const key = type === 'object' ? strings[nodes[i + nameAt]] : `(${type})`;
    const entry = summary.get(key) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += nodes[i + sizeAt];
    summary.set(key, entry);
  }
  return summary;
}

/** What `after` holds more than `before`, largest first. */
export function heapGrowth(before: HeapSummary, after: HeapSummary, top = 12): Array<{ kind: string; count: number; bytes: number }> {
  return [...after].map(([kind, a]) => {
    const b = before.get(kind) ?? { count: 0, bytes: 0 };
    return { kind, count: a.count - b.count, bytes: a.bytes - b.bytes };
  }).sort((x, y) => y.bytes - x.bytes).slice(0, top);
}
