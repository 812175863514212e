/**
 * A store outage (Redis or PostgreSQL unreachable) is the server's problem, not the client's, and
 * it is temporary: answer `503 Service Unavailable` with `Retry-After` (issue #14) instead of a
 * generic 500, inside and outside oidc-provider, in the shape of the request's surface
 * (`ctx.state.route.spec.surface`) through the one error renderer (src/errors/render.ts):
 * problem+json on `/api/v1`, JSON-RPC on `/mcp`, an HTML page for people, RFC 6749 §5.2 JSON
 * `{"error":"temporarily_unavailable"}` on the OAuth endpoints. Other errors are left alone.
 *
 * Outside oidc-provider (our routes) no step of its own is needed: the edge (src/app.ts) renders a
 * thrown store outage through the same renderer, whose `classify` makes it `TemporarilyUnavailable`
 * (503), and the request metrics count it as 503.
 */
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import { TemporarilyUnavailable } from '../errors/catalogue.js';
import { isStoreOutage } from '../errors/outage.js';
import type { ErrorRenderer } from '../errors/render.js';

export { isStoreOutage } from '../errors/outage.js';
export { OUTAGE_DESCRIPTION, OUTAGE_RETRY_AFTER } from '../errors/catalogue.js';

/** Marks a request whose provider `server_error` was a store outage (read by `answerOutageAs503`). */
const OUTAGE = Symbol('storeOutage');

/**
 * Provider hook (declared by `declareProviderHooks`, src/oauth/provider-hooks.ts): remembers that a
 * request's `server_error` inside oidc-provider was a store outage.
 */
export function rememberOutages(provider: Provider): void {
  provider.on('server_error', (ctx, err) => {
    if (isStoreOutage(err)) (ctx as unknown as Record<symbol, boolean>)[OUTAGE] = true;
  });
}

/**
 * Step of every provider endpoint, around `handToProvider` (src/pipelines/oauth.ts): oidc-provider's
 * error handler has already rendered 500 `server_error` for a store outage; answer 503 +
 * Retry-After in the surface's shape instead.
 * @param render the app's error renderer (`errorRenderer`)
 */
export function answerOutageAs503(render: ErrorRenderer): Koa.Middleware {
  return async function answerOutageAs503(ctx, next) {
    await next();
    if (ctx.status === 500 && (ctx as unknown as Record<symbol, boolean>)[OUTAGE])
      render(ctx, new TemporarilyUnavailable());
  };
}
