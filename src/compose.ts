/**
 * The composition root of the services (issue #9): opens the stores, loads the keys and builds
 * every platform service, the provider and its declared hooks **once**. The request path
 * (`src/app.ts` → `src/pipelines/*`) and the resource servers (`/mcp`, `/account/graphql`, the admin
 * API) receive these instances; none of them builds a service from a raw Kysely handle.
 *
 * Order: metrics → stores (platform data, OIDC state behind the D3 refresh-rotation wrapper and
 * the metrics wrapper) → keys (DESIGN D6) → provider (+ its hooks, `declareProviderHooks`) →
 * rate limits (DESIGN D7) → platform services → the service bundles each surface receives.
 */
import path from 'node:path';
import { hkdfSync } from 'node:crypto';
import type { Logger } from 'pino';
import type Provider from 'oidc-provider';
import type { Adapter } from 'oidc-provider';
import type { Config } from './config.js';
import { openStores, type Stores } from './store/stores.js';
import { DEFAULT_KEEP_TOMBSTONES } from '../adapters/rotation.js';
import { withRefreshRotation } from './oauth/refresh-rotation.js';
import { TOMBSTONE_MARGIN_SECONDS, withTokenTombstones } from './oauth/token-tombstones.js';
import { Accounts } from './platform/accounts.js';
import { Enrollments } from './platform/enrollments.js';
import { Catalog } from './platform/catalog.js';
import { MemberRecords } from './platform/member-records.js';
import { Orders } from './platform/orders.js';
import { EventRegistrations } from './platform/events.js';
import { Progress } from './platform/progress.js';
import { Profiles } from './platform/profiles.js';
import { createProvider } from './oauth/provider.js';
import { SiteChoices } from './oauth/account.js';
import { declareProviderHooks } from './oauth/provider-hooks.js';
import { loadCookieKeys } from './oauth/keys.js';
import { openSigning, type SigningSetup } from './oauth/key-ring.js';
import { registrationSetup, type RegistrationSetup } from './oauth/registration-setup.js';
import { Suspensions } from './oauth/suspension.js';
import { Connections } from './oauth/connections.js';
import { MemberClients } from './oauth/member-clients.js';
import { SiteFiles } from './platform/files.js';
import { SiteSettings } from './platform/sites.js';
import { createLinkMailer, type LinkMailer } from './ops/mail.js';
import { operatorServices } from './platform/operator/index.js';
import { IdempotencyKeys } from './platform/idempotency.js';
import { Invitations } from './platform/invitations.js';
import { Lecturers } from './platform/lecturers.js';
import { Comments } from './platform/comments.js';
import { Forms } from './platform/forms.js';
import { SiteContent } from './platform/content.js';
import { Memberships } from './platform/memberships.js';
import { DigitalProducts } from './platform/digital-products.js';
import { OneTimeLinks } from './platform/one-time-links.js';
import { AddressLinks } from './platform/address-links.js';
import { AuditTrail } from './platform/audit.js';
import { ResourceVersions } from './platform/versions.js';
import { ConnectedGrants } from './platform/connected-grants.js';
import { rateLimiting, type RateLimiting } from './http/rate-limits.js';
import { MailBudget, mailRetryText } from './http/mail-budget.js';
import { PlatformError } from './platform/errors.js';
import { CsrfTokens } from './http/csrf.js';
import { createMetrics, type Metrics } from './ops/metrics.js';
import { AuditWebhook } from './ops/audit-webhook.js';
import { SignInEvents } from './platform/sign-in-events.js';
import { startTracing, type Tracing } from './ops/tracing.js';
import { traceOperationsWith } from './operations/runner.js';
import { SERVER_INFO } from './resource/mcp/server.js';
import { createReadiness, type Readiness } from './ops/health.js';
import { Dependencies, observedMailer } from './ops/dependencies.js';
import { errorRenderer, type ErrorRenderer } from './errors/render.js';
import { WebSessions } from './operator/session.js';
import type { AccountServices } from './resource/account-graphql/context.js';
import type { AdminServices } from './operations/operation.js';
import { OperatorLoopShare } from './http/operator-share.js';
import { DpopNonces, DpopProofs } from './resource/dpop.js';
import { redisProofReplay, sqliteProofReplay } from './store/proof-replay.js';
import type { ToolServices } from './resource/mcp/tools/types.js';

/** Every service of one process, built once (the inputs of the pipelines). */
export interface Services {
  config: Config;
  logger: Logger;
  /** Renders an error in the request's surface (src/errors/render.ts). */
  renderError: ErrorRenderer;
  metrics: Metrics;
  /** The open stores (platform data: `store.db`; OIDC state: `adapter`). */
  store: Stores;
  /** The OIDC-state adapter class: refresh rotation (DESIGN D3) inside the metrics wrapper. */
  adapter: new (
    name: string,
  ) => Adapter;
  readiness: Readiness;
  /** DESIGN D12: the state of each store and of mail (`/healthz` details, `coursegate_dependency_up`). */
  dependencies: Dependencies;
  /** DESIGN D6: signing keys (the store's ring, or the operator's keys). */
  signing: SigningSetup;
  cookieKeys: string[];
  /** CSRF fields of our forms (keyed by the cookie keys). */
  csrf: CsrfTokens;
  provider: Provider;
  siteChoices: SiteChoices;
  /** SPEC §5.4 registration paths (vendor table, loopback, CIMD) and their pipeline steps. */
  registration: RegistrationSetup;
  suspensions: Suspensions;
  /** DESIGN D7 counters (token/revocation/introspection/registration, failed logins). */
  limits: RateLimiting;
  /** Issue #29: the operators' share of the event loop (`OPERATOR_LOOP_SHARE`); the edge counts every request in it. */
  loopShare: OperatorLoopShare;
  accounts: Accounts;
  enrollments: Enrollments;
  memberClients: MemberClients;
  audit: AuditTrail;
  /** Exports traces over OTLP (`OTEL_EXPORTER_OTLP_ENDPOINT`); undefined when unset. */
  tracing: Tracing | undefined;
  /** Delivers the audit trail to `AUDIT_WEBHOOK_URL`; undefined when unset. */
  auditWebhook: AuditWebhook | undefined;
  grants: ConnectedGrants;
  connections: Connections;
  invitations: Invitations;
  siteSettings: SiteSettings;
  oneTimeLinks: OneTimeLinks;
  /** DESIGN D5: links mailed to an address, the proof an account is made or a password reset on. */
  addressLinks: AddressLinks;
  sessions: WebSessions;
  idempotency: IdempotencyKeys;
  /** Issue #11, #25: mails one-time links (SMTP with `SMTP_URL`, else `.eml` files in `DATA_DIR/outbox/`). */
  mailer: LinkMailer;
  /** DESIGN D7: the budgets every message spends first (per client address, recipient, server). */
  mailBudget: MailBudget;
  /** DESIGN D14: sign-ins, failed sign-ins and lock-outs in the trails of the person's sites. */
  signInEvents: SignInEvents;
  /** What the Account API (`/account/graphql`) reads. */
  account: AccountServices;
  /** What the admin API operations (and the MCP operator tools, their views) run against. */
  admin: AdminServices;
  /** What the MCP tools run against (the same instances as `account` and `admin`). */
  tools: ToolServices;
  /** The resource surfaces' DPoP checks (RFC 9449 §7, src/resource/dpop.ts). */
  dpop: DpopProofs;
}

/**
 * The 32-byte key of the DPoP nonces (RFC 9449 §8, §9), derived from the newest cookie key: the
 * same in every process that shares the cookie keys, without a setting of its own.
 */
function dpopNonceSecret(cookieKeys: readonly string[]): Buffer {
  return Buffer.from(hkdfSync('sha256', cookieKeys[0] ?? '', '', 'coursegate DPoP nonces', 32));
}

/**
 * Opens the stores, loads the keys and builds every service once.
 * @throws ConfigError / Error when the store cannot be opened or config/integrations.yaml is invalid
 */
export async function composeServices(config: Config, logger: Logger): Promise<Services> {
  const metrics = createMetrics();
  const loopShare = new OperatorLoopShare({
    share: config.operatorLoopShare,
    onWait: metrics.observeOperatorWait,
    onCharge: metrics.countOperatorCharge,
  });
  // Traces (OTEL_EXPORTER_OTLP_ENDPOINT): off, nothing of the SDK is loaded and `tracing` is undefined.
  const tracing = await startTracing(
    config.tracing && { ...config.tracing, serviceVersion: SERVER_INFO.version },
    logger,
  );
  traceOperationsWith(tracing?.span);
  const store = await openStores(config, logger, (kind, ms, ok) => {
    metrics.observeQuery(kind, ms, ok);
    tracing?.query(kind, ms, ok);
  });
  const { db } = store;
  // DESIGN D3: atomic refresh rotation + grace window, inside the metrics wrapper.
  const rotation = {
    graceSeconds: config.ttl.refreshGrace,
    tombstoneSeconds: config.ttl.refreshTombstone,
    keepTombstones: DEFAULT_KEEP_TOMBSTONES,
  };
  // Issue #26: each access token leaves a tombstone naming its client, so a 401 for a revoked or
  // purged token names that client's default scope (src/oauth/token-tombstones.ts), while the
  // token could still be presented (its expiry plus a margin).
  const adapter = withTokenTombstones(
    metrics.instrumentAdapter(
      withRefreshRotation(tracing ? tracing.traceAdapter(store.adapter, store.oidcKind) : store.adapter, rotation),
      store.oidcKind,
    ),
    TOMBSTONE_MARGIN_SECONDS,
  );
  const readiness = createReadiness(store.probes, store.localFaults, undefined, store.instantFaults);
  // DESIGN D12: each dependency's state for /healthz details and coursegate_dependency_up, probed
  // in the background so that /healthz never waits on a store.
  const dependencies = new Dependencies([...Object.keys(store.probes), 'mail']);
  dependencies.startProbing(store.probes, config.healthProbeSeconds * 1000);
  metrics.observeProcess({
    version: SERVER_INFO.version,
    dependencies: () => dependencies.upValues(),
    pgPool: store.pgPoolStats,
    // Read at each scrape: the client of the moment.
    redisClients: store.oidcKind === 'redis' ? () => ({ oidc: store.redis }) : undefined,
  });
  const accounts = new Accounts(db);
  const enrollments = new Enrollments(db);
  // DESIGN D6: the operator's keys, or the store's keys through a ring every process re-reads.
  const [signing, cookieKeys] = await Promise.all([
    openSigning(db, config, (err) =>
      logger.warn(
        { err: { type: (err as Error).name, message: (err as Error).message } },
        'signing keys: refresh failed; keeping the last keys',
      ),
    ),
    loadCookieKeys(db, config.cookieKeys),
  ]);
  const siteChoices = new SiteChoices(adapter, config.ttl.refreshToken);
  const registration = registrationSetup(config, logger);
  const suspensions = new Suspensions(db);
  const provider = createProvider({
    config,
    accounts,
    siteChoices,
    adapter,
    signingKeys: signing.keys,
    signingActive: signing.signingActive,
    cookieKeys,
    suspensions,
    dpopNonceSecret: dpopNonceSecret(cookieKeys),
    ...registration.providerDeps,
  });
  const audit = new AuditTrail(db, config.auditRetentionDays);
  // The audit webhook: its queue is written with the events; deliveries start with the app.
  const auditWebhook = config.auditWebhook
    ? new AuditWebhook(db, config.auditWebhook, logger, (outcome) => metrics.auditWebhookTries.inc({ outcome }))
    : undefined;
  if (auditWebhook) audit.queueDeliveries(() => auditWebhook.wake());
  const grants = new ConnectedGrants(db, store.longReads);
  declareProviderHooks(provider, { logger, metrics, suspensions, audit, siteChoices, grants, registration, adapter });
  const connections = new Connections(provider, grants, audit);
  const limits = rateLimiting({
    limits: config.rateLimits,
    redis: store.redis,
    prefix: config.redisKeyPrefix,
    onLimited: (limit) => metrics.rateLimited.inc({ limit }),
  });

  const memberClients = new MemberClients(db, adapter);
  // Issue #11: an invitation's one-time link is also mailed to the invited address (API and /admin
  // alike; issue #25: through SMTP_URL, else into DATA_DIR/outbox/); the answer still shows it. Logs
  // name the domain, never the link.
  const mailer = observedMailer(
    createLinkMailer(config.smtpUrl, config.smtpFrom, config.baseUrl, path.join(config.dataDir, 'outbox')),
    dependencies,
  );
  // DESIGN D7: every message the server sends spends the mail budgets (src/http/mail-budget.ts).
  const mailBudget = new MailBudget({
    limits: config.mailLimits,
    redis: store.redis,
    prefix: config.redisKeyPrefix,
    onRefused: (budget) => metrics.rateLimited.inc({ limit: `mail_${budget}` }),
  });
  const invitations = new Invitations(
    db,
    async (siteId, inv, token) => {
      const site = await db.selectFrom('sites').select('name').where('id', '=', siteId).executeTakeFirst();
      try {
        await mailer.sendInvitationLink(
          inv.email,
          site?.name ?? siteId,
          inv.role,
          `${config.baseUrl}/invitations/${token}`,
          inv.expiresAt,
        );
      } catch (err) {
        logger.warn(
          { domain: inv.email.split('@')[1], err: { message: (err as Error).message } },
          'invitation e-mail not sent',
        );
      }
    },
    async (email) => {
      // An operator's invitation is counted per recipient and server-wide (no client address here).
      const spent = await mailBudget.spend(email);
      if (!spent.ok)
        throw new PlatformError('conflict', mailRetryText(spent.retryAfterSeconds), {
          reason: 'too_many_requests',
          retryAfterSeconds: spent.retryAfterSeconds,
        });
    },
  );
  // Issue #15: a switch of "MCP connections" made here forgets the kept suspension answers.
  const siteSettings = new SiteSettings(db, () => suspensions.forget());
  const admin: AdminServices = {
    accounts,
    operator: operatorServices(db, store.longReads),
    siteSettings,
    memberClients,
    invitations,
    content: new SiteContent(db),
    memberships: new Memberships(db),
    digitalProducts: new DigitalProducts(db),
    lecturers: new Lecturers(db),
    comments: new Comments(db),
    forms: new Forms(db),
    connections,
    audit,
    files: new SiteFiles(db as never),
    versions: new ResourceVersions(db),
    baseUrl: config.baseUrl,
  };
  // The member-data services: one instance each, shared by the Account API and the MCP tools.
  const account: AccountServices = {
    accounts,
    enrollments,
    orders: new Orders(db),
    eventRegistrations: new EventRegistrations(db),
    progress: new Progress(db),
    profiles: new Profiles(db),
  };
  const tools: ToolServices = {
    accounts,
    enrollments,
    catalog: new Catalog(db),
    records: new MemberRecords(db),
    orders: account.orders,
    eventRegistrations: account.eventRegistrations,
    progress: account.progress,
    operator: admin.operator,
    admin,
    loopShare,
    baseUrl: config.baseUrl,
  };
  const csrf = new CsrfTokens(cookieKeys);
  // DESIGN D15: proofs seen by any process, in the OIDC-state store.
  const proofReplay = store.redis
    ? redisProofReplay(store.redis, config.redisKeyPrefix)
    : sqliteProofReplay(store.sqlite!);
  const dpop = new DpopProofs(
    config.baseUrl,
    proofReplay,
    config.dpop.nonces ? new DpopNonces(dpopNonceSecret(cookieKeys)) : undefined,
  );
  return {
    config,
    logger,
    renderError: errorRenderer({ docsUrl: config.docsUrl, logger }),
    metrics,
    store,
    adapter,
    readiness,
    dependencies,
    signing,
    cookieKeys,
    csrf,
    provider,
    siteChoices,
    registration,
    suspensions,
    limits,
    loopShare,
    accounts,
    enrollments,
    memberClients,
    audit,
    auditWebhook,
    tracing,
    grants,
    connections,
    invitations,
    siteSettings,
    oneTimeLinks: new OneTimeLinks(db),
    addressLinks: new AddressLinks(db),
    // Issue #25 finding 12: web sessions live in the OIDC-state store, ended server-side.
    sessions: new WebSessions(csrf, adapter, accounts),
    idempotency: new IdempotencyKeys(db as never),
    mailer,
    mailBudget,
    signInEvents: new SignInEvents(accounts, audit),
    account,
    admin,
    tools,
    dpop,
  };
}
