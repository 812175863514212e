/**
 * DESIGN.md D7: the body step of every route. Request bodies over the route's limit are refused
 * with `413` (`bodyTooLarge`, rendered by the route's surface). Driven by the route table
 * (`ctx.state.route`, src/http/route-table.ts), so every spelling of a route has the same limit.
 *
 * - A declared `Content-Length` over the limit is refused before anything reads the body (unless
 *   the route's handler answers 413 in its own surface's shape: `/mcp`, JSON-RPC).
 * - Routes whose body reader is `buffer` have a chunked body read here (`readText`, src/http/body.ts),
 *   up to the limit; the text is left on `req.body`, where oidc-provider and GraphQL Yoga pick it up.
 *   Routes whose reader is `handler` read it themselves through the same module.
 */
import type Koa from 'koa';
import { bodyLimitOf, bodyTooLarge, readText } from './body.js';

/** The 413 step of every route (reads `ctx.state.route`). */
export function bodyLimit(): Koa.Middleware {
  return async (ctx, next) => {
    const policy = ctx.state.route?.spec.body;
    if (policy?.ownTooLarge) return next();
    const limit = bodyLimitOf(ctx);
    const declared = ctx.get('content-length');
    // Rendered by the route's surface (src/app.ts renderError): JSON, or the HTML error page.
    if (Number(declared || 0) > limit) throw bodyTooLarge(limit);
    if (
      policy?.reader === 'buffer' &&
      !declared &&
      ctx.get('transfer-encoding') &&
      ctx.method !== 'GET' &&
      ctx.method !== 'HEAD'
    )
      await readText(ctx);
    return next();
  };
}
