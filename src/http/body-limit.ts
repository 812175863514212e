/**
 * DESIGN.md D7: request bodies over 64 KiB are refused with `413` and an RFC 6749 §5.2-shaped body
 * (`invalid_request`).
 *
 * - A declared `Content-Length` over the limit is refused before anything reads the body.
 * - A body without `Content-Length` (chunked) is read here, up to the limit, for the paths whose
 *   handlers would otherwise read the stream without a cap (`/account/graphql`); the text is left on
 *   `req.body`, where GraphQL Yoga (and oidc-provider) pick it up. A declared length cannot be
 *   exceeded (Node's HTTP parser stops at it), and the interaction forms have their own 64 KiB cap.
 */
import type Koa from 'koa';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { HttpError, sendOAuthError } from './errors.js';

/** Largest accepted request body, in bytes. */
export const MAX_BODY_BYTES = 64 * 1024;

const TOO_LARGE = `request body too large (limit ${MAX_BODY_BYTES / 1024} KiB)`;

/**
 * Reads the whole body (at most MAX_BODY_BYTES) and leaves it on `req.body` as a string.
 * @throws HttpError 413 when the body is larger
 */
export async function bufferBody(ctx: Context): Promise<string> {
  // raw-body (the reader of Koa's and Express's body parsers) rather than `for await` over the
  // request: the async-iterator path costs ~50 µs per request, a third of a token request's budget.
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES, encoding: 'utf8' });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') throw new HttpError(413, 'invalid_request', TOO_LARGE, { Connection: 'close' });
    throw new HttpError(400, 'invalid_request', 'the request body could not be read');
  }
  (ctx.req as unknown as { body?: string }).body = text;
  return text;
}

/**
 * The 413 middleware.
 * @param bufferChunkedOn paths whose chunked bodies are read (and capped) here
 * @param ownLimit paths that enforce the same limit themselves with a protocol-shaped answer
 *   (`/mcp` answers 413 with a JSON-RPC error body, src/resource/mcp/body.ts)
 */
export function bodyLimit(bufferChunkedOn: readonly string[] = ['/account/graphql'], ownLimit: readonly string[] = ['/mcp']): Koa.Middleware {
  const buffered = new Set(bufferChunkedOn);
  const own = new Set(ownLimit);
  return async (ctx, next) => {
    if (own.has(ctx.path)) return next();
    const declared = ctx.get('content-length');
    if (Number(declared || 0) > MAX_BODY_BYTES) {
      ctx.set('Connection', 'close');
      return sendOAuthError(ctx, 413, 'invalid_request', TOO_LARGE);
    }
    if (!declared && ctx.get('transfer-encoding') && buffered.has(ctx.path)) await bufferBody(ctx);
    return next();
  };
}
