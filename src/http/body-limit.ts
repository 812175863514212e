/**
 * DESIGN.md D7: request bodies over the route's limit (64 KiB) are refused with `413` and an
 * RFC 6749 §5.2-shaped body (`invalid_request`). Driven by the route table (`ctx.state.route`,
 * src/http/route-table.ts), so every spelling of a route has the same limit.
 *
 * - A declared `Content-Length` over the limit is refused before anything reads the body (unless
 *   the route's handler answers 413 in its own surface's shape: `/mcp`, JSON-RPC).
 * - Routes whose body reader is `buffer` have their body read here, up to the limit, also when
 *   chunked; the text is left on `req.body`, where oidc-provider and GraphQL Yoga pick it up.
 *   Routes whose reader is `handler` read it themselves with the same limit.
 */
import type Koa from 'koa';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { HttpError } from './errors.js';
import { MAX_BODY_BYTES } from './route-table.js';

export { MAX_BODY_BYTES };

const tooLarge = (limit: number) => `request body too large (limit ${limit / 1024} KiB)`;

/** The route's body limit in bytes (the default for unrouted requests). */
export const bodyLimitOf = (ctx: Context): number => ctx.state.route?.spec.body?.limit ?? MAX_BODY_BYTES;

/**
 * Reads the whole body (at most the route's limit) once and leaves it on `req.body` as a string;
 * a second call returns the same text.
 * @throws HttpError 413 when the body is larger, 400 when it cannot be read
 */
export async function bufferBody(ctx: Context): Promise<string> {
  const req = ctx.req as unknown as { body?: unknown };
  if (typeof req.body === 'string') return req.body;
  const limit = bodyLimitOf(ctx);
  // raw-body (the reader of Koa's and Express's body parsers) rather than `for await` over the
  // request: the async-iterator path costs ~50 µs per request, a third of a token request's budget.
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit, encoding: 'utf8' });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') throw new HttpError(413, 'invalid_request', tooLarge(limit), { Connection: 'close' });
    throw new HttpError(400, 'invalid_request', 'the request body could not be read');
  }
  req.body = text;
  return text;
}

/** The 413 step of every route (reads `ctx.state.route`). */
export function bodyLimit(): Koa.Middleware {
  return async (ctx, next) => {
    const policy = ctx.state.route?.spec.body;
    if (policy?.ownTooLarge) return next();
    const limit = policy?.limit ?? MAX_BODY_BYTES;
    const declared = ctx.get('content-length');
    if (Number(declared || 0) > limit) {
      // Rendered by the route's surface (src/app.ts renderError): JSON, or the HTML error page.
      throw new HttpError(413, 'invalid_request', tooLarge(limit), { Connection: 'close' });
    }
    if (policy?.reader === 'buffer' && !declared && ctx.get('transfer-encoding') && ctx.method !== 'GET' && ctx.method !== 'HEAD') await bufferBody(ctx);
    return next();
  };
}
