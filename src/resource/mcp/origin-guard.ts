/**
 * DNS-rebinding protection of `/mcp` (MCP 2025-11-25 Streamable HTTP, "Security Warning": servers
 * MUST validate `Origin`; local servers SHOULD check `Host`):
 * - an `Origin` header, when present, must be BASE_URL's origin;
 * - when BASE_URL is a loopback host, `Host` must be BASE_URL's host (a rebinding page reaches a
 *   local server under its own name). Public deployments sit behind proxies that may rewrite
 *   `Host`, so there only `Origin` is checked.
 * Refusals are 403 with a JSON-RPC error body.
 */
import type { Middleware } from 'koa';
import { JsonRpcHttpError } from './errors.js';
import { isLoopbackHost } from '../../http/loopback.js';

/** The middleware for one BASE_URL. */
export function originGuard(baseUrl: string): Middleware {
  const base = new URL(baseUrl);
  const checkHost = isLoopbackHost(base.hostname);
  return async (ctx, next) => {
    const origin = ctx.get('origin');
    if (origin && origin !== base.origin)
      throw new JsonRpcHttpError(403, -32000, `Forbidden: Origin ${origin.slice(0, 100)} is not allowed`);
    // The Host as sent: `ctx.host` is pinned to BASE_URL (src/http/origin.ts, DESIGN D7).
    const sent = String((ctx.state as { sentHost?: unknown }).sentHost ?? ctx.get('host'));
    if (checkHost && sent.toLowerCase() !== base.host)
      throw new JsonRpcHttpError(403, -32000, 'Forbidden: Host header does not name this server');
    await next();
  };
}
