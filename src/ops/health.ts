/**
 * Liveness and readiness (operator guide, docs/deployment.md):
 *
 * - `GET /healthz`: the process serves HTTP (200 `{"status":"ok"}`); for restarts by the
 *   orchestrator. It never touches a store, so a store outage does not restart every process.
 * - `GET /readyz` (issue #28, DESIGN D12): whether THIS process takes traffic: it is started, not
 *   draining (SIGTERM), and none of its own connections is faulty (a Redis connection left on a
 *   node a failover made read-only). 200 `{"status":"ready","checks":{…}}`, else 503
 *   `{"status":"unavailable","checks":{"process":"draining"}}`. The shared stores are probed too
 *   (Redis PING, SQL `select 1`) and reported in `checks` (`"postgres":"down: …"`), but their
 *   outage does not fail readiness: every process sees it alike, and a process that still serves
 *   discovery, JWKS and whatever needs only the other store must stay in rotation; requests that
 *   need the missing store answer 503 + `Retry-After` one by one (src/ops/store-outage.ts).
 *
 * `/readyz` answers from the last results of probes that run in the background (every
 * {@link PROBE_INTERVAL_MS}, each on its own schedule, so one slow store never delays another's),
 * never from a probe run for the request: a balancer's check gets its answer at once (well under
 * 100 ms) whatever the stores do, and a stalled store can never make every process miss its check
 * timeout together. The Redis probe has a connection of its own (src/store/stores.ts), so its
 * `PING` never queues behind a `WAIT` of the request traffic.
 */
import type { Context } from 'koa';

/** How often each probe runs, ms. */
export const PROBE_INTERVAL_MS = 1000;

/** Readiness state of one process. */
export interface Readiness {
  /** Set at graceful shutdown: /readyz answers 503 so load balancers stop sending traffic. */
  draining: boolean;
  /** Koa handler of `/readyz`: answers from the probes' last results (no store is touched). */
  handler(ctx: Context): Promise<void>;
  /** Ends the background probes (at close, before the stores close); resolves when none runs any more. */
  stop(): Promise<void>;
}

/**
 * Starts the background probes and returns the readiness state.
 * @param probes store name → probe that rejects when the store is unreachable (reported only);
 *   each should bound its own time (the next run waits for it)
 * @param localFaults name → check of this process's own connection, resolving to a reason when it
 *   must leave rotation (fails readiness), undefined when fine
 * @param intervalMs pause between two runs of one probe, ms
 * @param instantFaults name → synchronous check of this process's own state, read at every answer
 *   (a reason fails readiness at once, without waiting for the next background run)
 */
export function createReadiness(
  probes: Record<string, () => Promise<void>>,
  localFaults: Record<string, () => Promise<string | undefined>> = {},
  intervalMs = PROBE_INTERVAL_MS,
  instantFaults: Record<string, () => string | undefined> = {},
): Readiness {
  /** Last result per probe: `up` or `down: …`. */
  const reports = new Map<string, string>();
  /** Last reason per local fault (absent = fine). */
  const faults = new Map<string, string>();
  let stopped = false;
  const pause = () =>
    new Promise<void>((resolve) => {
      setTimeout(resolve, intervalMs).unref();
    });
  const every = async (run: () => Promise<void>) => {
    while (!stopped) {
      await run();
      await pause();
    }
  };
  const firstRuns: Promise<void>[] = [];
  /** Probe runs in progress (awaited by stop, so that no probe touches a closed store). */
  const running = new Set<Promise<void>>();
  const tracked = (run: () => Promise<void>) => () => {
    if (stopped) return Promise.resolve();
    const p = run();
    running.add(p);
    return p.finally(() => running.delete(p));
  };
  const start = (untracked: () => Promise<void>) => {
    const run = tracked(untracked);
    const first = run();
    firstRuns.push(first);
    void first.then(async () => {
      await pause();
      await every(run);
    });
  };
  for (const [name, probe] of Object.entries(probes))
    start(async () => {
      try {
        await probe();
        reports.set(name, 'up');
      } catch (err) {
        reports.set(name, `down: ${(err as Error).message}`);
      }
    });
  for (const [name, check] of Object.entries(localFaults))
    start(async () => {
      const fault = await check().catch(() => undefined);
      if (fault) faults.set(name, fault);
      else faults.delete(name);
    });
  const settled = Promise.all(firstRuns);
  let ranOnce = false;
  void settled.then(() => (ranOnce = true));

  const state: Readiness = {
    draining: false,
    async handler(ctx) {
      // Only the very first answer after start waits for the first probes (bounded by each probe).
      if (!ranOnce) await settled;
      const checks: Record<string, string> = Object.fromEntries(reports);
      for (const [name, fault] of faults) checks[name] = fault;
      let instant = 0;
      for (const [name, check] of Object.entries(instantFaults)) {
        const fault = check();
        if (!fault) continue;
        checks[name] = fault;
        instant++;
      }
      if (state.draining) checks.process = 'draining';
      const ready = !state.draining && faults.size === 0 && instant === 0;
      ctx.set('Cache-Control', 'no-store');
      ctx.status = ready ? 200 : 503;
      ctx.body = { status: ready ? 'ready' : 'unavailable', checks };
    },
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
  return state;
}
