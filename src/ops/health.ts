/**
 * Liveness and readiness (operator guide, docs/deployment.md):
 *
 * - `GET /healthz`: the process serves HTTP (200 `{"status":"ok"}`); for restarts by the
 *   orchestrator. It never touches a store, so a store outage does not restart every process.
 * - `GET /readyz`: every store answers (Redis PING, SQL `select 1`) within its timeout and the
 *   process is not draining: 200 `{"status":"ready","checks":{…}}`, else 503
 *   `{"status":"unavailable","checks":{"redis":"down: …"}}`; for load balancers.
 */
import type { Context } from 'koa';

/** Readiness state of one process. */
export interface Readiness {
  /** Set at graceful shutdown: /readyz answers 503 so load balancers stop sending traffic. */
  draining: boolean;
  /** Koa handler of `/readyz`. */
  handler(ctx: Context): Promise<void>;
}

/**
 * @param probes store name → probe that rejects when the store is unreachable
 */
export function createReadiness(probes: Record<string, () => Promise<void>>): Readiness {
  const state: Readiness = {
    draining: false,
    async handler(ctx) {
      const results = await Promise.all(
        Object.entries(probes).map(async ([name, probe]) => {
          try {
            await probe();
            return [name, 'up'] as const;
          } catch (err) {
            return [name, `down: ${(err as Error).message}`] as const;
          }
        }),
      );
      const checks: Record<string, string> = Object.fromEntries(results);
      if (state.draining) checks.process = 'draining';
      const ready = !state.draining && results.every(([, r]) => r === 'up');
      ctx.set('Cache-Control', 'no-store');
      ctx.status = ready ? 200 : 503;
      ctx.body = { status: ready ? 'ready' : 'unavailable', checks };
    },
  };
  return state;
}
