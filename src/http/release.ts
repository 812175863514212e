/**
 * Lets a finished request's objects die young (issue #15, memory; docs/deployment.md §2 "Memory").
 *
 * oidc-provider 9 gives every request of its routes a `ctx.oidc` getter of its own
 * (lib/helpers/initialize_app.js, `ensureOIDC`: `Object.defineProperty(ctx, 'oidc', { get: () => … })`,
 * a new closure over `ctx`, the lazily built `OIDCContext` and the router's `next`). V8 allocates
 * the accessor pair that holds such a getter in the old generation, so the young closure is
 * reachable from old space: every scavenge keeps it and all it reaches (the Koa context, its
 * `IncomingMessage` and `ServerResponse`, the `OIDCContext` with its models) until the next full
 * mark-compact, promoting ~5 KB per request into the old generation. Under load that filled the
 * old generation with ~1 MB of garbage per scavenge (RSS 150 → 320–340 MB after the bench; the bare
 * provider the same) and doubled the scavenges' copying. The getter cannot be changed from outside,
 * so once the answer has been written the context lets go of what it reaches: the retained closure
 * then keeps a few empty objects alive instead of the request.
 */
import type Koa from 'koa';
import { releaseOidcContext } from '../engine/oidc-provider.js';

/**
 * Empties `ctx` and, when oidc-provider defined one, its `OIDCContext` (own properties set to
 * `undefined`) once `ctx.res` has emitted `finish` (the whole answer handed to the socket, after
 * Koa's `respond`). Not on `close` alone: an aborted request may still be running its pipeline.
 * Call it from the outermost middleware, after the last step that reads `ctx` (access log,
 * metrics); a response that has already finished at that point (a handler that wrote to `ctx.res`
 * itself) is left alone, since Koa's `respond` still reads the context after the middleware.
 * @param ctx the request's Koa context; nothing may read it after its response finished
 */
export function releaseWhenFinished(ctx: Koa.Context): void {
  const res = ctx.res;
  if (res.writableFinished) return;
  res.once('finish', () => release(ctx));
}

/** Sets every own enumerable property of `o` to `undefined` (read-only ones are skipped). */
function empty(o: object): void {
  for (const key of Object.keys(o)) Reflect.set(o, key, undefined);
}

function release(ctx: Koa.Context): void {
  // oidc-provider's `ctx.oidc` getter (an engine assumption, src/engine/oidc-provider.ts).
  releaseOidcContext(ctx, empty);
  empty(ctx);
}
