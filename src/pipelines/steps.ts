/**
 * The steps several families share, built once from the services (src/compose.ts):
 *
 * - `limitBody`: DESIGN D7 413 on the row's body limit; reads chunked bodies of `buffer` rows
 *   (src/http/body-limit.ts). Only on rows that take a body, and skipped for GET/HEAD.
 * - `limitByClient` / `limitByIp`: DESIGN D7 rate limits of the row's policy, a point reserved
 *   before the work (src/http/rate-limits.ts): client_id + IP with a client-wide ceiling, or IP.
 * - `handToProvider`: oidc-provider (mounted at the root, same context) answers the request.
 */
import mount from 'koa-mount';
import type Koa from 'koa';
import { bodyLimit } from '../http/body-limit.js';
import type { Services } from '../compose.js';
import type { Step } from './pipeline.js';

/** The shared steps (named so a pipeline reads as a list of names). */
export interface SharedSteps {
  limitBody: Step;
  limitByClient: Step;
  limitByIp: Step;
  handToProvider: Step;
}

/** Builds the shared steps once. */
export function sharedSteps(services: Services): SharedSteps {
  // GET and HEAD carry no body anything reads: no body step for them.
  const limitBody = bodyLimit();
  // One middleware applies the row's policy (`ctx.state.route.spec.rateLimit`): client+ip or ip.
  const limitRate = services.limits.middleware;
  return {
    limitBody: (ctx, next) => (ctx.method === 'GET' || ctx.method === 'HEAD' ? next() : limitBody(ctx, next)),
    limitByClient: limitRate,
    limitByIp: limitRate,
    handToProvider: mount(services.provider as unknown as Koa),
  };
}
