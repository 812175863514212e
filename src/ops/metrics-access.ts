/**
 * Who may read `/metrics` (issue #13 finding 10; docs/security.md "Metrics"). Prometheus text
 * names routes, clients' error rates and store latencies: not for strangers.
 *
 * - `METRICS_PORT`: served on its own listener only (`metricsServer`), bind it to a private network;
 * - `METRICS_TOKEN`: served on the main port to `Authorization: Bearer <token>` only (constant-time
 *   comparison), 401 otherwise;
 * - neither: open on the main port in development/test, not served in production.
 */
import { createServer, type Server } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Metrics } from './metrics.js';
import { InvalidToken } from '../errors/catalogue.js';
import { bearerChallenge } from '../http/errors.js';

/** The challenge of a refused `/metrics` request (not an OAuth resource: no `resource_metadata`). */
const METRICS_CHALLENGE = bearerChallenge({ realm: 'metrics' });

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** True when `header` is `Bearer <token>` (constant-time over the digests). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return !!m && timingSafeEqual(digest(m[1]!), digest(token));
}

/**
 * The `/metrics` handler of the main port.
 * @param token when set, requests must carry `Authorization: Bearer <token>`
 * @throws InvalidToken 401 (`WWW-Authenticate: Bearer realm="metrics"`) without it
 */
export function metricsHandler(metrics: Metrics, token: string | undefined): Middleware {
  return async (ctx) => {
    if (token !== undefined && !bearerMatches(ctx.get('authorization'), token)) {
      // Rendered by the route's surface (oauth: RFC 6749 JSON) like every other refusal.
      throw new InvalidToken('metrics need Authorization: Bearer <METRICS_TOKEN>', {
        'WWW-Authenticate': METRICS_CHALLENGE,
      });
    }
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  };
}

/**
 * A listener of its own serving `GET /metrics` only (`METRICS_PORT`); 404 for anything else.
 * @returns the listening server (port 0 = any free port; read `address()`)
 */
export async function metricsServer(
  metrics: Metrics,
  port: number,
  token: string | undefined,
  host?: string,
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
      res.writeHead(401, { 'www-authenticate': METRICS_CHALLENGE }).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(503).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Issue #28: METRICS_HOST binds it to one address (a private network); unset = every interface.
    server.listen(port, host, () => resolve());
  });
  return server;
}
