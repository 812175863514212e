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
 * @param probes store name → probe that rejects when the store is unreachable (reported only)
 * @param localFaults name → check of this process's own connection, resolving to a reason when it
 *   must leave rotation (fails readiness), undefined when fine
 */
export function createReadiness(
  probes: Record<string, () => Promise<void>>,
  localFaults: Record<string, () => Promise<string | undefined>> = {},
): Readiness {
  const state: Readiness = {
    draining: false,
    async handler(ctx) {
      const [results, faults] = await Promise.all([
        Promise.all(
          Object.entries(probes).map(async ([name, probe]) => {
            try {
              await probe();
              return [name, 'up'] as const;
            } catch (err) {
              return [name, `down: ${(err as Error).message}`] as const;
            }
          }),
        ),
        Promise.all(
          Object.entries(localFaults).map(
            async ([name, check]) => [name, await check().catch(() => undefined)] as const,
          ),
        ),
      ]);
      const checks: Record<string, string> = Object.fromEntries(results);
      for (const [name, fault] of faults) if (fault) checks[name] = fault;
      if (state.draining) checks.process = 'draining';
      const ready = !state.draining && faults.every(([, f]) => !f);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = ready ? 200 : 503;
      ctx.body = { status: ready ? 'ready' : 'unavailable', checks };
    },
  };
  return state;
}
