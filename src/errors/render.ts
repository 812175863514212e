/**
 * The one error renderer (issue #9): classifies what was thrown with the catalogue, logs faults
 * (never a token, secret or stack in a body), and hands the result to the mapper of the request's
 * surface (`ctx.state.route.spec.surface`, src/http/route-table.ts). Requests with no route are
 * answered on the OAuth surface (a browser navigation to one: the HTML 404 page); a browser navigation (GET preferring HTML) to a public OAuth-surface
 * route (`auth: none`, e.g. `/oauth/authorize`) gets the HTML page.
 */
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { ROUTE_TABLE, type Surface } from '../http/route-table.js';
import { classify, ServerError, type HttpError } from './catalogue.js';
import { renderOAuth } from './surfaces/oauth.js';
import { renderHtml } from './surfaces/html.js';
import { renderProblem } from './surfaces/problem.js';
import { renderGraphql } from './surfaces/graphql.js';
import { renderJsonRpc } from './surfaces/jsonrpc.js';

/** What the mappers need from the composition root. */
export interface RenderEnv {
  /** DOCS_URL: problem `type` links docs/admin-api.md. */
  docsUrl: string;
  logger?: Logger;
}

/** Renders an error on `ctx`; never throws. */
export type ErrorRenderer = (ctx: Context, err: unknown) => void;

/** The mapper of each surface. */
export const SURFACES: Record<Surface, (ctx: Context, err: HttpError, env: RenderEnv) => void> = {
  oauth: (ctx, err) => renderOAuth(ctx, err),
  problem: (ctx, err, env) => renderProblem(ctx, err, env.docsUrl),
  graphql: (ctx, err) => renderGraphql(ctx, err),
  jsonrpc: (ctx, err) => renderJsonRpc(ctx, err),
  html: (ctx, err) => renderHtml(ctx, err),
};

/**
 * First path segments (upper case) under which every row of the route table is an HTML page
 * (`/docs`, `/interaction`, `/admin`, …): a path there that no row serves is a mistyped page
 * address (`/docs//mcp.md`), answered with the HTML 404 page like its neighbours.
 */
const HTML_PREFIXES: ReadonlySet<string> = (() => {
  const surfaces = new Map<string, Set<Surface>>();
  for (const row of ROUTE_TABLE) {
    const first = row.path.split('/')[1]?.toUpperCase() ?? '';
    if (!surfaces.has(first)) surfaces.set(first, new Set());
    surfaces.get(first)!.add(row.surface);
  }
  return new Set([...surfaces].filter(([first, s]) => first !== '' && s.size === 1 && s.has('html')).map(([f]) => f));
})();

/** The surface whose mapper renders this request's errors. */
export function surfaceOf(ctx: Context): Surface {
  const spec = ctx.state.route?.spec;
  const browserNavigation = (ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.accepts('json', 'html') === 'html';
  // Issue 30 item 9: an unknown path opened in a browser is an HTML 404 page; API clients keep
  // JSON, except under a prefix of HTML pages only (`HTML_PREFIXES`).
  if (!spec)
    return browserNavigation || HTML_PREFIXES.has(ctx.path.split('/')[1]?.toUpperCase() ?? '') ? 'html' : 'oauth';
  if (spec.surface === 'oauth' && spec.auth.kind === 'none' && browserNavigation) return 'html';
  return spec.surface;
}

/**
 * Renders `err` on `surface` (default: the request's). Unknown errors are logged (type and message
 * only) and answered 500 `server_error` with the request id. Nothing is written once the response
 * headers are sent.
 */
export function renderError(ctx: Context, err: unknown, env: RenderEnv, surface: Surface = surfaceOf(ctx)): void {
  let known = classify(err);
  if (!known) {
    env.logger?.error(
      { req_id: ctx.state.requestId, surface, err: { type: (err as Error)?.name, message: (err as Error)?.message } },
      'unhandled error',
    );
    known = new ServerError();
  }
  // A streamed answer that already started cannot change its status: leave the socket to Koa.
  if (ctx.headerSent) return;
  SURFACES[surface](ctx, known, env);
}

/** `renderError` bound to the composition root's settings. */
export function errorRenderer(env: RenderEnv): ErrorRenderer {
  return (ctx, err) => renderError(ctx, err, env);
}
