/**
 * Process helpers shared by the benches (bench/run.ts, bench/cpu-per-request.ts): readiness,
 * stopping, and what Linux /proc says of a server process.
 */
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';

/** Ticks per second of /proc/<pid>/stat's CPU fields (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

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
