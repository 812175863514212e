/**
 * Builds the one Koa application of DESIGN.md §1: discovery and OAuth endpoints (oidc-provider),
 * interaction pages, UserInfo, the Account API, RFC 9728 metadata and `/openapi.json`, on one origin.
 *
 * `createApp` is three steps (issue #9): compose the services once (src/compose.ts) → build each
 * endpoint's pipeline (src/pipelines/*) → a Koa app whose only middlewares are the edge steps
 * every request needs and the dispatcher that runs the one pipeline of the request's route:
 *
 *   fixedOrigin → edge (request id, access log, error rendering) → resolveRoute (ctx.state.route)
 *     → metrics → store-outage 503 → security headers → dispatch(route's pipeline)
 */
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import { securityHeaders } from './http/security-headers.js';
import type { Logger } from 'pino';
import type Provider from 'oidc-provider';
import type { Adapter } from 'oidc-provider';
import type { Config } from './config.js';
import type { Stores } from './store/stores.js';
import { purgeExpired } from '../adapters/sqlite.js';
import type { Accounts } from './platform/accounts.js';
import type { Enrollments } from './platform/enrollments.js';
import type { ErrorRenderer } from './errors/render.js';
import { openApiDocument } from './resource/openapi.js';
import type { MemberClients } from './oauth/member-clients.js';
import { resolveRoute } from './http/route-table.js';
import type { Metrics } from './ops/metrics.js';
import { fixedOrigin } from './http/origin.js';
import type { Readiness } from './ops/health.js';
import { outageMiddleware } from './ops/store-outage.js';
import type { AuditTrail } from './platform/audit.js';
import { composeServices, type Services } from './compose.js';
import { dispatch, type Pipelines } from './pipelines/pipeline.js';
import { sharedSteps } from './pipelines/steps.js';
import { oauthPipelines } from './pipelines/oauth.js';
import { resourcePipelines } from './pipelines/resource.js';
import { adminApiPipelines } from './pipelines/admin-api.js';
import { interactionPipelines } from './pipelines/interaction.js';
import { peoplePipelines } from './pipelines/people.js';
import { opsPipelines } from './pipelines/ops.js';

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
  /** Stops timers and closes the stores. */
  close(): Promise<void>;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Request id, access log (path only: query strings can carry codes and state), error rendering by
 * the request's surface (src/errors/render.ts).
 */
function edge(logger: Logger, renderError: ErrorRenderer): Koa.Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const id = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    try {
      await next();
    } catch (err) {
      renderError(ctx, err);
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ req_id: id, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  };
}

/** Every endpoint's pipeline, keyed by route-table row name (one file per family). */
export function buildPipelines(services: Services): Pipelines {
  const shared = sharedSteps(services);
  const openapi = openApiDocument(services.config);
  return {
    ...oauthPipelines(services, shared),
    ...resourcePipelines(services, shared, openapi),
    ...adminApiPipelines(services, shared),
    ...interactionPipelines(services, shared),
    ...peoplePipelines(services, shared),
    ...opsPipelines(services, openapi),
  };
}

/**
 * Opens the store, loads keys, builds the services and the application.
 * @throws ConfigError / Error when the store cannot be opened
 */
export async function createApp(config: Config, logger: Logger): Promise<CoursegateApp> {
  const services = await composeServices(config, logger);
  const { store, metrics, audit, signing, mailer } = services;
  const pipelines = buildPipelines(services);

  // DESIGN D7: only the client address (that many hops from the right) and scheme come from a proxy.
  const app = new Koa({ proxy: config.trustProxy > 0, maxIpsCount: config.trustProxy });
  app.keys = services.cookieKeys;
  app.use(fixedOrigin(app, config.baseUrl));
  app.use(edge(logger, services.renderError));
  app.use(resolveRoute());
  app.use(metrics.middleware);
  app.use(outageMiddleware(services.renderError));
  app.use(
    securityHeaders({
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
    }),
  );
  app.use(dispatch(pipelines));

  const sqlite = store.oidcKind === 'sqlite' ? store.sqlite : undefined;
  if (sqlite) purgeExpired(sqlite);
  const purgeAudit = () => audit.purge().catch((err: unknown) => logger.warn({ event: 'audit_purge_failed', err: { message: (err as Error)?.message } }, 'audit purge failed'));
  void purgeAudit();
  const purgeTimer = setInterval(() => {
    if (sqlite) purgeExpired(sqlite);
    void purgeAudit();
  }, 10 * 60 * 1000);
  purgeTimer.unref();

  return {
    app,
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
      clearInterval(purgeTimer);
      mailer?.close();
      signing.ring?.stop();
      await audit.flush();
      await store.close();
    },
  };
}
