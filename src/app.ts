/**
 * Builds the one Koa application of DESIGN.md §1: discovery and OAuth endpoints (oidc-provider),
 * interaction pages, UserInfo, the Account API, RFC 9728 metadata and `/openapi.json`, on one origin.
 *
 * `createApp` is three steps (issue #9): compose the services once (src/compose.ts) → build each
 * endpoint's pipeline (src/pipelines/*) → a Koa app whose one middleware is the edge: the steps
 * every request needs, in this order, around the dispatcher that runs the one pipeline of the
 * request's route:
 *
 *   fixedOrigin → request id → resolve the route (ctx.state.route) → security headers
 *     → dispatch(route's pipeline) → error rendering (store outages: 503) → metrics → access log
 *     → (once the answer is written) release the context, src/http/release.ts
 *
 * Issue #15: the edge steps are synchronous functions called by one async middleware, one await
 * per request instead of one promise and microtask hop per step.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import Koa from 'koa';
import { securityHeaders } from './http/security-headers.js';
import type { Logger } from 'pino';
import type Provider from 'oidc-provider';
import type { Adapter } from 'oidc-provider';
import type { Config } from './config.js';
import type { Stores } from './store/stores.js';
import { purgeExpired } from '../adapters/sqlite.js';
import { purgeSpentLinks } from './platform/link-retention.js';
import { pruneOutbox } from './ops/mail.js';
import type { Accounts } from './platform/accounts.js';
import type { Enrollments } from './platform/enrollments.js';
import type { ErrorRenderer } from './errors/render.js';
import { openApiDocument } from './resource/openapi.js';
import type { MemberClients } from './oauth/member-clients.js';
import { RouteTable, loggedPath } from './http/route-table.js';
import { statusOfThrown, type Metrics } from './ops/metrics.js';
import { fixedOrigin } from './http/origin.js';
import { releaseWhenFinished } from './http/release.js';
import { traceIdOf } from './http/trace-context.js';
import type { Readiness } from './ops/health.js';
import type { AuditTrail } from './platform/audit.js';
import { composeServices, type Services } from './compose.js';
import { dispatch, type Pipelines } from './pipelines/pipeline.js';
import { sharedSteps } from './pipelines/steps.js';
import { assemblePipelines } from './pipelines/assemble.js';
import { oauthPipelines } from './pipelines/oauth.js';
import { resourcePipelines } from './pipelines/resource.js';
import { adminApiPipelines } from './pipelines/admin-api.js';
import { interactionPipelines } from './pipelines/interaction.js';
import { peoplePipelines } from './pipelines/people.js';
import { opsPipelines } from './pipelines/ops.js';
import type { OperatorLoopShare } from './http/operator-share.js';
import { purgeDeadLetters } from './ops/audit-webhook.js';

/** A built application and the handles the composition root needs. */
export interface CoursegateApp {
  app: Koa;
  provider: Provider;
  /** The open stores (platform data: `store.db`; OIDC state: `adapter`). */
  store: Stores;
  adapter: new (name: string) => Adapter;
  accounts: Accounts;
  enrollments: Enrollments;
  memberClients: MemberClients;
  /** DESIGN D10 audit trail. */
  audit: AuditTrail;
  metrics: Metrics;
  readiness: Readiness;
  /** Every row's built pipeline (read by test/http/route-pipelines.test.ts against the route table). */
  pipelines: Pipelines;
  /** Stops timers and closes the stores. */
  close(): Promise<void>;
}

/** Delay of the first audit retention purge after start, in ms (issue #29: after listen, off the first requests). */
const FIRST_AUDIT_PURGE_DELAY_MS = 5_000;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The edge's parts, each built once at start. */
interface EdgeSteps {
  /** Every URL from BASE_URL (src/http/origin.ts). */
  pinOrigin: (ctx: Koa.Context) => void;
  /** The route table `ctx.state.route` is resolved against (src/http/route-table.ts). */
  routes: RouteTable;
  /** The replayed helmet headers (src/http/security-headers.ts). */
  setSecurityHeaders: (res: ServerResponse) => void;
  /** Runs the pipeline of `ctx.state.route` (src/pipelines/pipeline.ts). */
  dispatchRoute: Koa.Middleware;
  /** The request's surface renders a thrown error; a store outage becomes 503 (src/errors/render.ts). */
  renderError: ErrorRenderer;
  metrics: Pick<Metrics, 'observeRequest'>;
  logger: Logger;
  /** Counts every request in flight and its kind, so operator requests yield to the others (src/http/operator-share.ts). */
  loopShare: Pick<OperatorLoopShare, 'enter' | 'leave'>;
}

const noop = () => Promise.resolve();

/**
 * The edge, the app's one middleware: request id (an incoming `X-Request-Id` of 1-64
 * `[A-Za-z0-9._-]` is kept, else a UUID; echoed in the answer), the route, the security headers,
 * the route's pipeline, error rendering by the request's surface (src/errors/render.ts; store
 * outages: 503 + Retry-After, issue #14), the request metrics (src/ops/metrics.ts, thrown errors
 * counted under the status they are answered with) and one access log line (`req_id`, the
 * `traceparent` header's `trace_id`): the route's name and
 * its path without the query (codes, state, `?token=` links) and with its secret segments
 * (`/invitations/:token`) as placeholders (issue #25 finding 4, `loggedPath`).
 */
function edge(steps: EdgeSteps): Koa.Middleware {
  const { pinOrigin, routes, setSecurityHeaders, dispatchRoute, renderError, metrics, logger, loopShare } = steps;
  return async function edgeOfEveryRequest(ctx) {
    const started = performance.now();
    pinOrigin(ctx);
    const incoming = ctx.req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.state.startedAt = started;
    ctx.res.setHeader('X-Request-Id', id);
    ctx.state.route = routes.resolve(ctx.path);
    let thrown: number | undefined;
    const operator = ctx.state.route?.spec.loop === 'operator';
    loopShare.enter(operator);
    try {
      setSecurityHeaders(ctx.res);
      await dispatchRoute(ctx, noop);
    } catch (err) {
      thrown = statusOfThrown(ctx, err);
      renderError(ctx, err);
    } finally {
      loopShare.leave(operator);
    }
    const ms = performance.now() - started;
    metrics.observeRequest(ctx, ms / 1000, thrown ?? ctx.status);
    // Issue #28: the client address (TRUST_PROXY decides whether X-Forwarded-For is read), the OAuth
    // client (oidc-provider's, else the bearer token's) and the route-table row; never a token.
    const clientId =
      (ctx as { oidc?: { client?: { clientId?: string } } }).oidc?.client?.clientId ??
      (ctx.state as { principal?: { clientId?: string } }).principal?.clientId;
    logger.info(
      // `trace_id`: the W3C Trace Context trace of an incoming `traceparent` (src/http/trace-context.ts).
      {
        req_id: id,
        trace_id: (ctx.state.traceId as string | undefined) ?? traceIdOf(ctx.req.headers.traceparent),
        method: ctx.method,
        path: loggedPath(ctx.path, ctx.state.route),
        route: ctx.state.route?.spec.name,
        status: ctx.status,
        ms: Math.round(ms * 10) / 10,
        remote_addr: ctx.ip,
        client_id: clientId,
      },
      'request',
    );
    releaseWhenFinished(ctx);
  };
}

/** Every endpoint's pipeline, keyed by route-table row name: each family's steps (one file per family) with its row's column steps. */
export function buildPipelines(services: Services): Pipelines {
  const openapi = openApiDocument(services.config);
  const declared: Pipelines = {
    ...oauthPipelines(services),
    ...resourcePipelines(services, openapi),
    ...adminApiPipelines(services),
    ...interactionPipelines(services),
    ...peoplePipelines(services),
    ...opsPipelines(services, openapi),
  };
  // Issue #27: the steps the rows' columns produce (body, rate limit, bearer, provider prelude and
  // postlude) are placed here, from the route table, never by a family.
  return assemblePipelines(declared, sharedSteps(services));
}

/** Error codes of a connection the client ended (reset, closed early): not a fault of ours. */
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * Opens the store, loads keys, builds the services and the application.
 * @throws ConfigError / Error when the store cannot be opened
 */
export async function createApp(config: Config, logger: Logger): Promise<CoursegateApp> {
  const services = await composeServices(config, logger);
  const { store, metrics, audit, auditWebhook, signing, mailer } = services;
  const pipelines = buildPipelines(services);

  // DESIGN D7: only the client address (that many hops from the right) and scheme come from a proxy.
  const app = new Koa({ proxy: config.trustProxy > 0, maxIpsCount: config.trustProxy });
  app.keys = services.cookieKeys;
  // Errors the edge cannot catch reach Koa's 'error' event: the connection failed after the answer
  // began or while the body was read (a client that resets, ECONNRESET). Koa's default handler
  // prints the stack as several plain-text lines on stderr, which a log collector splits into
  // unparseable records; one JSON line instead, the stack as one field.
  app.on('error', (err: Error & { code?: string }, ctx?: Koa.Context) => {
    const clientGone = CLIENT_GONE.has(err.code ?? '') || err.message === 'aborted';
    logger[clientGone ? 'info' : 'error'](
      {
        event: clientGone ? 'client_connection_reset' : 'http_error',
        req_id: ctx?.state.requestId,
        err: { type: err.name, message: err.message, code: err.code, stack: err.stack },
      },
      clientGone ? 'client connection reset' : 'request error outside the error renderer',
    );
  });
  const setSecurityHeaders = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        // No script of ours; oidc-provider appends the sha256 of its own inline auto-submit script
        // (response_mode=form_post) to this directive, which it only does when the directive exists.
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        // form-action is left out on purpose: browsers apply it to the redirect chain that ends
        // at the client's redirect_uri, which is on another origin.
      },
    },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    strictTransportSecurity: config.baseUrl.startsWith('https:'),
  });
  if (services.tracing) app.use(services.tracing.serverSpans);
  app.use(
    edge({
      pinOrigin: fixedOrigin(app, config.baseUrl),
      routes: new RouteTable(),
      setSecurityHeaders,
      dispatchRoute: dispatch(pipelines),
      renderError: services.renderError,
      metrics,
      logger,
      loopShare: services.loopShare,
    }),
  );

  const sqlite = store.oidcKind === 'sqlite' ? store.sqlite : undefined;
  if (sqlite) purgeExpired(sqlite);
  const runRetention = async () => {
    await audit
      .purge()
      .then(() => (auditWebhook ? purgeDeadLetters(store.db, config.auditRetentionDays) : 0))
      .catch((err: unknown) =>
        logger.warn({ event: 'audit_purge_failed', err: { message: (err as Error)?.message } }, 'audit purge failed'),
      );
    await purgeMailTraces();
  };
  // DESIGN D10 retention beyond the audit trail: expired and used links, and the outbox's bounds
  // (counts only reach the log: no address, no link).
  const purgeMailTraces = async () => {
    try {
      const links = await purgeSpentLinks(store.db);
      const total = links.address_links + links.one_time_links;
      if (total > 0) logger.info({ event: 'links_purged', ...links }, 'expired and used links purged');
    } catch (err) {
      logger.warn({ event: 'link_purge_failed', err: { message: (err as Error)?.message } }, 'link purge failed');
    }
    if (mailer?.transport !== 'outbox') return;
    try {
      const dropped = await pruneOutbox(mailer.outboxDir, config.outbox);
      if (dropped > 0) logger.info({ event: 'outbox_pruned', dropped }, 'old outbox messages deleted');
    } catch (err) {
      logger.warn({ event: 'outbox_prune_failed', err: { message: (err as Error)?.message } }, 'outbox prune failed');
    }
  };
  // Issue #29: the first audit purge runs once the server listens and has served its first
  // requests (a batched, index-bound purge that yields between batches), never during start.
  const firstAuditPurge = setTimeout(() => void runRetention(), FIRST_AUDIT_PURGE_DELAY_MS);
  firstAuditPurge.unref();
  const purgeTimer = setInterval(
    () => {
      if (sqlite) purgeExpired(sqlite);
      void runRetention();
    },
    10 * 60 * 1000,
  );
  purgeTimer.unref();
  auditWebhook?.start();

  return {
    app,
    pipelines,
    provider: services.provider,
    store,
    adapter: services.adapter,
    accounts: services.accounts,
    enrollments: services.enrollments,
    memberClients: services.memberClients,
    audit,
    metrics,
    readiness: services.readiness,
    async close() {
      services.dependencies.stop();
      clearInterval(purgeTimer);
      clearTimeout(firstAuditPurge);
      mailer?.close();
      signing.ring?.stop();
      await services.readiness.stop();
      await audit.flush();
      await auditWebhook?.stop();
      await store.close();
      await services.tracing?.shutdown();
    },
  };
}
