/**
 * Preload that finds SQLite statements re-prepared at every run (issue #15).
 *
 * On this SQLite build a statement whose plan search looked at a bound value (a join, an ORDER BY
 * over a non-unique index, LIKE, LIMIT ?, …) is marked "re-prepare when rebound"; better-sqlite3
 * clears the bindings after every run (`sqlite3_clear_bindings`), which expires such a statement,
 * so SQLite re-prepares it at its next run, and better-sqlite3 then compiles a new row factory
 * (`Function(...)`, keyed by the result columns) for it. One such statement cost ~14 µs in
 * isolation and far more in the server (the recompiled function, its source map in tsx).
 *
 * This preload counts every `Function(...)` compilation by its source; a row factory
 * `(v0,v1) => ({"col":v0,…})` counted once per request names the columns of a statement that
 * is re-prepared at every run. Give the planner nothing to weigh: the embedded store binds every
 * parameter behind SQLite's no-op unary plus (`+?`, src/store/database.ts and
 * adapters/sqlite-plans.ts), with which joins keep their plan too (src/platform/accounts.ts
 * `liveMemberAt` is a join again since issue #15's eighth pass); sort in JS where an ORDER BY
 * would still weigh a value.
 *
 * Usage: node --import ./bench/statement-recompiles.mjs --import tsx src/main.ts (or dist/src/main.js),
 * send requests, then read /tmp/statement-recompiles-<pid>.txt (rewritten every 2 s and at exit:
 * count, tab, the first 160 characters of the compiled source).
 */
import { writeFileSync } from 'node:fs';

const counts = new Map();
const Original = globalThis.Function;
function Counting(...args) {
  const source = String(args[args.length - 1] ?? '').slice(0, 160);
  counts.set(source, (counts.get(source) ?? 0) + 1);
  return Original(...args);
}
Counting.prototype = Original.prototype;
globalThis.Function = Counting;

const file = `/tmp/statement-recompiles-${process.pid}.txt`;
const dump = () => {
  const lines = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 40)
    .map(([source, n]) => `${n}\t${source.replace(/\s+/g, ' ')}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
};
process.on('exit', dump);
setInterval(dump, 2000).unref();
