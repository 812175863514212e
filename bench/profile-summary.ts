/**
 * Summarises a V8 `.cpuprofile` (from BENCH_CPU_PROF): self time by package / source file, top N.
 * Usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [N]
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
  hitCount?: number;
}
const file = process.argv[2];
if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [N]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const counts = new Map<string, number>();
for (const id of profile.samples) {
  const n = byId.get(id)!;
  const url = n.callFrame.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, 'nm:');
  const key = `${url.split('/').slice(0, 3).join('/') || '(native)'} ${n.callFrame.functionName || '(anon)'}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
const total = profile.samples.length;
for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 30))) {
  process.stdout.write(`${((100 * n) / total).toFixed(1).padStart(5)}%  ${key}\n`);
}
