/**
 * Summarises a V8 `.heapsnapshot` (from BENCH_HEAP_SNAPSHOT): total self size, and the top N
 * groups by self size, grouped by node type and constructor / string kind (what Chrome DevTools'
 * "Summary" view shows, without retained sizes). Comparing the snapshot after start with the one
 * after the bench shows what grew.
 * Usage: npx tsx bench/heap-summary.ts <file.heapsnapshot> [N]
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

const [file, n = '40'] = process.argv.slice(2);
if (!file) throw new Error('usage: heap-summary <file.heapsnapshot> [N]');
const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const fields = snap.snapshot.meta.node_fields;
const types = snap.snapshot.meta.node_types[0];
const width = fields.length;
const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
  number,
  number,
  number,
];
const groups = new Map<string, { size: number; count: number }>();
let total = 0;
for (let i = 0; i < snap.nodes.length; i += width) {
  const type = types[snap.nodes[i + typeAt]!]!;
  const size = snap.nodes[i + sizeAt]!;
  total += size;
  // Strings, code and arrays are grouped by type; objects and closures by constructor / name.
  const name = ['object', 'closure', 'native', 'hidden', 'object shape'].includes(type)
    ? snap.strings[snap.nodes[i + nameAt]!]!.slice(0, 60)
    : '';
  const key = `${type} ${name}`.trim();
  const g = groups.get(key) ?? { size: 0, count: 0 };
  g.size += size;
  g.count += 1;
  groups.set(key, g);
}
const mb = (b: number) => (b / 1024 / 1024).toFixed(2);
process.stdout.write(`total self size ${mb(total)} MB in ${snap.nodes.length / width} nodes\n`);
for (const [key, g] of [...groups].sort((a, b) => b[1].size - a[1].size).slice(0, Number(n))) {
  process.stdout.write(`${mb(g.size).padStart(8)} MB ${String(g.count).padStart(8)}  ${key}\n`);
}
