/**
 * Process helpers shared by the benches (bench/run.ts, bench/cpu-per-request.ts): readiness,
 * stopping, and what Linux /proc says of a server process.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync, type ChildProcess } from 'node:child_process';
import os from 'node:os';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Ticks per second of /proc/<pid>/stat's CPU fields (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * Keeps the load generator (this process, every thread it has now and the ones it starts later)
 * off CPU 0, where the benches pin the servers they measure (`taskset -c 0`). Unpinned, Linux is
 * free to run autocannon on the measured server's core, and then a request's CPU time includes
 * the context switches and cache misses of sharing it. This does not remove the run-to-run drift of
 * the figures on a shared 2-CPU machine: pinned, bare oidc-provider's introspection still read 197
 * to 416 µs per request in runs of the same code (docs/performance-log.md, "Seventh pass").
 * @returns the CPU list the load generator now runs on (e.g. `"1"` or `"1-3"`), or `undefined`
 *   when `taskset` is missing or the machine has one CPU (then nothing is changed)
 */
export function pinLoadGeneratorOffCpu0(): string | undefined {
  const cpus = os.availableParallelism();
  if (cpus < 2) return undefined;
  const list = cpus === 2 ? '1' : `1-${cpus - 1}`;
  const done = spawnSync('taskset', ['-a', '-p', '-c', list, String(process.pid)], { stdio: 'ignore' });
  return done.status === 0 ? list : undefined;
}

/** user + system CPU time a process has used so far, in milliseconds (/proc/<pid>/stat). */
export function cpuMs(pid: number): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Resident set size of a process in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/**
 * Waits until `GET <origin>/healthz` answers 2xx (every 100 ms, at most 60 s).
 * @throws Error when the process exits first or 60 s pass
 */
export async function waitReady(origin: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${origin}/healthz`);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server not ready after 60 s');
}

/** Sends SIGTERM (the server drains) and waits for the exit. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function dockerfileLines(): string[] {
  return readFileSync(path.join(root, 'Dockerfile'), 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/**
 * The production start's node arguments, read from the Dockerfile's `CMD ["node", …]` (the V8
 * flags chosen for production, docs/deployment.md "Memory"), so a bench measures what ships
 * (`BENCH_PROD=1`; `npm run build` first).
 * @throws Error when the Dockerfile's CMD is not `node … dist/src/main.js`
 */
export function productionCommand(): string[] {
  const line = dockerfileLines().find((l) => l.startsWith('CMD '));
  const cmd = line ? (JSON.parse(line.slice(4)) as string[]) : [];
  if (cmd[0] !== 'node' || !cmd.includes('dist/src/main.js'))
    throw new Error(`Dockerfile CMD is not \`node … dist/src/main.js\`: ${line}`);
  return cmd.slice(1);
}

/**
 * The runtime stage's `ENV KEY=value …` settings (the last `FROM` onwards; e.g. MALLOC_ARENA_MAX,
 * docs/deployment.md "Memory"): the production start gets them, under the bench's own PORT,
 * DATA_DIR and NODE_ENV.
 */
export function productionEnv(): Record<string, string> {
  const lines = dockerfileLines();
  const runtime = lines.slice(lines.findLastIndex((l) => l.startsWith('FROM ')));
  const pairs = runtime.filter((l) => l.startsWith('ENV ')).flatMap((l) => l.slice(4).trim().split(/\s+/));
  return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
}
