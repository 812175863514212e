/**
 * Pipelines of the operational and metadata routes: `/healthz`, `/readyz`, `/metrics`,
 * RFC 9728 protected-resource metadata, `/openapi.json`, the developer docs, the stylesheet, the icon.
 * They take no body and need no step before their handler.
 */
import type { Context } from 'koa';
import { protectedResourceMetadata } from '../oauth/discovery.js';
import { metricsHandler } from '../ops/metrics-access.js';
import { docsPagesRouter } from '../interaction/docs-pages.js';
import { STYLESHEET } from '../interaction/templates.js';
import { OPERATOR_STYLES } from '../operator/views.js';
import type { Services } from '../compose.js';
import { pipeline, routerStep, type Pipelines } from './pipeline.js';

/** The site icon at `/favicon.ico` (issue 30): a key on the stylesheet's blue, 32×32, as SVG (browsers sniff the type). */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2952cc"/>' +
  '<circle cx="12" cy="16" r="5" fill="none" stroke="#fff" stroke-width="3"/><path d="M17 16h10m-3 0v4" stroke="#fff" stroke-width="3" fill="none"/></svg>';

/** The answer of a route that is not served in this configuration (e.g. `/metrics` on its own port). */
const notServed = pipeline(async () => undefined);

/** The ops family's pipelines. */
export function opsPipelines(services: Services, openapi: Record<string, unknown>): Pipelines {
  const { config, metrics, readiness, dependencies } = services;
  const stylesheet = STYLESHEET + OPERATOR_STYLES;
  // One resource, BASE_URL (DESIGN D4): no path-suffixed documents (RFC 9728 §3.3 would make them
  // name `<base>/mcp`); clients fall back to this one, which every challenge names (docs/mcp.md).
  const prm = protectedResourceMetadata(config);
  const docs = routerStep(docsPagesRouter());
  const metricsHere = config.metrics.openOnMainPort || (config.metrics.token && config.metrics.port === undefined);
  return {
    // Liveness: always 200 while the process serves HTTP; the dependencies' states are details
    // (DESIGN D12), read from the background probes, never a store call of this request.
    healthz: pipeline(function healthz(ctx: Context) {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { status: 'ok', dependencies: dependencies.snapshot() };
    }),
    readyz: pipeline(readiness.handler),
    metrics: metricsHere ? pipeline(metricsHandler(metrics, config.metrics.token)) : notServed,
    protected_resource_metadata: pipeline(function sendPrm(ctx: Context) {
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.body = prm;
    }),
    openapi: pipeline(function sendOpenApi(ctx: Context) {
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.body = openapi;
    }),
    docs: pipeline(docs),
    docs_page: pipeline(docs),
    docs_image: pipeline(docs),
    favicon: pipeline(function sendFavicon(ctx: Context) {
      ctx.type = 'image/svg+xml';
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = FAVICON_SVG;
    }),
    stylesheet: pipeline(function sendStylesheet(ctx: Context) {
      ctx.type = 'text/css';
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.body = stylesheet;
    }),
  };
}
