/**
 * Typed configuration (DESIGN.md §3 test-automation contract, operator guide "Configuration").
 *
 * Sources, later ones win: built-in defaults → `config/default.yaml` → environment variables
 * (an empty variable counts as unset).
 * Every value is validated with zod at start; an invalid or (in production) missing setting stops
 * the process with a message that names the setting.
 * Every environment variable and every key of the file is catalogued, described, in
 * `src/config-settings.ts` (the zod `ENV_SCHEMA` and `DEFAULTS_FILE_SCHEMA`, which also holds the
 * built-in defaults, and the operator guide's tables generated from them); no other module reads
 * `process.env`.
 */
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { DEFAULTS_FILE_SCHEMA, ENV_SCHEMA, MODES, withoutBlanks, type EnvValues } from './config-settings.js';
import type { ClientKind } from './domain/client-kinds.js';
import { isLoopbackHost } from './http/loopback.js';

/** An `http://` origin that is not loopback (an unparseable value is the schema's to refuse). */
function plainHttpPublic(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/** Accepted `NODE_ENV` values (DESIGN §3), from the catalogue. */
export { MODES };

/** `config/default.yaml` after validation: every key present (the schema holds the built-in defaults). */
type DefaultsFile = z.output<typeof DEFAULTS_FILE_SCHEMA>;

/** Raised when configuration is missing or invalid; `message` names the setting. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A rate limit: at most `points` requests per `duration` seconds per key (DESIGN D7). */
export interface RateLimit {
  points: number;
  duration: number;
}

/** The limits of DESIGN D7 and what each is keyed by. */
export interface RateLimits {
  /** Token endpoint, per client_id. */
  token: RateLimit;
  /** Revocation endpoint, per client_id. */
  revocation: RateLimit;
  /** Introspection endpoint, per client_id. */
  introspection: RateLimit;
  /** Failed logins, per account (e-mail) + IP. */
  loginFailures: RateLimit;
  /** Dynamic registration, per IP. */
  registration: RateLimit;
}

/**
 * Budgets of the e-mails the server sends (password resets, invitations, join links), each
 * `points` messages per `duration` seconds: per recipient address, per client address (IPv6 per
 * /64) and for the whole server (`RATE_LIMIT_MAIL_*`).
 */
export interface MailLimits {
  address: RateLimit;
  ip: RateLimit;
  global: RateLimit;
}

/** How much of the mail outbox (`DATA_DIR/outbox/`, no `SMTP_URL`) is kept: messages and hours. */
export interface OutboxBounds {
  maxMessages: number;
  maxAgeHours: number;
}

/** The validated configuration the whole process runs with. Durations are in seconds. */
export interface Config {
  /** `development` seeds demo data and generates missing secrets; `production` requires them. */
  mode: 'development' | 'production' | 'test';
  /** TCP port to listen on (0 = any free port). */
  port: number;
  /** The origin: issuer, protected-resource identifier and audience of every access token. No trailing slash. */
  baseUrl: string;
  /** Directory of the embedded SQLite store (`coursegate.db`). */
  dataDir: string;
  /**
   * The environment `loadConfig` read, for the vendor secrets `config/integrations.yaml` names by
   * variable (`client_secret_env`, src/oauth/integrations.ts): names chosen by the operator, so
   * not in the settings catalogue.
   */
  secretEnvironment: Readonly<NodeJS.ProcessEnv>;
  /** SQLite `synchronous` pragma (`SQLITE_SYNCHRONOUS`): `FULL` survives power loss, `NORMAL` is faster. */
  sqliteSynchronous: 'FULL' | 'NORMAL';
  /** `redis://…` for OIDC state on Redis; undefined = embedded store. */
  redisUrl: string | undefined;
  /** Fixed password of the demo accounts (development only); undefined = random, printed once. */
  demoPassword: string | undefined;
  /** Developer documentation (SPEC {docs_url}): advertised in discovery, linked from error descriptions. No trailing slash; default `<baseUrl>/docs`. */
  docsUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Cookie signing keys (newest first); undefined in development = generated and kept in the store. */
  cookieKeys: string[] | undefined;
  /** Private ES256 JWKs given by the operator (production), the signing one first; undefined in development = generated. */
  signingKeys: Array<Record<string, unknown>> | undefined;
  idTokenSigning: 'active' | 'published';
  /** DESIGN D6 rotation schedule of stored keys, seconds: JWKS Cache-Control max-age, key re-read interval. */
  keys: { jwksMaxAge: number; refreshSeconds: number };
  /** GraphiQL at `GET /account/graphql` (ACCOUNT_GRAPHIQL=1|0; default on in development, never in production). */
  graphiql: boolean;
  integrationsFile: string;
  demoSeedFile: string;
  /** Client ID Metadata Documents (SPEC §5.4): see `src/oauth/cimd.ts` and docs/operator-integrations.md. */
  cimd: CimdConfig;
  /**
   * DPoP (RFC 9449, DESIGN D15): `required` lists the client kinds whose token requests must carry
   * a proof (`DPOP_REQUIRED`); `nonces` makes the token endpoint and every resource surface demand
   * a server-provided nonce (§8, §9; `DPOP_NONCES=true`).
   */
  dpop: { required: readonly ClientKind[]; nonces: boolean };
  /**
   * Lifetimes in seconds; `refreshGrace` is DESIGN D3's grace window after a rotation,
   * `refreshTombstone` how long a rotated refresh token is remembered (reuse detection).
   */
  ttl: {
    accessToken: number;
    refreshToken: number;
    authorizationCode: number;
    idToken: number;
    session: number;
    refreshGrace: number;
    refreshTombstone: number;
  };
  /**
   * Trusted proxy hops (`TRUST_PROXY`): 0 = none. Only the client address (`X-Forwarded-For`, that
   * many entries from the right) and the scheme (`X-Forwarded-Proto`) are taken from a proxy;
   * never the host: every absolute URL is built from `baseUrl` (DESIGN D7).
   */
  trustProxy: number;
  /**
   * `/metrics`: on its own listener when `port` is set (`METRICS_PORT`, 0 = any free port), on the
   * main port behind `Authorization: Bearer <token>` when `token` is set (`METRICS_TOKEN`), open on
   * the main port only in development/test with neither set; else not served.
   */
  metrics: { port: number | undefined; token: string | undefined; openOnMainPort: boolean };
  /** DESIGN D10: days the audit trail keeps its events (`AUDIT_RETENTION_DAYS`, default 90). */
  auditRetentionDays: number;
  /**
   * The audit webhook (`AUDIT_WEBHOOK_URL`, `AUDIT_WEBHOOK_SECRET`, `AUDIT_WEBHOOK_MAX_ATTEMPTS`;
   * src/ops/audit-webhook.ts): every audit event POSTed, signed, at least once; undefined = off.
   */
  auditWebhook?: { url: string; secret: string; maxAttempts: number };
  /**
   * Traces over OTLP/HTTP (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_SERVICE_NAME`; src/ops/tracing.ts);
   * undefined = off (nothing of the SDK loaded).
   */
  tracing?: { endpoint: string; serviceName: string };
  /**
   * Issue #29: fraction of the event loop operator requests may take while other requests are in
   * flight (`OPERATOR_LOOP_SHARE`, 0.01–1, default 0.1; 1 = unscheduled; src/http/operator-share.ts).
   */
  operatorLoopShare: number;
  /** Issue #10: largest uploaded file in bytes (`UPLOAD_MAX_BYTES`, default 5 MiB, at most `UPLOAD_CEILING_BYTES`). */
  uploadMaxBytes: number;
  /** `SMTP_URL` (smtp:// or smtps://): one-time links are also e-mailed when set (src/ops/mail.ts). */
  smtpUrl?: string;
  /** `SMTP_FROM`: sender of those e-mails. */
  smtpFrom?: string;
  /** Mail budgets (`RATE_LIMIT_MAIL_ADDRESS`, `RATE_LIMIT_MAIL_IP`, `RATE_LIMIT_MAIL_GLOBAL`). */
  mailLimits: MailLimits;
  /** `OUTBOX_MAX_MESSAGES`, `OUTBOX_MAX_AGE_HOURS`: the outbox kept by the retention job. */
  outbox: OutboxBounds;
  /** `postgres://…` for platform data on PostgreSQL; undefined = the embedded SQLite file. */
  databaseUrl: string | undefined;
  /** Redis Cluster seed nodes (`host:port`); REDIS_URL then only gives credentials/TLS. */
  redisClusterNodes: string[] | undefined;
  /** Prefix of every Redis key (OIDC state and rate-limit counters). */
  redisKeyPrefix: string;
  /** Issue #28: Redis Sentinel (`REDIS_SENTINELS` `host:port` + `REDIS_SENTINEL_NAME`); REDIS_URL then only gives credentials/TLS/database. */
  redisSentinel: { sentinels: string[]; name: string; password?: string } | undefined;
  /** Issue #28: replicas that must acknowledge a token/session write (Redis `WAIT`) before it is answered; 0 = none. */
  redisMinReplicasAcked: number;
  /** Issue #28: PostgreSQL pool size per process (`DATABASE_POOL_MAX`, default 10). */
  databasePoolMax: number;
  /** Issue #28 (DESIGN D12): migrate the platform store at start (`MIGRATE_ON_START`, default true). */
  migrateOnStart: boolean;
  /** Issue #28: bind address of the main port (`HOST`); undefined = every interface. */
  host: string | undefined;
  /** Issue #28: bind address of the `METRICS_PORT` listener (`METRICS_HOST`); undefined = every interface. */
  metricsHost: string | undefined;
  /** Issue #28 (DESIGN D12): SIGTERM drain, seconds: serve on with /readyz 503 (`delay`), then finish in-flight work (`grace`). */
  shutdown: { delaySeconds: number; graceSeconds: number };
  /** DESIGN D12: seconds between the background probes of each store behind `/healthz` details (`HEALTH_PROBE_SECONDS`). */
  healthProbeSeconds: number;
  /** DESIGN D7 rate limits. */
  rateLimits: RateLimits;
}

/** Client ID Metadata Document settings (SPEC §5.4). */
export interface CimdConfig {
  /** Hosts (lower case, `host` or `host:port`) whose documents may be fetched. */
  allowedHosts: string[];
  /** Document URLs an operator reviewed: kind `cimd_reviewed` (DESIGN D2). */
  reviewed: string[];
  /** Open registration: any public HTTPS host may serve a document. */
  open: boolean;
  /** Seconds a document that failed to load is not fetched again (`CIMD_NEGATIVE_CACHE_SECONDS`, 0 = off). */
  negativeCacheSeconds: number;
  /** Test-only (refused in production): allow fetching from loopback addresses. */
  allowLoopback: boolean;
  /** Test-only (refused in production): PEM file of an extra CA trusted by the document fetcher. */
  testCaFile: string | undefined;
  /**
   * Test-only (refused in production, `CIMD_TEST_RESOLVE`): lower-case host name → loopback address
   * and port the document fetcher connects to instead of resolving the name (TLS still checks the name).
   */
  testResolve: ReadonlyMap<string, { host: string; port: number }>;
}

function readCimd(settings: EnvValues, file: DefaultsFile['cimd'], mode: Config['mode']): CimdConfig {
  const allowLoopback = settings.CIMD_ALLOW_LOOPBACK ?? false;
  const testCaFile = settings.CIMD_TEST_CA_FILE;
  const testResolve = settings.CIMD_TEST_RESOLVE ?? new Map();
  if (mode === 'production' && (allowLoopback || testCaFile || testResolve.size > 0)) {
    throw new ConfigError(
      'CIMD_ALLOW_LOOPBACK / CIMD_TEST_CA_FILE / CIMD_TEST_RESOLVE: test-only switches, refused in production',
    );
  }
  const reviewed = settings.CIMD_REVIEWED ?? file.reviewed;
  for (const url of reviewed)
    if (!url.startsWith('https://')) throw new ConfigError(`CIMD_REVIEWED / cimd.reviewed: not an https URL: ${url}`);
  return {
    allowedHosts: (settings.CIMD_ALLOWED_HOSTS ?? file.allowed_hosts).map((h) => h.toLowerCase()),
    reviewed,
    open: settings.CIMD_OPEN ?? file.open,
    negativeCacheSeconds: settings.CIMD_NEGATIVE_CACHE_SECONDS ?? file.negative_cache_seconds,
    allowLoopback,
    testCaFile,
    testResolve,
  };
}

const jwkSchema = z
  .object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string(), d: z.string() })
  .passthrough();

/**
 * Reads the operator's signing keys: one private ES256 JWK, or a JWK Set `{ "keys": [...] }` for
 * rotation (DESIGN D6): the first key signs (`active`), the others are only published in the JWKS
 * (a next key announced early, or a retired one kept until the id_tokens it signed expire).
 */
function readSigningKeys(settings: EnvValues): Array<Record<string, unknown>> | undefined {
  let raw: string | undefined;
  let source = 'SIGNING_KEY';
  if (settings.SIGNING_KEY_FILE) {
    source = 'SIGNING_KEY_FILE';
    if (!existsSync(settings.SIGNING_KEY_FILE))
      throw new ConfigError(`SIGNING_KEY_FILE: no file at ${settings.SIGNING_KEY_FILE}`);
    raw = readFileSync(settings.SIGNING_KEY_FILE, 'utf8');
  } else if (settings.SIGNING_KEY) {
    raw = settings.SIGNING_KEY;
  }
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // `npm run keys:generate > file` writes npm's banner ("> coursegate@… keys:generate") first.
    const banner = /^\s*> /.test(raw)
      ? '; it starts with npm\'s "> …" banner lines: make it with `npm run keys:generate -- --out <file>` (or `npm run --silent keys:generate > <file>`)'
      : '';
    throw new ConfigError(`${source}: not JSON (expected a private EC P-256 JWK or a JWK Set of them)${banner}`);
  }
  const list =
    parsed && typeof parsed === 'object' && Array.isArray((parsed as { keys?: unknown }).keys)
      ? (parsed as { keys: unknown[] }).keys
      : [parsed];
  if (list.length === 0) throw new ConfigError(`${source}: the JWK Set has no keys`);
  return list.map((key, i) => {
    const result = jwkSchema.safeParse(key);
    if (!result.success)
      throw new ConfigError(`${source}: key ${i}: expected a private EC P-256 JWK with kty, crv, x, y and d`);
    return result.data;
  });
}

/**
 * `AUDIT_WEBHOOK_*` (see `Config.auditWebhook`): the URL needs the secret; production needs https
 * (a plain-http receiver on a loopback address aside: a local log shipper).
 * @throws ConfigError when the secret is missing or the URL's scheme is refused
 */
function readAuditWebhook(settings: EnvValues, mode: Config['mode']): Config['auditWebhook'] {
  const url = settings.AUDIT_WEBHOOK_URL;
  if (url === undefined) {
    if (settings.AUDIT_WEBHOOK_SECRET !== undefined)
      throw new ConfigError('AUDIT_WEBHOOK_SECRET: set without AUDIT_WEBHOOK_URL (where should events go?)');
    return undefined;
  }
  if (settings.AUDIT_WEBHOOK_SECRET === undefined)
    throw new ConfigError(
      "AUDIT_WEBHOOK_SECRET: required with AUDIT_WEBHOOK_URL (≥ 32 characters; `openssl rand -hex 32` makes one): the receiver checks each event's signature with it",
    );
  const { protocol, hostname } = new URL(url);
  const loopback = hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
  if (mode === 'production' && protocol !== 'https:' && !loopback)
    throw new ConfigError('AUDIT_WEBHOOK_URL: https required in production (plain http only to a loopback address)');
  return { url, secret: settings.AUDIT_WEBHOOK_SECRET, maxAttempts: settings.AUDIT_WEBHOOK_MAX_ATTEMPTS ?? 16 };
}

/** `METRICS_PORT` / `METRICS_TOKEN`: where `/metrics` is served (see `Config.metrics`). */
function readMetrics(settings: EnvValues, mode: Config['mode']): Config['metrics'] {
  const token = settings.METRICS_TOKEN;
  const port = settings.METRICS_PORT;
  // Development and test keep /metrics open on the main port when nothing is configured.
  return { port, token, openOnMainPort: port === undefined && token === undefined && mode !== 'production' };
}

/**
 * Reads and validates `config/default.yaml` (or `CONFIG_FILE`) against `DEFAULTS_FILE_SCHEMA`; a
 * missing file yields the built-in defaults.
 * @throws ConfigError naming the file and the key at fault (also for text that is not YAML)
 */
function readDefaultsFile(configFile: string): DefaultsFile {
  let raw: unknown = {};
  if (existsSync(configFile)) {
    try {
      raw = parseYaml(readFileSync(configFile, 'utf8')) ?? {};
    } catch (err) {
      throw new ConfigError(`${configFile}: not valid YAML: ${(err as Error).message}`);
    }
  }
  const parsed = DEFAULTS_FILE_SCHEMA.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${configFile}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return parsed.data;
}

/**
 * Loads and validates the configuration.
 *
 * @param env process environment: every variable of `SETTINGS` (src/config-settings.ts), each
 *   parsed by its `ENV_VALUES` schema (an empty variable counts as unset), plus the vendor secrets
 *   `config/integrations.yaml` names (kept as `secretEnvironment`)
 * @param root directory holding `config/` (defaults to the current working directory)
 * @throws ConfigError naming every invalid variable and, in production, every missing required
 *   setting (one per line, each with how to make its value)
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): Config {
  // Every catalogued variable is typed and checked by its schema (src/config-settings.ts). Issue
  // #30 item 12: every invalid variable and every missing production setting is named at once,
  // each with how to make its value, so a first production start takes one round, not four.
  const problems: string[] = [];
  const raw = withoutBlanks(env);
  const checked = ENV_SCHEMA.safeParse(raw);
  if (!checked.success) {
    const seen = new Set<string>();
    for (const issue of checked.error.issues) {
      const name = issue.path.join('.');
      if (seen.has(name)) continue;
      seen.add(name);
      problems.push(`${name}: ${issue.message}`);
    }
  }
  if (raw.NODE_ENV === 'production') {
    // DESIGN §3: production refuses to start without real keys and secrets. Presence is read from
    // the raw variables, so a missing setting is named next to an invalid one.
    if (raw.BASE_URL === undefined)
      problems.push('BASE_URL: required in production (the issuer, e.g. https://auth.example.com)');
    else if (plainHttpPublic(raw.BASE_URL))
      // Tokens, codes and session cookies would cross the network in the clear, and every cookie
      // would lose `Secure` (RFC 9700 §2.6 and §4.1.1: TLS for every endpoint but loopback).
      problems.push(
        `BASE_URL: must be https:// in production (got ${raw.BASE_URL}); only a loopback origin (127.0.0.1, [::1], localhost) may use http://. Behind a TLS-terminating proxy, set the public https:// origin and TRUST_PROXY=1`,
      );
    if (raw.COOKIE_SECRETS === undefined) {
      problems.push(
        "COOKIE_SECRETS: required in production (comma-separated, ≥ 32 characters each; make one with `openssl rand -base64 32` or `node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\"`)",
      );
    }
    if (raw.SIGNING_KEY === undefined && raw.SIGNING_KEY_FILE === undefined && raw.SIGNING_KEYS !== 'store') {
      problems.push(
        'SIGNING_KEY_FILE: required in production (a private ES256 JWK; `npm run keys:generate -- --out signing-key.json` makes one), or SIGNING_KEYS=store with keys managed by `npm run keys`',
      );
    }
  }
  if (problems.length === 1) throw new ConfigError(problems[0]!);
  if (problems.length > 1 || !checked.success)
    throw new ConfigError(`${problems.length} settings to fix:\n  ${problems.join('\n  ')}`);
  const settings = checked.data;
  const mode = settings.NODE_ENV ?? 'development';
  const file = readDefaultsFile(settings.CONFIG_FILE ?? path.join(root, 'config', 'default.yaml'));
  const port = settings.PORT ?? file.port;

  const baseUrl = settings.BASE_URL ?? `http://localhost:${port}`;
  // SPEC {docs_url}; by default the Markdown pages this server publishes under /docs (docs-links.ts).
  const docsUrl = settings.DOCS_URL ?? (file.docs_url ?? `${baseUrl}/docs`).replace(/\/+$/, '');
  const ttl = file.token_ttl;

  return {
    mode,
    port,
    baseUrl,
    dataDir: path.resolve(root, settings.DATA_DIR ?? file.data_dir),
    sqliteSynchronous: settings.SQLITE_SYNCHRONOUS ?? 'NORMAL',
    secretEnvironment: env,
    redisUrl: settings.REDIS_URL,
    demoPassword: settings.DEMO_PASSWORD,
    docsUrl,
    logLevel: settings.LOG_LEVEL ?? file.log_level,
    cookieKeys: settings.COOKIE_SECRETS,
    signingKeys: readSigningKeys(settings),
    idTokenSigning: settings.ID_TOKEN_SIGNING ?? file.id_token_signing,
    keys: { jwksMaxAge: settings.KEYS_JWKS_MAX_AGE ?? 600, refreshSeconds: settings.KEYS_REFRESH_SECONDS ?? 10 },
    graphiql: mode !== 'production' && (settings.ACCOUNT_GRAPHIQL ?? mode === 'development'),
    integrationsFile: path.resolve(root, settings.INTEGRATIONS_FILE ?? file.integrations_file),
    demoSeedFile: path.resolve(root, settings.DEMO_SEED_FILE ?? file.demo_seed_file),
    cimd: readCimd(settings, file.cimd, mode),
    dpop: { required: settings.DPOP_REQUIRED ?? [], nonces: settings.DPOP_NONCES ?? false },
    ttl: {
      accessToken: ttl.access_token,
      refreshToken: ttl.refresh_token,
      authorizationCode: ttl.authorization_code,
      idToken: ttl.id_token,
      session: ttl.session,
      refreshGrace: settings.REFRESH_GRACE_SECONDS ?? ttl.refresh_grace,
      refreshTombstone: ttl.refresh_tombstone,
    },
    trustProxy: settings.TRUST_PROXY ?? 0,
    metrics: readMetrics(settings, mode),
    auditRetentionDays: settings.AUDIT_RETENTION_DAYS ?? 90,
    auditWebhook: readAuditWebhook(settings, mode),
    tracing: settings.OTEL_EXPORTER_OTLP_ENDPOINT
      ? { endpoint: settings.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: settings.OTEL_SERVICE_NAME ?? 'coursegate' }
      : undefined,
    operatorLoopShare: settings.OPERATOR_LOOP_SHARE ?? 0.1,
    uploadMaxBytes: settings.UPLOAD_MAX_BYTES ?? 5 * 1024 * 1024,
    smtpUrl: settings.SMTP_URL,
    smtpFrom: settings.SMTP_FROM,
    mailLimits: {
      address: settings.RATE_LIMIT_MAIL_ADDRESS ?? { points: 5, duration: 3600 },
      ip: settings.RATE_LIMIT_MAIL_IP ?? { points: 20, duration: 3600 },
      global: settings.RATE_LIMIT_MAIL_GLOBAL ?? { points: 1000, duration: 3600 },
    },
    outbox: {
      maxMessages: settings.OUTBOX_MAX_MESSAGES ?? 10_000,
      maxAgeHours: settings.OUTBOX_MAX_AGE_HOURS ?? 168,
    },
    ...storageSettings(settings, file),
  };
}

function storageSettings(
  settings: EnvValues,
  file: DefaultsFile,
): Pick<
  Config,
  | 'databaseUrl'
  | 'redisClusterNodes'
  | 'redisKeyPrefix'
  | 'rateLimits'
  | 'redisSentinel'
  | 'redisMinReplicasAcked'
  | 'databasePoolMax'
  | 'migrateOnStart'
  | 'host'
  | 'metricsHost'
  | 'shutdown'
  | 'healthProbeSeconds'
> {
  const nodes = settings.REDIS_CLUSTER_NODES;
  const sentinels = settings.REDIS_SENTINELS;
  // Issue #28 / DESIGN D12: one way to reach Redis at a time.
  if (sentinels?.length && nodes?.length)
    throw new ConfigError('REDIS_SENTINELS: not together with REDIS_CLUSTER_NODES (a Cluster fails over by itself)');
  if (sentinels?.length && !settings.REDIS_SENTINEL_NAME)
    throw new ConfigError(
      'REDIS_SENTINEL_NAME: required with REDIS_SENTINELS (the name of `sentinel monitor <name> …`)',
    );
  if (settings.REDIS_SENTINEL_NAME && !sentinels?.length)
    throw new ConfigError("REDIS_SENTINELS: required with REDIS_SENTINEL_NAME (the sentinels' host:port list)");
  const redisSentinel = sentinels?.length
    ? { sentinels, name: settings.REDIS_SENTINEL_NAME!, password: settings.REDIS_SENTINEL_PASSWORD }
    : undefined;
  const redisMinReplicasAcked = settings.REDIS_MIN_REPLICAS_ACKED ?? (redisSentinel ? 1 : 0);
  if (redisMinReplicasAcked > 0 && nodes?.length)
    throw new ConfigError('REDIS_MIN_REPLICAS_ACKED: not supported with REDIS_CLUSTER_NODES (set 0)');
  if (redisMinReplicasAcked > 0 && !redisSentinel && !settings.REDIS_URL)
    throw new ConfigError('REDIS_MIN_REPLICAS_ACKED: needs REDIS_URL or REDIS_SENTINELS');
  const f = file.rate_limits;
  const rateLimits: RateLimits = {
    token: settings.RATE_LIMIT_TOKEN ?? f.token,
    revocation: settings.RATE_LIMIT_REVOCATION ?? f.revocation,
    introspection: settings.RATE_LIMIT_INTROSPECTION ?? f.introspection,
    loginFailures: settings.RATE_LIMIT_LOGIN_FAILURES ?? f.login_failures,
    registration: settings.RATE_LIMIT_REGISTRATION ?? f.registration,
  };
  return {
    databaseUrl: settings.DATABASE_URL,
    redisClusterNodes: nodes?.length ? nodes : undefined,
    redisKeyPrefix: settings.REDIS_KEY_PREFIX ?? 'cg',
    rateLimits,
    redisSentinel,
    redisMinReplicasAcked,
    databasePoolMax: settings.DATABASE_POOL_MAX ?? 10,
    migrateOnStart: settings.MIGRATE_ON_START ?? true,
    host: settings.HOST,
    metricsHost: settings.METRICS_HOST,
    shutdown: {
      // A load balancer needs a few seconds to see /readyz fail and stop sending: without a delay
      // the requests it still sends meanwhile are refused.
      delaySeconds: settings.SHUTDOWN_DELAY_SECONDS ?? 5,
      graceSeconds: settings.SHUTDOWN_GRACE_SECONDS ?? 10,
    },
    healthProbeSeconds: settings.HEALTH_PROBE_SECONDS ?? 5,
  };
}
