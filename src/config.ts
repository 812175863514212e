/**
 * Typed configuration (DESIGN.md §3 test-automation contract, operator guide "Configuration").
 *
 * Sources, later ones win: built-in defaults → `config/default.yaml` → environment variables.
 * Every value is validated with zod at start; an invalid or (in production) missing setting stops
 * the process with a message that names the setting.
 * Every environment variable and every key of the file is catalogued, described, in
 * `src/config-settings.ts` (the zod `ENV_SCHEMA` and `DEFAULTS_FILE_SCHEMA`, which also holds the
 * built-in defaults, and the operator guide's tables generated from them); no other module reads
 * `process.env`.
 */
import { UPLOAD_CEILING_BYTES } from './platform/files.js';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { DEFAULTS_FILE_SCHEMA, ENV_SCHEMA } from './config-settings.js';

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


/** Reads `RATE_LIMIT_<NAME>=points/seconds` (e.g. `RATE_LIMIT_TOKEN=600/60`). */
function readRateLimit(env: NodeJS.ProcessEnv, name: string, fallback: RateLimit): RateLimit {
  const raw = env[`RATE_LIMIT_${name}`];
  if (!raw) return fallback;
  const m = /^(\d+)\/(\d+)$/.exec(raw.trim());
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new ConfigError(`RATE_LIMIT_${name}: expected points/seconds, e.g. 600/60`);
  return { points: Number(m[1]), duration: Number(m[2]) };
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
   * Lifetimes in seconds; `refreshGrace` is DESIGN D3's grace window after a rotation,
   * `refreshTombstone` how long a rotated refresh token is remembered (reuse detection).
   */
  ttl: { accessToken: number; refreshToken: number; authorizationCode: number; idToken: number; session: number; refreshGrace: number; refreshTombstone: number };
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
  /** Issue #10: largest uploaded file in bytes (`UPLOAD_MAX_BYTES`, default 5 MiB, at most `UPLOAD_CEILING_BYTES`). */
  uploadMaxBytes: number;
  /** `SMTP_URL` (smtp:// or smtps://): one-time links are also e-mailed when set (src/ops/mail.ts). */
  smtpUrl?: string;
  /** `SMTP_FROM`: sender of those e-mails. */
  smtpFrom?: string;
  /** `postgres://…` for platform data on PostgreSQL; undefined = the embedded SQLite file. */
  databaseUrl: string | undefined;
  /** Redis Cluster seed nodes (`host:port`); REDIS_URL then only gives credentials/TLS. */
  redisClusterNodes: string[] | undefined;
  /** Prefix of every Redis key (OIDC state and rate-limit counters). */
  redisKeyPrefix: string;
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
}

const list = (raw: string | undefined): string[] | undefined =>
  raw === undefined ? undefined : raw.split(',').map((s) => s.trim()).filter(Boolean);

function readCimd(env: NodeJS.ProcessEnv, file: DefaultsFile['cimd'], mode: Config['mode']): CimdConfig {
  const allowLoopback = env.CIMD_ALLOW_LOOPBACK === '1';
  const testCaFile = env.CIMD_TEST_CA_FILE || undefined;
  if (mode === 'production' && (allowLoopback || testCaFile)) {
    throw new ConfigError('CIMD_ALLOW_LOOPBACK / CIMD_TEST_CA_FILE: test-only switches, refused in production');
  }
  const reviewed = list(env.CIMD_REVIEWED) ?? file.reviewed;
  for (const url of reviewed) if (!url.startsWith('https://')) throw new ConfigError(`CIMD_REVIEWED / cimd.reviewed: not an https URL: ${url}`);
  const negativeRaw = env.CIMD_NEGATIVE_CACHE_SECONDS ?? String(file.negative_cache_seconds);
  const negativeCacheSeconds = Number(negativeRaw);
  if (!/^\d+$/.test(negativeRaw) || negativeCacheSeconds > 3600) throw new ConfigError('CIMD_NEGATIVE_CACHE_SECONDS: whole seconds, 0–3600');
  return {
    allowedHosts: (list(env.CIMD_ALLOWED_HOSTS) ?? file.allowed_hosts).map((h) => h.toLowerCase()),
    reviewed,
    open: env.CIMD_OPEN !== undefined ? env.CIMD_OPEN === '1' || env.CIMD_OPEN === 'true' : file.open,
    negativeCacheSeconds,
    allowLoopback,
    testCaFile,
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
function readSigningKeys(env: NodeJS.ProcessEnv): Array<Record<string, unknown>> | undefined {
  let raw: string | undefined;
  let source = 'SIGNING_KEY';
  if (env.SIGNING_KEY_FILE) {
    source = 'SIGNING_KEY_FILE';
    if (!existsSync(env.SIGNING_KEY_FILE)) throw new ConfigError(`SIGNING_KEY_FILE: no file at ${env.SIGNING_KEY_FILE}`);
    raw = readFileSync(env.SIGNING_KEY_FILE, 'utf8');
  } else if (env.SIGNING_KEY) {
    raw = env.SIGNING_KEY;
  }
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(`${source}: not JSON (expected a private EC P-256 JWK or a JWK Set of them)`);
  }
  const list = parsed && typeof parsed === 'object' && Array.isArray((parsed as { keys?: unknown }).keys) ? (parsed as { keys: unknown[] }).keys : [parsed];
  if (list.length === 0) throw new ConfigError(`${source}: the JWK Set has no keys`);
  return list.map((key, i) => {
    const result = jwkSchema.safeParse(key);
    if (!result.success) throw new ConfigError(`${source}: key ${i}: expected a private EC P-256 JWK with kty, crv, x, y and d`);
    return result.data;
  });
}

function readCookieKeys(env: NodeJS.ProcessEnv): string[] | undefined {
  if (!env.COOKIE_SECRETS) return undefined;
  const keys = env.COOKIE_SECRETS.split(',').map((k) => k.trim()).filter(Boolean);
  if (keys.length === 0 || keys.some((k) => k.length < 32)) {
    throw new ConfigError('COOKIE_SECRETS: comma-separated list of secrets, each at least 32 characters');
  }
  return keys;
}

/** Accepted `NODE_ENV` values (DESIGN §3): unset means `development`; anything else refuses to start. */
export const MODES = ['development', 'test', 'production'] as const;

function readMode(env: NodeJS.ProcessEnv): Config['mode'] {
  const raw = env.NODE_ENV;
  if (raw === undefined || raw === '') return 'development';
  if (!(MODES as readonly string[]).includes(raw)) {
    throw new ConfigError(`NODE_ENV: unknown value ${JSON.stringify(raw.slice(0, 40))}; accepted: ${MODES.join(', ')} (unset = development)`);
  }
  return raw as Config['mode'];
}

/**
 * `TRUST_PROXY`: how many proxies in front of the server append to `X-Forwarded-For`
 * (`1`/`true` = one, as documented; `0`/`false`/unset = none). The client address is the entry
 * that many places from the right: the address the nearest trusted proxy saw.
 */
function readTrustProxy(env: NodeJS.ProcessEnv): number {
  const raw = (env.TRUST_PROXY ?? '').trim().toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false') return 0;
  if (raw === 'true') return 1;
  const hops = Number(raw);
  if (!/^\d+$/.test(raw) || hops < 1 || hops > 10) throw new ConfigError('TRUST_PROXY: number of trusted proxy hops (1–10), or 0 / unset for none');
  return hops;
}

/** `METRICS_PORT` / `METRICS_TOKEN`: where `/metrics` is served (see `Config.metrics`). */
function readMetrics(env: NodeJS.ProcessEnv, mode: Config['mode']): Config['metrics'] {
  const token = env.METRICS_TOKEN || undefined;
  if (token !== undefined && token.length < 32) throw new ConfigError('METRICS_TOKEN: at least 32 characters');
  let port: number | undefined;
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== '') {
    port = Number(env.METRICS_PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`METRICS_PORT: not a port number: ${env.METRICS_PORT}`);
  }
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

function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`BASE_URL: not an absolute URL: ${raw}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError('BASE_URL: must be http(s)');
  if (url.pathname !== '/' || url.search || url.hash) throw new ConfigError('BASE_URL: must be an origin (no path, query or fragment)');
  return url.origin;
}

/**
 * Loads and validates the configuration.
 *
 * @param env process environment (PORT, BASE_URL, DATA_DIR, REDIS_URL, DEMO_PASSWORD, DOCS_URL,
 *   COOKIE_SECRETS, SIGNING_KEY / SIGNING_KEY_FILE, ID_TOKEN_SIGNING, LOG_LEVEL, NODE_ENV, TRUST_PROXY, METRICS_PORT, METRICS_TOKEN, CONFIG_FILE,
 *   INTEGRATIONS_FILE, CIMD_ALLOWED_HOSTS, CIMD_REVIEWED, CIMD_OPEN, CIMD_NEGATIVE_CACHE_SECONDS, CIMD_ALLOW_LOOPBACK, CIMD_TEST_CA_FILE,
 *   DATABASE_URL, REDIS_CLUSTER_NODES, REDIS_KEY_PREFIX, RATE_LIMIT_{TOKEN,REVOCATION,INTROSPECTION,LOGIN_FAILURES,REGISTRATION})
 * @param root directory holding `config/` (defaults to the current working directory)
 * @throws ConfigError naming the first missing or invalid setting
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): Config {
  const envCheck = ENV_SCHEMA.safeParse(env);
  if (!envCheck.success) throw new ConfigError(`${envCheck.error.issues[0]?.path.join('.')}: ${envCheck.error.issues[0]?.message}`);
  const configFile = env.CONFIG_FILE ?? path.join(root, 'config', 'default.yaml');
  const file = readDefaultsFile(configFile);
  const mode = readMode(env);

  const portRaw = env.PORT ?? String(file.port);
  const port = Number(portRaw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT: not a port number: ${portRaw}`);

  if (mode === 'production') {
    // DESIGN §3: production refuses to start without real keys and secrets.
    if (!env.BASE_URL) throw new ConfigError('BASE_URL: required in production (the issuer, e.g. https://auth.example.com)');
    if (!env.COOKIE_SECRETS) throw new ConfigError('COOKIE_SECRETS: required in production (comma-separated, ≥ 32 characters each)');
    readCookieKeys(env);
    if (!env.SIGNING_KEY && !env.SIGNING_KEY_FILE && env.SIGNING_KEYS !== 'store') {
      throw new ConfigError('SIGNING_KEY_FILE: required in production (a private ES256 JWK; `npm run keys:generate` makes one), or SIGNING_KEYS=store with keys managed by `npm run keys`');
    }
  }

  const baseUrl = normaliseBaseUrl(env.BASE_URL ?? `http://localhost:${port}`);
  const signing = env.ID_TOKEN_SIGNING ?? file.id_token_signing;
  if (signing !== 'active' && signing !== 'published') throw new ConfigError('ID_TOKEN_SIGNING: `active` or `published`');
  const logLevel = (env.LOG_LEVEL ?? file.log_level) as Config['logLevel'];
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) throw new ConfigError('LOG_LEVEL: unknown level');
  // SPEC {docs_url}; by default the Markdown pages this server publishes under /docs (docs-links.ts).
  const docsUrl = (env.DOCS_URL ?? file.docs_url ?? `${baseUrl}/docs`).replace(/\/+$/, '');
  try {
    new URL(docsUrl);
  } catch {
    throw new ConfigError('DOCS_URL: not an absolute URL');
  }
  const ttl = file.token_ttl;

  return {
    mode,
    port,
    baseUrl,
    dataDir: path.resolve(root, env.DATA_DIR ?? file.data_dir),
    sqliteSynchronous: env.SQLITE_SYNCHRONOUS === 'FULL' ? 'FULL' : 'NORMAL',
    secretEnvironment: env,
    redisUrl: env.REDIS_URL || undefined,
    demoPassword: env.DEMO_PASSWORD || undefined,
    docsUrl,
    logLevel,
    cookieKeys: readCookieKeys(env),
    signingKeys: readSigningKeys(env),
    idTokenSigning: signing,
    keys: { jwksMaxAge: readSeconds(env, 'KEYS_JWKS_MAX_AGE', 600, 1, 86_400), refreshSeconds: readSeconds(env, 'KEYS_REFRESH_SECONDS', 10, 1, 300) },
    graphiql: mode !== 'production' && (env.ACCOUNT_GRAPHIQL ? env.ACCOUNT_GRAPHIQL === '1' : mode === 'development'),
    integrationsFile: path.resolve(root, env.INTEGRATIONS_FILE ?? file.integrations_file),
    demoSeedFile: path.resolve(root, env.DEMO_SEED_FILE ?? file.demo_seed_file),
    cimd: readCimd(env, file.cimd, mode),
    ttl: {
      accessToken: ttl.access_token,
      refreshToken: ttl.refresh_token,
      authorizationCode: ttl.authorization_code,
      idToken: ttl.id_token,
      session: ttl.session,
      refreshGrace: readGraceSeconds(env, ttl.refresh_grace),
      refreshTombstone: ttl.refresh_tombstone,
    },
    trustProxy: readTrustProxy(env),
    metrics: readMetrics(env, mode),
    auditRetentionDays: readRetentionDays(env.AUDIT_RETENTION_DAYS),
    uploadMaxBytes: readUploadMaxBytes(env.UPLOAD_MAX_BYTES),
    smtpUrl: readSmtpUrl(env.SMTP_URL),
    smtpFrom: env.SMTP_FROM || undefined,
    ...storageSettings(env, file),
  };
}

/** A whole number of seconds from the environment, `min`–`max`, else `fallback`. @throws ConfigError */
function readSeconds(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name}: whole seconds from ${min} to ${max}`);
  return n;
}

/** REFRESH_GRACE_SECONDS (or `token_ttl.refresh_grace`): 0–300 s, default 30 (DESIGN D3). */
function readGraceSeconds(env: NodeJS.ProcessEnv, fromFile: number): number {
  const raw = env.REFRESH_GRACE_SECONDS;
  if (raw === undefined || raw === '') return fromFile;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 300) throw new ConfigError('REFRESH_GRACE_SECONDS: whole seconds from 0 to 300');
  return n;
}

/** `AUDIT_RETENTION_DAYS`: whole days, 1…3650 (DESIGN D10). @throws ConfigError otherwise */
function readRetentionDays(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 90;
  const days = Number(raw);
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw new ConfigError('AUDIT_RETENTION_DAYS: whole days between 1 and 3650');
  return days;
}

/** `UPLOAD_MAX_BYTES`: whole bytes, 1 KiB…`UPLOAD_CEILING_BYTES` (the route's body limit). @throws ConfigError otherwise */
function readUploadMaxBytes(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 5 * 1024 * 1024;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1024 || n > UPLOAD_CEILING_BYTES) throw new ConfigError(`UPLOAD_MAX_BYTES: whole bytes between 1024 and ${UPLOAD_CEILING_BYTES}`);
  return n;
}

/** `SMTP_URL`: an smtp:// or smtps:// URL, or unset. @throws ConfigError otherwise */
function readSmtpUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^smtps?:\/\/[^\s]+$/.test(raw)) throw new ConfigError('SMTP_URL: expected smtp://[user:pass@]host[:port] or smtps://…');
  return raw;
}

function storageSettings(env: NodeJS.ProcessEnv, file: DefaultsFile): Pick<Config, 'databaseUrl' | 'redisClusterNodes' | 'redisKeyPrefix' | 'rateLimits'> {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new ConfigError('DATABASE_URL: expected postgres://user[:password]@host[:port]/database');
  const nodes = env.REDIS_CLUSTER_NODES?.split(',').map((n) => n.trim()).filter(Boolean);
  if (nodes?.some((n) => !/^[^:\s]+:\d+$/.test(n))) throw new ConfigError('REDIS_CLUSTER_NODES: comma-separated host:port list');
  const redisKeyPrefix = env.REDIS_KEY_PREFIX ?? 'cg';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(redisKeyPrefix)) throw new ConfigError('REDIS_KEY_PREFIX: letters, digits, _ . : - only (no braces)');
  const f = file.rate_limits;
  const rateLimits: RateLimits = {
    token: readRateLimit(env, 'TOKEN', f.token),
    revocation: readRateLimit(env, 'REVOCATION', f.revocation),
    introspection: readRateLimit(env, 'INTROSPECTION', f.introspection),
    loginFailures: readRateLimit(env, 'LOGIN_FAILURES', f.login_failures),
    registration: readRateLimit(env, 'REGISTRATION', f.registration),
  };
  return { databaseUrl, redisClusterNodes: nodes?.length ? nodes : undefined, redisKeyPrefix, rateLimits };
}
