/**
 * Builds the one Koa application of DESIGN.md §1: discovery and OAuth endpoints (oidc-provider),
 * interaction pages, UserInfo, the Account API, RFC 9728 metadata and `/openapi.json`, on one origin.
 */
import { randomUUID } from 'node:crypto';
import Koa, { type Context } from 'koa';
import Router from '@koa/router';
import mount from 'koa-mount';
import { securityHeaders } from './http/security-headers.js';
import type { Logger } from 'pino';
import type Provider from 'oidc-provider';
import type { Adapter } from 'oidc-provider';
import type { Config } from './config.js';
import { openStores, type Stores } from './store/stores.js';
import { purgeExpired } from '../adapters/sqlite.js';
import { DEFAULT_KEEP_TOMBSTONES } from '../adapters/rotation.js';
import { withRefreshRotation } from './oauth/refresh-rotation.js';
import { Accounts } from './platform/accounts.js';
import { Enrollments } from './platform/enrollments.js';
import { createProvider, ROUTES } from './oauth/provider.js';
import { SiteChoices } from './oauth/account.js';
import { installProviderHooks } from './oauth/provider-hooks.js';
import { loadCookieKeys } from './oauth/keys.js';
import { openSigning } from './oauth/key-ring.js';
import { protectedResourceMetadata } from './oauth/discovery.js';
import { userinfoHandler } from './resource/userinfo.js';
import { interactionRouter } from './interaction/routes.js';
import { STYLESHEET } from './interaction/templates.js';
import { CsrfTokens } from './http/csrf.js';
import { sendOAuthError } from './http/errors.js';
import { errorRenderer, type ErrorRenderer } from './errors/render.js';
import { openApiDocument } from './resource/openapi.js';
import { docsLink, docsPagesRouter } from './http/docs-links.js';
import { bearer } from './resource/bearer.js';
import { accountGraphqlHandler, accountSchemaHandler, accountServices } from './resource/account-graphql/index.js';
import { graphiqlPage } from './resource/account-graphql/graphiql.js';
import { adminApiRouter } from './resource/admin-api/index.js';
import { SiteFiles } from './platform/files.js';
import { filesHandler } from './http/files.js';
import { SiteSettings } from './platform/sites.js';
import { createLinkMailer } from './ops/mail.js';
import { operatorServices } from './platform/operator/index.js';
import { IdempotencyKeys } from './platform/idempotency.js';
import { Invitations } from './platform/invitations.js';
import { Lecturers } from './platform/lecturers.js';
import { Comments } from './platform/comments.js';
import { Forms } from './platform/forms.js';
import { SiteContent } from './platform/content.js';
import { Memberships } from './platform/memberships.js';
import { DigitalProducts } from './platform/digital-products.js';
import { invitationRouter } from './interaction/invitations.js';
import { MemberClients } from './oauth/member-clients.js';
import { registrationSetup } from './oauth/registration-setup.js';
import { mountMcp } from './resource/mcp/index.js';
import { PROVIDER_ROUTES, resolveRoute } from './http/route-table.js';
import { rateLimiting } from './http/rate-limits.js';
import { bodyLimit } from './http/body-limit.js';
import { createMetrics, type Metrics } from './ops/metrics.js';
import { metricsHandler } from './ops/metrics-access.js';
import { fixedOrigin } from './http/origin.js';
import { createReadiness, type Readiness } from './ops/health.js';
import { installOutageHandling, outageMiddleware } from './ops/store-outage.js';
import { OneTimeLinks } from './platform/one-time-links.js';
import { Suspensions, authorizationGuard, hideSuspendedTokens } from './oauth/suspension.js';
import { AuditTrail } from './platform/audit.js';
import { installAuditEvents } from './oauth/audit-events.js';
import { ConnectedGrants } from './platform/connected-grants.js';
import { Connections, trackGrantUse } from './oauth/connections.js';
import { setPasswordRouter } from './operator/set-password.js';
import { WebSessions } from './operator/session.js';
import { webRouter } from './operator/web-routes.js';
import { adminRouter } from './operator/admin-routes.js';
import { OPERATOR_STYLES } from './operator/views.js';

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

/**
 * Opens the store, loads keys and builds the application.
 * @throws ConfigError / Error when the store cannot be opened
 */
export async function createApp(config: Config, logger: Logger): Promise<CoursegateApp> {
  const metrics = createMetrics();
  const store = await openStores(config, logger, (kind, ms, ok) => metrics.observeQuery(kind, ms, ok));
  // DESIGN D3: atomic refresh rotation + grace window, inside the metrics wrapper.
  const rotation = { graceSeconds: config.ttl.refreshGrace, tombstoneSeconds: config.ttl.refreshTombstone, keepTombstones: DEFAULT_KEEP_TOMBSTONES };
  const adapter = metrics.instrumentAdapter(withRefreshRotation(store.adapter, rotation), store.oidcKind);
  const readiness = createReadiness(store.probes);
  const accounts = new Accounts(store.db);
  const enrollments = new Enrollments(store.db);
  // DESIGN D6: the operator's keys, or the store's keys through a ring every process re-reads.
  const [signing, cookieKeys] = await Promise.all([
    openSigning(store.db, config, (err) => logger.warn({ err: { type: (err as Error).name, message: (err as Error).message } }, 'signing keys: refresh failed; keeping the last keys')),
    loadCookieKeys(store.db, config.cookieKeys),
  ]);
  const siteChoices = new SiteChoices(adapter, config.ttl.refreshToken);
  const registration = registrationSetup(config, logger);
  const suspensions = new Suspensions(store.db);
  const provider = createProvider({ config, accounts, siteChoices, adapter, signingKeys: signing.keys, signingActive: signing.signingActive, cookieKeys, suspensions, ...registration.providerDeps });
  hideSuspendedTokens(provider, suspensions);
  const audit = new AuditTrail(store.db, config.auditRetentionDays);
  installAuditEvents(provider, audit, siteChoices, logger);
  const grants = new ConnectedGrants(store.db);
  trackGrantUse(provider, grants, (err) => logger.error({ event: 'grant_index_failed', err: { message: (err as Error)?.message } }, 'grant index not updated'));
  const connections = new Connections(provider, grants, audit);
  installProviderHooks(provider, config, signing.signingActive);
  provider.on('server_error', (_ctx, err) => logger.error({ err: { type: err.name, message: err.message } }, 'oidc-provider server_error'));
  metrics.observeProvider(provider);
  const renderError = errorRenderer({ docsUrl: config.docsUrl, logger });
  installOutageHandling(provider, renderError);
  const limits = rateLimiting({
    limits: config.rateLimits,
    redis: store.redis,
    prefix: config.redisKeyPrefix,
    onLimited: (limit) => metrics.rateLimited.inc({ limit }),
  });

  // DESIGN D7: only the client address (that many hops from the right) and scheme come from a proxy.
  const app = new Koa({ proxy: config.trustProxy > 0, maxIpsCount: config.trustProxy });
  app.keys = cookieKeys;
  app.use(fixedOrigin(app, config.baseUrl));
  app.use(edge(logger, renderError));
  app.use(resolveRoute());
  app.use(metrics.middleware);
  app.use(outageMiddleware(renderError));
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

  const csrf = new CsrfTokens(cookieKeys);
  const router = new Router();
  router.get('/assets/coursegate.css', (ctx) => {
    ctx.type = 'text/css';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = STYLESHEET + OPERATOR_STYLES;
  });
  const prm = protectedResourceMetadata(config);
  const sendPrm = (ctx: Context) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = prm;
  };
  // One resource, BASE_URL (DESIGN D4): no path-suffixed documents (RFC 9728 §3.3 would make them
  // name `<base>/mcp`); clients fall back to this one, which every challenge names (docs/mcp.md).
  // JWKS of the store's keys, with the schedule's Cache-Control (else oidc-provider's own route).
  if (signing.ring) router.get(ROUTES.jwks, signing.ring.jwksHandler);
  router.get('/.well-known/oauth-protected-resource', sendPrm);
  const openapi = openApiDocument(config);
  router.get('/openapi.json', (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = openapi;
  });
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', readiness.handler);
  if (config.metrics.openOnMainPort || (config.metrics.token && config.metrics.port === undefined)) {
    router.get('/metrics', metricsHandler(metrics, config.metrics.token));
  }
  const userinfo = userinfoHandler(provider, accounts, config.baseUrl);
  router.get('/api/oauth/userinfo', userinfo);
  router.post('/api/oauth/userinfo', userinfo);
  const graphql = accountGraphqlHandler({
    services: accountServices(store.db, accounts, enrollments),
    baseUrl: config.baseUrl,
    production: config.mode === 'production',
    log: logger,
  });
  const accountBearer = bearer(provider, config.baseUrl, accounts, { scopes: ['account:read'], errorUri: docsLink(config.docsUrl, 'accountApi') });
  router.post('/account/graphql', accountBearer, graphql);
  // GraphiQL (development; docs/account-api.md "Schema, introspection, GraphiQL").
  if (config.graphiql) router.get('/account/graphql', graphiqlPage, accountBearer, graphql);
  else router.get('/account/graphql', accountBearer, graphql);
  router.get('/account/graphql/schema.graphql', accountSchemaHandler);
  const memberClients = new MemberClients(store.db, adapter);
  // Issue #11: with SMTP_URL set, an invitation's one-time link is also e-mailed to the invited
  // address (API and /admin alike); the answer still shows it. Logs name the domain, never the link.
  const mailer = createLinkMailer(config.smtpUrl, config.smtpFrom, config.baseUrl);
  const invitations = new Invitations(
    store.db,
    mailer &&
      (async (siteId, inv, token) => {
        const site = await store.db.selectFrom('sites').select('name').where('id', '=', siteId).executeTakeFirst();
        try {
          await mailer.sendInvitationLink(inv.email, site?.name ?? siteId, inv.role, `${config.baseUrl}/invitations/${token}`, inv.expiresAt);
        } catch (err) {
          logger.warn({ domain: inv.email.split('@')[1], err: { message: (err as Error).message } }, 'invitation e-mail not sent');
        }
      }),
  );
  // Issue #15: a switch of "MCP connections" made here forgets the kept suspension answers.
  const siteSettings = new SiteSettings(store.db, () => suspensions.forget());
  const admin = { accounts, operator: operatorServices(store.db), siteSettings, memberClients, invitations, content: new SiteContent(store.db), memberships: new Memberships(store.db), digitalProducts: new DigitalProducts(store.db), lecturers: new Lecturers(store.db), comments: new Comments(store.db), forms: new Forms(store.db), connections, audit, files: new SiteFiles(store.db as never), baseUrl: config.baseUrl };
  router.get('/files/:id', filesHandler(admin.files));
  mountMcp(router, { provider, baseUrl: config.baseUrl, docsUrl: config.docsUrl, accounts, enrollments, db: store.db, logger, openapi, admin });

  const interactions = interactionRouter({
    provider,
    accounts,
    siteChoices,
    csrf,
    logger,
    audit,
    grants,
    baseUrl: config.baseUrl,
    reserveLogin: limits.reserveLogin,
    releaseLogin: limits.releaseLogin,
  });
  app.use(bodyLimit());
  app.use(limits.middleware);
  const adminApi = adminApiRouter({
    provider,
    baseUrl: config.baseUrl,
    docsUrl: config.docsUrl,
    services: admin,
    idempotency: new IdempotencyKeys(store.db as never),
    logger,
    audit,
    uploadMaxBytes: config.uploadMaxBytes,
  });
  app.use(router.routes());
  app.use(docsPagesRouter().routes());
  app.use(adminApi.routes());
  app.use(adminApi.allowedMethods());
  app.use(router.allowedMethods());
  app.use(interactions.routes());
  const invitationPage = invitationRouter({ accounts, invitations, csrf, logger, reserveLogin: limits.reserveLogin, releaseLogin: limits.releaseLogin });
  app.use(invitationPage.routes());
  app.use(setPasswordRouter({ links: new OneTimeLinks(store.db), csrf }).routes());
  const sessions = new WebSessions(csrf);
  app.use(
    webRouter({ accounts, sessions, connections, baseUrl: config.baseUrl, docsUrl: config.docsUrl, reserveLogin: limits.reserveLogin, releaseLogin: limits.releaseLogin }).routes(),
  );
  app.use(adminRouter({ accounts, sessions, db: store.db, siteSettings, memberClients, connections, audit, people: admin.operator.people, invitations, baseUrl: config.baseUrl }).routes());
  registration.install(app, provider, adapter);
  app.use(authorizationGuard(PROVIDER_ROUTES.authorization, suspensions));
  app.use(mount(provider as unknown as Koa));
  app.use(async (ctx) => {
    // Nothing above matched (oidc-provider passes unknown paths on).
    if (ctx.body === undefined && ctx.status === 404) sendOAuthError(ctx, 404, 'not_found', `no resource at ${ctx.path}`);
  });

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
    provider,
    store,
    adapter,
    accounts,
    enrollments,
    memberClients,
    audit,
    metrics,
    readiness,
    async close() {
      clearInterval(purgeTimer);
      mailer?.close();
      signing.ring?.stop();
      await store.close();
    },
  };
}
