/**
 * An idle server stays idle: its main thread wakes a few times a second (the log's periodic flush,
 * the store's timers), not once per 10 ms. prom-client's event-loop delay monitor
 * (`monitorEventLoopDelay`) samples with a timer at `eventLoopMonitoringPrecision` ms; at its
 * default of 10 ms it woke an idle process ~100 times a second (src/ops/metrics.ts sets 100 ms).
 * Run as operators run it: the server in its own process; the main thread's voluntary context
 * switches (each one a sleep in the event loop's poll, i.e. one wake-up) read from Linux's
 * /proc/<pid>/task/<pid>/status over 3 s of no traffic.
 */
import { readFileSync } from 'node:fs';
import { spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

let server: SpawnedServer | undefined;
afterAll(() => server?.stop());

/** The main thread's voluntary context switches so far (Linux /proc). */
function mainThreadWakeups(pid: number): number {
  const status = readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8');
  return Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)![1]);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('an idle server wakes its main thread fewer than 50 times a second', async () => {
  server = await spawnServer();
  const pid = server.child.pid!;
  // Past the start's last steps. The first retention purge (5 s after start, one statement on an
  // empty trail) may fall in the window: a few wake-ups of the 150 allowed.
  await sleep(1_000);

  const before = mainThreadWakeups(pid);
  const started = performance.now();
  await sleep(3_000);
  const perSecond = (mainThreadWakeups(pid) - before) / ((performance.now() - started) / 1000);
  // ~15-20 here; ~100 with prom-client's default 10 ms event-loop sampling.
  expect(perSecond).toBeLessThan(50);
}, 60_000);
