/**
 * A store outage (Redis or PostgreSQL unreachable) is the server's problem, not the client's, and
 * it is temporary: answer `503 Service Unavailable` with `Retry-After` (issue #14) instead of a
 * generic 500, inside and outside oidc-provider, in the shape of the request's surface
 * (`ctx.state.route.spec.surface`) through the one error renderer (src/errors/render.ts):
 * problem+json on `/api/v1`, JSON-RPC on `/mcp`, an HTML page for people, RFC 6749 §5.2 JSON
 * `{"error":"temporarily_unavailable"}` on the OAuth endpoints. Other errors are left alone.
 */
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import { TemporarilyUnavailable } from '../errors/catalogue.js';
import { isStoreOutage } from '../errors/outage.js';
import type { ErrorRenderer } from '../errors/render.js';

export { isStoreOutage } from '../errors/outage.js';
export { OUTAGE_DESCRIPTION, OUTAGE_RETRY_AFTER } from '../errors/catalogue.js';

/**
 * Inside oidc-provider: its error handler has already rendered 500 `server_error`; rewrite it.
 * @param render the app's error renderer (`errorRenderer`)
 */
export function installOutageHandling(provider: Provider, render: ErrorRenderer): void {
  const OUTAGE = Symbol('storeOutage');
  provider.on('server_error', (ctx, err) => {
    if (isStoreOutage(err)) (ctx as unknown as Record<symbol, boolean>)[OUTAGE] = true;
  });
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status === 500 && (ctx as unknown as Record<symbol, boolean>)[OUTAGE]) render(ctx as unknown as Koa.Context, new TemporarilyUnavailable());
  });
}

/**
 * Outside oidc-provider (our routes): errors from a store outage become 503, rendered here so the
 * steps around (metrics) see the answer, not an exception.
 * @param render the app's error renderer (`errorRenderer`)
 */
export function outageMiddleware(render: ErrorRenderer): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (!isStoreOutage(err)) throw err;
      render(ctx, new TemporarilyUnavailable());
    }
  };
}
