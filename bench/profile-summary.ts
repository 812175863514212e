/**
 * Summarises a V8 `.cpuprofile` (from BENCH_CPU_PROF): self time by package / source file and
 * function, top N; with `--inclusive`, total time (self + callees, each frame counted once per
 * sample) instead, which shows which of our functions a request's time goes through.
 * Usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [N] [--inclusive]
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const inclusive = process.argv.includes('--inclusive');
const file = args[0];
if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [N] [--inclusive]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n: Node) => {
  const url = n.callFrame.url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, 'nm:')
    .replace(/.*\/(src|adapters|bench)\//, '$1/');
  const where = inclusive ? `${url}:${n.callFrame.lineNumber + 1}` : url.split('/').slice(0, 3).join('/');
  return `${where || '(native)'} ${n.callFrame.functionName || '(anon)'}`;
};
const counts = new Map<string, number>();
for (const id of profile.samples) {
  if (!inclusive) {
    const key = label(byId.get(id)!);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    continue;
  }
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const key = label(byId.get(cur)!);
    if (seen.has(key)) continue;
    seen.add(key);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
}
const total = profile.samples.length;
for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, Number(args[1] ?? 30))) {
  process.stdout.write(`${((100 * n) / total).toFixed(1).padStart(5)}%  ${key}\n`);
}
