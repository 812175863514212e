/**
 * A store outage (Redis or PostgreSQL unreachable) is the server's problem, not the client's, and
 * it is temporary: answer `503 Service Unavailable` with `Retry-After` and the RFC 6749 §5.2-shaped
 * body `{"error":"temporarily_unavailable"}` instead of a generic 500, inside and outside
 * oidc-provider. Other errors are left alone.
 */
import type Koa from 'koa';
import { sendOAuthError } from '../http/errors.js';
import { renderErrorPage } from '../interaction/templates.js';

/** Seconds a client should wait before retrying during an outage. */
export const OUTAGE_RETRY_AFTER = 5;

const OUTAGE_NAMES = new Set(['MaxRetriesPerRequestError', 'ClusterAllFailedError', 'ConnectionTimeoutError']);
const OUTAGE_MESSAGE =
  /Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Stream isn't writeable|Command timed out|Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|the database system is (starting up|shutting down|in recovery mode)|terminating connection/i;
/**
 * Error codes of an unreachable store: Node socket errors and PostgreSQL SQLSTATEs of class 08
 * (connection exception), 57P01–57P03 (admin shutdown, crash shutdown, cannot connect now) and
 * 57014 (statement timeout: the store did not answer in time).
 */
const OUTAGE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03', '57014', '08000', '08001', '08003', '08006']);

/** True when `err` (or its `cause`) says a store could not be reached (ioredis / pg connection errors). */
export function isStoreOutage(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 3) return false;
  const e = err as { name?: string; message?: string; code?: string; cause?: unknown; originalError?: unknown };
  if (OUTAGE_NAMES.has(e.name ?? '') || OUTAGE_MESSAGE.test(e.message ?? '') || OUTAGE_CODES.has(String(e.code ?? ''))) return true;
  return isStoreOutage(e.cause, depth + 1) || isStoreOutage(e.originalError, depth + 1);
}

/** The error_description / detail of every outage answer. */
export const OUTAGE_DESCRIPTION = 'a backing store is unreachable; retry shortly';

/**
 * The outage answer in the shape of the request's surface (issue #14): RFC 9457 problem+json on
 * `/api/v1`, an HTML page for people (interaction, operator and account pages), RFC 6749 §5.2
 * JSON everywhere else (OAuth endpoints, `/account/graphql`; `/mcp` renders its own JSON-RPC).
 */
export function answer503(ctx: Koa.Context): void {
  ctx.set('Retry-After', String(OUTAGE_RETRY_AFTER));
  ctx.set('Cache-Control', 'no-store');
  if (ctx.path.startsWith('/api/v1')) {
    ctx.status = 503;
    ctx.type = 'application/problem+json';
    ctx.body = JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: OUTAGE_DESCRIPTION, code: 'temporarily_unavailable' });
    return;
  }
  const page = /^\/(interaction|admin)(\/|$)|^\/account\/connections/.test(ctx.path);
  if (page || (ctx.method === 'GET' && ctx.accepts('json', 'html') === 'html' && !ctx.path.startsWith('/api/'))) {
    renderErrorPage(ctx, 'temporarily_unavailable', 'The service is briefly unavailable. Please try again in a few seconds.', 503);
    return;
  }
  sendOAuthError(ctx, 503, 'temporarily_unavailable', OUTAGE_DESCRIPTION);
}

/*
 * Inside oidc-provider its error handler renders 500 `server_error` first: the provider's
 * `server_error` listener and the `answerOutageAs503` step of every provider endpoint
 * (src/oauth/provider-hooks.ts) rewrite it with `answer503`.
 */

/** Outside oidc-provider (our routes): errors from a store outage become 503. */
export const outageMiddleware: Koa.Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (err) {
    if (!isStoreOutage(err)) throw err;
    answer503(ctx);
  }
};
