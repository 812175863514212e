/**
 * The configuration schema (issue #9): one catalogue, in zod, of everything an operator can set,
 * every entry described.
 *
 * - **Environment** (`SETTINGS`, `ENV_SCHEMA`): one entry per variable, with its
 *   `config/default.yaml` key where the file can set it too, its default and what it means.
 * - **`config/default.yaml`** (`DEFAULTS_FILE_SCHEMA`): every key, its type, bounds and built-in
 *   default (the one place those defaults live); environment variables override it.
 * - **`config/integrations.yaml`** (`INTEGRATIONS_FILE_SCHEMA`): the vendor platforms (SPEC §5.4,
 *   DESIGN D1 rows 3–4).
 * - **`config/demo-seed.yaml`** (`DEMO_SEED_SCHEMA`, declared beside its loader in
 *   src/platform/seed.ts, which may import nothing outside the platform layer): the demo data.
 *
 * `CONFIG_SCHEMA` puts the three sections side by side. `src/config.ts` validates the environment
 * and the defaults file against it and then interprets each value; `src/oauth/integrations.ts`
 * validates the integrations file. The operator guide's tables are generated from it
 * (`GENERATED_TABLES`: the environment table and the `config/default.yaml` table in
 * docs/operator-guide.md, the `config/integrations.yaml` table in docs/operator-integrations.md),
 * and so are the JSON Schemas `config/*.schema.json` that YAML editors validate against;
 * `test/unit/config-settings.test.ts` keeps all of them in step.
 *
 * To add a setting: add one entry (and/or one described key), read it in `loadConfig`, then
 * regenerate with `node scripts/on-lts.mjs tsx scripts/settings-table.ts --write` (DESIGN §3:
 * documented names never change).
 */
import { z } from 'zod';
import { OPERATOR_SCOPES } from './domain/scopes.js';
import { CLIENT_KINDS, type ClientKind } from './domain/client-kinds.js';
import { UPLOAD_CEILING_BYTES } from './platform/files.js';
import { DEMO_SEED_SCHEMA } from './platform/seed.js';

/** One setting. */
export interface Setting {
  /** Environment variable name (DESIGN §3: stable). */
  env: string;
  /** Key path in `config/default.yaml`, when the file can set it too. */
  yaml?: string;
  /**
   * Default, as shown to operators. Where `yaml` names a key with a built-in default, the guide
   * shows the schema's (`shownDefault`) and test/unit/config-settings.test.ts fails if this text
   * disagrees with it.
   */
  default: string;
  /** What it does; `★` settings are required in production. */
  description: string;
  requiredInProduction?: boolean;
}

/** Every setting, in the order of the operator guide. */
export const SETTINGS: readonly Setting[] = [
  {
    env: 'NODE_ENV',
    default: '`development`',
    description:
      '`development` (unset), `test` or `production`; anything else refuses to start. `production` requires the settings marked ★ and never seeds demo data',
  },
  { env: 'PORT', yaml: 'port', default: '`3000`', description: 'listening port' },
  {
    env: 'BASE_URL',
    default: '`http://localhost:$PORT`',
    description: 'the origin: issuer, protected-resource identifier, token audience. No path, no trailing slash',
    requiredInProduction: true,
  },
  {
    env: 'COOKIE_SECRETS',
    default: 'generated and kept in the store (dev)',
    description: 'comma-separated, ≥ 32 characters each; the first signs, all verify (rotation: prepend a new one)',
    requiredInProduction: true,
  },
  {
    env: 'SIGNING_KEY_FILE',
    default: 'generated and kept in the store (dev)',
    description: 'file holding a private ES256 JWK, or a JWK Set whose first key signs',
    requiredInProduction: true,
  },
  { env: 'SIGNING_KEY', default: 'unset', description: 'the same JWK (Set) as JSON, instead of `SIGNING_KEY_FILE`' },
  {
    env: 'SIGNING_KEYS',
    default: '—',
    description:
      '`store` (production): sign with the stored keys managed by `npm run keys` instead of `SIGNING_KEY(_FILE)`',
  },
  {
    env: 'KEYS_JWKS_MAX_AGE',
    default: '`600`',
    description: 'seconds; JWKS `Cache-Control: max-age`, and the wait between `add` and `activate` (stored keys)',
  },
  {
    env: 'KEYS_REFRESH_SECONDS',
    default: '`10`',
    description: 'seconds; how often each process re-reads the stored keys',
  },
  {
    env: 'ID_TOKEN_SIGNING',
    yaml: 'id_token_signing',
    default: '`active`',
    description:
      '`active`: id_tokens are signed; `published`: the key is in the JWKS but no id_token is issued and discovery omits `id_token_signing_alg_values_supported`',
  },
  {
    env: 'ACCOUNT_GRAPHIQL',
    default: '`1` in development, else `0`',
    description: '`1`: GraphiQL at `GET /account/graphql` for browsers (never in production); docs/account-api.md',
  },
  {
    env: 'DATA_DIR',
    yaml: 'data_dir',
    default: '`./data`',
    description:
      'directory of the embedded store `coursegate.db`; created 0700 with the file 0600; a warning at start when an existing one is readable by others',
  },
  {
    env: 'DOCS_URL',
    yaml: 'docs_url',
    default: '`$BASE_URL/docs`',
    description:
      "where the developer docs live: advertised as `service_documentation` and `resource_documentation`, and linked from every integrator-facing error description. By default this server publishes the Markdown pages of `docs/` there itself (`GET /docs/mcp.md`, …); point it at your own docs site or the repository's `docs/` folder (same file names and heading anchors) to change that",
  },
  { env: 'LOG_LEVEL', yaml: 'log_level', default: '`info`', description: 'pino level; `silent` turns logs off' },
  {
    env: 'TRUST_PROXY',
    default: 'off',
    description:
      'number of trusted proxy hops (`1` = one TLS-terminating proxy). Only the client address (that many `X-Forwarded-For` entries from the right) and the scheme (`X-Forwarded-Proto`, with an `http://` `BASE_URL` only: an `https://` one makes every cookie `Secure` whatever the proxy sends) are taken from it; never the host: every URL comes from `BASE_URL`',
  },
  {
    env: 'DEMO_PASSWORD',
    default: 'random',
    description:
      'password of the demo accounts (development only); on a store seeded earlier they take it at every start',
  },
  { env: 'DEMO_SEED_FILE', yaml: 'demo_seed_file', default: '`config/demo-seed.yaml`', description: 'demo data' },
  {
    env: 'INTEGRATIONS_FILE',
    yaml: 'integrations_file',
    default: '`config/integrations.yaml`',
    description: 'vendor platforms',
  },
  {
    env: 'SQLITE_SYNCHRONOUS',
    default: '`NORMAL`',
    description:
      "`FULL` makes every commit survive a power loss (≈ 2× slower token endpoint); with `NORMAL` a power loss can lose the last ~250 ms of commits (the background checkpoint's interval)",
  },
  { env: 'CONFIG_FILE', default: '`config/default.yaml`', description: 'another defaults file' },
  {
    env: 'REDIS_URL',
    default: 'unset (embedded)',
    description:
      'OIDC state (codes, tokens, grants, sessions; a cache of the clients, whose record is the platform store) and rate-limit counters on Redis; see [deployment.md](deployment.md)',
  },
  {
    env: 'REDIS_CLUSTER_NODES',
    default: 'unset',
    description: 'Redis Cluster seed nodes `host:port,…`; `REDIS_URL` then only gives credentials/TLS',
  },
  {
    env: 'REDIS_SENTINELS',
    default: 'unset',
    description:
      'Redis Sentinel addresses `host:port,…` (with `REDIS_SENTINEL_NAME`): the client asks them for the current primary and follows failovers; `REDIS_URL` then only gives credentials, TLS and database; see [deployment.md](deployment.md)',
  },
  {
    env: 'REDIS_SENTINEL_NAME',
    default: 'unset',
    description:
      "the monitored primary's name in the sentinels' configuration (`sentinel monitor <name> …`); required with `REDIS_SENTINELS`",
  },
  {
    env: 'REDIS_SENTINEL_PASSWORD',
    default: 'unset',
    description: 'password of the sentinels themselves (`requirepass` in sentinel.conf), when they have one',
  },
  {
    env: 'REDIS_MIN_REPLICAS_ACKED',
    default: '`1` with `REDIS_SENTINELS`, else `0`',
    description:
      'token and session writes (code redemption, refresh rotation, revocation) are answered only once this many replicas acknowledged them (Redis `WAIT`); too few acknowledgements within 500 ms (`WAIT n 500`) make the request a 503 + `Retry-After`, never a success a failover can take back. 0–5',
  },
  { env: 'REDIS_KEY_PREFIX', default: '`cg`', description: 'prefix of every Redis key' },
  {
    env: 'DATABASE_URL',
    default: 'unset (embedded)',
    description: 'platform data and keys on PostgreSQL (`postgres://…`)',
  },
  {
    env: 'RATE_LIMIT_TOKEN',
    yaml: 'rate_limits.token',
    default: '`600/60`',
    description:
      'token endpoint, `points/seconds` per client_id + address (IPv6: per /64); the client as a whole gets 10 ×, spent only by requests that proved the client or a grant',
  },
  {
    env: 'RATE_LIMIT_REVOCATION',
    yaml: 'rate_limits.revocation',
    default: '`600/60`',
    description: 'revocation endpoint, as `RATE_LIMIT_TOKEN`',
  },
  {
    env: 'RATE_LIMIT_INTROSPECTION',
    yaml: 'rate_limits.introspection',
    default: '`6000/60`',
    description: 'introspection endpoint, as `RATE_LIMIT_TOKEN`',
  },
  {
    env: 'RATE_LIMIT_LOGIN_FAILURES',
    yaml: 'rate_limits.login_failures',
    default: '`5/900`',
    description: 'failed sign-ins per account + address; a point is reserved before the password check',
  },
  {
    env: 'RATE_LIMIT_REGISTRATION',
    yaml: 'rate_limits.registration',
    default: '`60/600`',
    description: 'dynamic client registrations per address',
  },
  {
    env: 'RATE_LIMIT_MAIL_ADDRESS',
    default: '`5/3600`',
    description:
      'e-mails per recipient address, `points/seconds`, counted for every message the server sends (password reset, invitation, join link) whether or not the address has an account; past it the request is answered 429 + `Retry-After`. Separate from `RATE_LIMIT_LOGIN_FAILURES`: asking for mail never locks a sign-in',
  },
  {
    env: 'RATE_LIMIT_MAIL_IP',
    default: '`20/3600`',
    description:
      'e-mails caused per client address (IPv6: per /64), `points/seconds`, as `RATE_LIMIT_MAIL_ADDRESS` (operator invitations are counted per recipient and server-wide only)',
  },
  {
    env: 'RATE_LIMIT_MAIL_GLOBAL',
    default: '`1000/3600`',
    description: 'e-mails the whole server sends, `points/seconds`, as `RATE_LIMIT_MAIL_ADDRESS`',
  },
  {
    env: 'REFRESH_GRACE_SECONDS',
    yaml: 'token_ttl.refresh_grace',
    default: '`30`',
    description:
      'grace window: a refresh token rotated at most this long ago is answered with the same successor as its first rotation (lost responses, retries after a 503, parallel refreshes; never a second chain); `0` turns it off; 0–300',
  },
  {
    env: 'DPOP_REQUIRED',
    default: 'none',
    description:
      'client kinds whose token requests must carry a DPoP proof (RFC 9449), comma-separated among `loopback`, `cimd`, `cimd_reviewed`, `vendor`, `member`; a member app can also be switched on its own in `/admin`; see [security.md](security.md#dpop)',
  },
  {
    env: 'DPOP_NONCES',
    default: '`false`',
    description:
      '`true`: the token endpoint and every resource surface ask for a server-provided DPoP nonce (RFC 9449 §8, §9) before accepting a proof',
  },
  {
    env: 'CIMD_ALLOWED_HOSTS',
    yaml: 'cimd.allowed_hosts',
    default: 'none',
    description:
      'Client ID Metadata Documents: hosts that may serve them; see [operator-integrations.md](operator-integrations.md)',
  },
  {
    env: 'CIMD_REVIEWED',
    yaml: 'cimd.reviewed',
    default: 'none',
    description: 'document URLs an operator reviewed: their clients may request write scopes too',
  },
  {
    env: 'CIMD_OPEN',
    yaml: 'cimd.open',
    default: 'on',
    description:
      'any public HTTPS host may serve a document, accepted unreviewed (identity and read scopes); `0` keeps only `CIMD_ALLOWED_HOSTS` and the catalogue',
  },
  {
    env: 'CIMD_NEGATIVE_CACHE_SECONDS',
    yaml: 'cimd.negative_cache_seconds',
    default: '`30`',
    description:
      'a document that failed to load (status, timeout, size, refused address) is not fetched again for this long; the error names the cause (0 = off)',
  },
  { env: 'AUDIT_RETENTION_DAYS', default: '`90`', description: 'days the audit trail keeps its events (1–3650)' },
  {
    env: 'AUDIT_WEBHOOK_URL',
    default: 'unset (off)',
    description:
      'every audit event is also POSTed here as JSON, signed (`Coursegate-Signature`), retried with backoff, at least once; https in production (plain http only to a loopback address). See "Audit webhook"',
  },
  {
    env: 'AUDIT_WEBHOOK_SECRET',
    default: 'unset',
    description: 'HMAC-SHA256 key of the webhook signature, ≥ 32 characters; required with `AUDIT_WEBHOOK_URL`',
  },
  {
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    default: 'unset (no traces)',
    description:
      'OTLP/HTTP base URL of a collector, e.g. `http://otel-collector:4318`: traces of every request (its store calls and operations) are exported to `<endpoint>/v1/traces`. See docs/deployment.md "Traces"',
  },
  { env: 'OTEL_SERVICE_NAME', default: '`coursegate`', description: '`service.name` of the exported traces' },
  {
    env: 'AUDIT_WEBHOOK_MAX_ATTEMPTS',
    default: '`16` (about 2.5 hours of retries)',
    description:
      'tries of one delivery before it is kept as a dead letter (1–100); the delay doubles from 1 s up to 15 minutes',
  },
  {
    env: 'OPERATOR_LOOP_SHARE',
    default: '`0.1`',
    description:
      'share of the event loop operator requests (`/api/v1`, `/admin`, MCP operator tools) may take while token traffic is being served, 0.01–1; beyond it they wait (never refused, at most 5 s) for their turn. `1` turns this off. See "Operator requests and token traffic"',
  },
  {
    env: 'UPLOAD_MAX_BYTES',
    default: '`5242880` (5 MiB)',
    description:
      'largest file `POST /api/v1/files` accepts (`storage:write`, 413 above); 1024 to 67108864 (64 MiB, the route\'s body limit). Files are kept in the platform store; see "File storage"',
  },
  {
    env: 'SMTP_URL',
    default: 'unset',
    description:
      '`smtp://user:pass@host:587` or `smtps://…:465`: one-time links (first password, invitations, address links) are e-mailed through it; unset, every message is written to `DATA_DIR/outbox/` instead',
  },
  {
    env: 'SMTP_FROM',
    default: '`coursegate <no-reply@…>` (host of `BASE_URL`)',
    description: 'sender of those e-mails',
  },
  {
    env: 'OUTBOX_MAX_MESSAGES',
    default: '`10000`',
    description:
      'without `SMTP_URL`: most messages kept in `DATA_DIR/outbox/`; the retention job (every 10 minutes) deletes the oldest beyond it and logs how many (`outbox_pruned`, a count only). 100–1000000',
  },
  {
    env: 'OUTBOX_MAX_AGE_HOURS',
    default: '`168` (7 days)',
    description:
      'without `SMTP_URL`: messages older than this are deleted from `DATA_DIR/outbox/` by the same job (their links expired long before). 1–8760',
  },
  {
    env: 'CIMD_ALLOW_LOOPBACK',
    default: 'off',
    description: 'test only (refused in production): fetch documents from loopback addresses',
  },
  {
    env: 'CIMD_TEST_CA_FILE',
    default: 'unset',
    description: 'test only (refused in production): PEM of an extra CA trusted by the document fetcher',
  },
  {
    env: 'CIMD_TEST_RESOLVE',
    default: 'unset',
    description:
      'test only (refused in production): `host=127.0.0.1:port` pairs, comma-separated; the document fetcher connects there for that host name (TLS still checks the name)',
  },
  {
    env: 'METRICS_PORT',
    default: 'unset',
    description: 'serve `/metrics` on its own listener on this port only (bind it to a private network)',
  },
  {
    env: 'METRICS_TOKEN',
    default: 'unset',
    description:
      'serve `/metrics` on the main port to `Authorization: Bearer <token>` only (≥ 32 characters). With neither setting `/metrics` is open in development/test and not served in production',
  },
  {
    env: 'HOST',
    default: 'all interfaces',
    description: 'address the main port binds to (`0.0.0.0`, `::`, `127.0.0.1`, …)',
  },
  {
    env: 'METRICS_HOST',
    default: 'all interfaces',
    description: 'address the `METRICS_PORT` listener binds to (a private network address)',
  },
  {
    env: 'DATABASE_POOL_MAX',
    default: '`10`',
    description:
      "PostgreSQL connections per process (1–200); the database's `max_connections` must cover every process's pool plus the migration job",
  },
  {
    env: 'MIGRATE_ON_START',
    default: '`true`',
    description:
      '`false`: the process does not migrate the platform store at start (run `npm run migrate` first) and refuses to start while the schema is behind, naming the command; see [deployment.md](deployment.md)',
  },
  {
    env: 'SHUTDOWN_DELAY_SECONDS',
    default: '`5`',
    description:
      'on SIGTERM `/readyz` answers 503 at once and the process keeps serving this long (so load balancers and Kubernetes endpoints notice) before it stops accepting connections; 0–300 (0: stop accepting at once, for a single process with nothing in front)',
  },
  {
    env: 'SHUTDOWN_GRACE_SECONDS',
    default: '`10`',
    description:
      'after it stops accepting, requests in flight get this long to finish before their connections are closed; 1–600',
  },
  {
    env: 'HEALTH_PROBE_SECONDS',
    default: '`5`',
    description:
      'how often each store (embedded SQLite, PostgreSQL, Redis) is probed in the background for the `/healthz` details and `coursegate_dependency_up`; 1–300',
  },
];

// ---------------------------------------------------------------------------------------------
// Environment values: the type of each variable
// ---------------------------------------------------------------------------------------------

/** A value refused: `message` follows the variable's name in the `ConfigError`. */
const refuse = (ctx: z.RefinementCtx, message: string) => {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
};

/** A whole number `min`–`max` (as `Number()` reads it). */
const wholeNumber = (min: number, max: number, message: (raw: string) => string) =>
  z.string().transform((raw, ctx) => {
    const n = Number(raw);
    return Number.isInteger(n) && n >= min && n <= max ? n : refuse(ctx, message(raw));
  });

/** Digits only, `min`–`max`. */
const digits = (min: number, max: number, message: string) =>
  z
    .string()
    .transform((raw, ctx) =>
      /^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : refuse(ctx, message),
    );

/** A comma-separated list; empty items dropped. */
const commaList = z.string().transform((raw) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/** A flag: `1` (or `true` where `alsoTrue`) is on, anything else off. */
const flag = (alsoTrue = false) => z.string().transform((raw) => raw === '1' || (alsoTrue && raw === 'true'));

/** `points/seconds` (DESIGN D7), e.g. `600/60`. */
const pointsPerSeconds = z.string().transform((raw, ctx) => {
  const m = /^(\d+)\/(\d+)$/.exec(raw.trim());
  return m && Number(m[1]) >= 1 && Number(m[2]) >= 1
    ? { points: Number(m[1]), duration: Number(m[2]) }
    : refuse(ctx, 'expected points/seconds, e.g. 600/60');
});

const port = wholeNumber(0, 65535, (raw) => `not a port number: ${raw}`);

/** The origin of an absolute http(s) URL (SPEC: issuer = resource identifier, no trailing slash). */
const origin = z.string().transform((raw, ctx) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse(ctx, `not an absolute URL: ${raw}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse(ctx, 'must be http(s)');
  if (url.pathname !== '/' || url.search || url.hash)
    return refuse(ctx, 'must be an origin (no path, query or fragment)');
  return url.origin;
});

/** Accepted `NODE_ENV` values (DESIGN §3): unset means `development`; anything else refuses to start. */
export const MODES = ['development', 'test', 'production'] as const;

/** Pino levels. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The value of each environment variable: a zod schema from the variable's text (never blank: an
 * empty variable counts as unset) to the typed value `src/config.ts` uses, with the message a
 * refused value gets. Variables whose text is used as it is are plain strings. Keyed like `SETTINGS`.
 */
export const ENV_VALUES = {
  NODE_ENV: z
    .string()
    .transform((raw, ctx) =>
      (MODES as readonly string[]).includes(raw)
        ? (raw as (typeof MODES)[number])
        : refuse(
            ctx,
            `unknown value ${JSON.stringify(raw.slice(0, 40))}; accepted: ${MODES.join(', ')} (unset = development)`,
          ),
    ),
  PORT: port,
  BASE_URL: origin,
  COOKIE_SECRETS: commaList.refine(
    (keys) => keys.length > 0 && keys.every((k) => k.length >= 32),
    'comma-separated list of secrets, each at least 32 characters',
  ),
  SIGNING_KEY_FILE: z.string(),
  SIGNING_KEY: z.string(),
  SIGNING_KEYS: z.string(),
  KEYS_JWKS_MAX_AGE: wholeNumber(1, 86_400, () => 'whole seconds from 1 to 86400'),
  KEYS_REFRESH_SECONDS: wholeNumber(1, 300, () => 'whole seconds from 1 to 300'),
  ID_TOKEN_SIGNING: z.enum(['active', 'published'], { error: '`active` or `published`' }),
  ACCOUNT_GRAPHIQL: flag(),
  DATA_DIR: z.string(),
  DOCS_URL: z.string().transform((raw, ctx) => {
    const url = raw.replace(/\/+$/, '');
    return URL.canParse(url) ? url : refuse(ctx, 'not an absolute URL');
  }),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: 'unknown level' }),
  TRUST_PROXY: z.string().transform((text, ctx) => {
    const raw = text.trim().toLowerCase();
    if (raw === '' || raw === '0' || raw === 'false') return 0;
    if (raw === 'true') return 1;
    return /^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 10
      ? Number(raw)
      : refuse(ctx, 'number of trusted proxy hops (1–10), or 0 / unset for none');
  }),
  DEMO_PASSWORD: z.string(),
  DEMO_SEED_FILE: z.string(),
  INTEGRATIONS_FILE: z.string(),
  SQLITE_SYNCHRONOUS: z.string().transform((raw) => (raw === 'FULL' ? ('FULL' as const) : ('NORMAL' as const))),
  CONFIG_FILE: z.string(),
  REDIS_URL: z.string(),
  REDIS_CLUSTER_NODES: commaList.refine(
    (nodes) => nodes.every((n) => /^[^:\s]+:\d+$/.test(n)),
    'comma-separated host:port list',
  ),
  REDIS_SENTINELS: commaList.refine(
    (nodes) => nodes.length > 0 && nodes.every((n) => /^[^:\s]+:\d+$/.test(n)),
    'comma-separated host:port list',
  ),
  REDIS_SENTINEL_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,128}$/, 'the master name of `sentinel monitor` (letters, digits, _ . -)'),
  REDIS_SENTINEL_PASSWORD: z.string(),
  REDIS_MIN_REPLICAS_ACKED: wholeNumber(0, 5, () => 'a whole number of replicas from 0 to 5'),
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits, _ . : - only (no braces)'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'expected postgres://user[:password]@host[:port]/database'),
  RATE_LIMIT_TOKEN: pointsPerSeconds,
  RATE_LIMIT_REVOCATION: pointsPerSeconds,
  RATE_LIMIT_INTROSPECTION: pointsPerSeconds,
  RATE_LIMIT_LOGIN_FAILURES: pointsPerSeconds,
  RATE_LIMIT_REGISTRATION: pointsPerSeconds,
  RATE_LIMIT_MAIL_ADDRESS: pointsPerSeconds,
  RATE_LIMIT_MAIL_IP: pointsPerSeconds,
  RATE_LIMIT_MAIL_GLOBAL: pointsPerSeconds,
  REFRESH_GRACE_SECONDS: wholeNumber(0, 300, () => 'whole seconds from 0 to 300'),
  DPOP_REQUIRED: commaList.transform((kinds, ctx) =>
    kinds.every((k): k is ClientKind => k in CLIENT_KINDS)
      ? kinds
      : refuse(ctx, `comma-separated client kinds among ${Object.keys(CLIENT_KINDS).join(', ')}`),
  ),
  DPOP_NONCES: flag(true),
  CIMD_ALLOWED_HOSTS: commaList,
  CIMD_REVIEWED: commaList,
  CIMD_OPEN: flag(true),
  CIMD_NEGATIVE_CACHE_SECONDS: digits(0, 3600, 'whole seconds, 0–3600'),
  AUDIT_RETENTION_DAYS: wholeNumber(1, 3650, () => 'whole days between 1 and 3650'),
  AUDIT_WEBHOOK_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+[^\s]*$/, 'an http(s) URL, e.g. https://siem.example.com/hooks/coursegate'),
  AUDIT_WEBHOOK_SECRET: z.string().min(32, 'at least 32 characters'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+[^\s?#]*$/, 'an http(s) URL, e.g. http://otel-collector:4318'),
  OTEL_SERVICE_NAME: z.string().regex(/^[\w.-]{1,100}$/, 'letters, digits, `.`, `_` and `-`, at most 100'),
  AUDIT_WEBHOOK_MAX_ATTEMPTS: wholeNumber(1, 100, () => 'whole number of tries from 1 to 100'),
  OPERATOR_LOOP_SHARE: z.string().transform((raw, ctx) => {
    const n = Number(raw);
    return /^(0|1)?(\.\d+)?$/.test(raw.trim()) && raw.trim() !== '' && n >= 0.01 && n <= 1
      ? n
      : refuse(ctx, 'a fraction between 0.01 and 1, e.g. 0.1');
  }),
  UPLOAD_MAX_BYTES: wholeNumber(
    1024,
    UPLOAD_CEILING_BYTES,
    () => `whole bytes between 1024 and ${UPLOAD_CEILING_BYTES}`,
  ),
  SMTP_URL: z.string().regex(/^smtps?:\/\/[^\s]+$/, 'expected smtp://[user:pass@]host[:port] or smtps://…'),
  SMTP_FROM: z.string(),
  OUTBOX_MAX_MESSAGES: wholeNumber(100, 1_000_000, () => 'a whole number of messages from 100 to 1000000'),
  OUTBOX_MAX_AGE_HOURS: wholeNumber(1, 8760, () => 'whole hours from 1 to 8760'),
  CIMD_ALLOW_LOOPBACK: flag(),
  CIMD_TEST_CA_FILE: z.string(),
  CIMD_TEST_RESOLVE: z.string().transform((raw, ctx) => {
    const pairs = new Map<string, { host: string; port: number }>();
    for (const item of raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const m = /^([a-z0-9.-]+)=(127\.0\.0\.1|\[::1\]):(\d{1,5})$/i.exec(item);
      if (!m || Number(m[3]) < 1 || Number(m[3]) > 65535)
        return refuse(ctx, `\`host=127.0.0.1:port\` pairs, comma-separated; not: ${item}`);
      pairs.set(m[1]!.toLowerCase(), { host: m[2]!.replace(/^\[|\]$/g, ''), port: Number(m[3]) });
    }
    return pairs;
  }),
  METRICS_PORT: port,
  METRICS_TOKEN: z.string().min(32, 'at least 32 characters'),
  HOST: z.string().regex(/^[0-9A-Za-z.:-]{1,253}$/, 'an IP address or host name to bind to'),
  METRICS_HOST: z.string().regex(/^[0-9A-Za-z.:-]{1,253}$/, 'an IP address or host name to bind to'),
  DATABASE_POOL_MAX: wholeNumber(1, 200, () => 'whole number of connections from 1 to 200'),
  MIGRATE_ON_START: z
    .string()
    .transform((raw, ctx) =>
      ['true', '1'].includes(raw) ? true : ['false', '0'].includes(raw) ? false : refuse(ctx, '`true` or `false`'),
    ),
  SHUTDOWN_DELAY_SECONDS: wholeNumber(0, 300, () => 'whole seconds from 0 to 300'),
  SHUTDOWN_GRACE_SECONDS: wholeNumber(1, 600, () => 'whole seconds from 1 to 600'),
  HEALTH_PROBE_SECONDS: wholeNumber(1, 300, () => 'whole seconds from 1 to 300'),
} satisfies Record<string, z.ZodType<unknown, string>>;

/** A catalogued environment variable. */
export type EnvName = keyof typeof ENV_VALUES;

type EnvShape = { [K in EnvName]: z.ZodOptional<(typeof ENV_VALUES)[K]> };

const described = (name: string) => SETTINGS.find((s) => s.env === name)?.description ?? '';

/**
 * The zod schema of the environment: every catalogued variable, typed and described, optional.
 * Parse `withoutBlanks(env)`: an empty variable counts as unset. Other variables pass unread.
 */
export const ENV_SCHEMA = z.object(
  Object.fromEntries(
    Object.entries(ENV_VALUES).map(([name, value]) => [name, value.optional().describe(described(name))]),
  ) as EnvShape,
);

/** The typed environment: each catalogued variable's value, undefined when unset. */
export type EnvValues = z.output<typeof ENV_SCHEMA>;

/** The environment without its empty variables (`FOO=` means unset, for every setting). */
export function withoutBlanks(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''),
  );
}

// ---------------------------------------------------------------------------------------------
// config/default.yaml
// ---------------------------------------------------------------------------------------------

const seconds = (description: string, fallback: number) =>
  z.number().int().positive().default(fallback).describe(`${description}; seconds`);

/** A DESIGN D7 limit in the file: at most `points` requests per `duration` seconds per key. */
const rateLimit = (description: string, points: number, duration: number) =>
  z
    .object({
      points: z.number().int().positive().describe('requests allowed per window'),
      duration: z.number().int().positive().describe('window length, seconds'),
    })
    .default({ points, duration })
    .describe(description);

/**
 * `config/default.yaml` (or the file `CONFIG_FILE` names): every key, described, with its
 * built-in default. A missing file means all defaults; an unknown top-level key stops the start.
 */
export const DEFAULTS_FILE_SCHEMA = z
  .object({
    port: z.number().int().min(0).max(65535).default(3000).describe('listening port (0 = any free port)'),
    data_dir: z
      .string()
      .min(1)
      .default('./data')
      .describe('directory of the embedded store `coursegate.db`, relative to the working directory'),
    docs_url: z
      .string()
      .url()
      .optional()
      .describe(
        'where the developer docs live (every `error_uri` points into them); unset = `$BASE_URL/docs`, the pages of `docs/` served by this server',
      ),
    log_level: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info')
      .describe('pino level; `silent` turns logs off'),
    id_token_signing: z
      .enum(['active', 'published'])
      .default('active')
      .describe('`active`: ES256 id_tokens are signed; `published`: the key is in the JWKS but no id_token is issued'),
    integrations_file: z
      .string()
      .min(1)
      .default('config/integrations.yaml')
      .describe('the vendor platforms file (its keys: docs/operator-integrations.md)'),
    demo_seed_file: z
      .string()
      .min(1)
      .default('config/demo-seed.yaml')
      .describe('demo data, loaded into an empty store in development only'),
    cimd: z
      .object({
        allowed_hosts: z
          .array(z.string().min(1))
          .default([])
          .describe('hosts (`host` or `host:port`) whose Client ID Metadata Documents may be fetched'),
        reviewed: z
          .array(z.string().url())
          .default([])
          .describe(
            'document URLs an operator reviewed: client kind `cimd_reviewed`, which may request write scopes too',
          ),
        open: z
          .boolean()
          .default(true)
          .describe(
            'any public HTTPS host may serve a document (unreviewed: identity and read scopes only); `false`: only `allowed_hosts` and the documents of config/integrations.yaml',
          ),
        negative_cache_seconds: z
          .number()
          .int()
          .min(0)
          .max(3600)
          .default(30)
          .describe('a document that failed to load is not fetched again for this long; seconds, 0 = off'),
      })
      .strict()
      .prefault({})
      .describe('Client ID Metadata Documents (docs/operator-integrations.md)'),
    token_ttl: z
      .object({
        access_token: seconds('access token lifetime', 3600),
        refresh_token: seconds('refresh token lifetime; rotated on every use', 30 * 24 * 3600),
        authorization_code: seconds('authorization code lifetime', 60),
        id_token: seconds('id_token lifetime', 600),
        session: seconds('browser session lifetime', 14 * 24 * 3600),
        refresh_grace: z
          .number()
          .int()
          .min(0)
          .max(300)
          .default(30)
          .describe(
            'grace window after a rotation: the rotated token is answered with the same successor again; seconds, 0 = off',
          ),
        refresh_tombstone: seconds('how long a rotated refresh token is remembered for reuse detection', 7 * 24 * 3600),
      })
      .prefault({})
      .describe('lifetimes'),
    rate_limits: z
      .object({
        token: rateLimit('token endpoint, per client_id + address; the client as a whole gets 10 ×', 600, 60),
        revocation: rateLimit('revocation endpoint, per client_id + address', 600, 60),
        introspection: rateLimit('introspection endpoint, per client_id + address', 6000, 60),
        login_failures: rateLimit('failed sign-ins per account + address', 5, 900),
        registration: rateLimit('dynamic client registrations per address', 60, 600),
      })
      .prefault({})
      .describe('rate limits: 429 + Retry-After above them'),
  })
  .strict()
  .describe('config/default.yaml: defaults that environment variables override');

// ---------------------------------------------------------------------------------------------
// config/integrations.yaml
// ---------------------------------------------------------------------------------------------

/**
 * A hosted callback (https), or, beside at least one of those, a loopback callback of the same
 * host's desktop app (issue #26: VS Code registers `https://vscode.dev/redirect` together with
 * `http://127.0.0.1:33418/`; RFC 8252 §7.3).
 */
const callbackUri = z
  .string()
  .url()
  .refine(
    (u) =>
      (u.startsWith('https://') || /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(:\d+)?\//.test(u)) && !u.includes('#'),
    'must be an https URI, or an http loopback URI, without fragment',
  );

/** One vendor platform (SPEC §5.4 "Vendor platform", DESIGN D1 rows 3–4, D2 `vendor`). */
export const INTEGRATION_SCHEMA = z
  .object({
    name: z.string().min(1).max(200).describe('the `client_name` the platform sends at registration'),
    names: z
      .array(z.string().min(1).max(200))
      .optional()
      .describe(
        'other `client_name`s of the same product accepted at registration (its variants, e.g. `Visual Studio Code - Insiders`, `VSCodium`)',
      ),
    client_id: z
      .string()
      .regex(
        /^[A-Za-z0-9._~-]{3,128}$/,
        'letters, digits and . _ ~ - only (a URL would clash with Client ID Metadata Documents)',
      )
      .describe('the fixed `client_id` returned to it on every registration (letters, digits, `. _ ~ -`; 3–128)'),
    redirect_uris: z
      .array(callbackUri)
      .min(1)
      .refine(
        (uris) => uris.some((u) => u.startsWith('https://')),
        'needs at least one https callback (the host D1 matches on)',
      )
      .describe(
        'its hosted callbacks (https, no fragment), plus any loopback callbacks its desktop app sends with them (http://127.0.0.1:<port>/…: any port, `127.0.0.1` or `localhost`, RFC 8252 §7.3); registration accepts any subset, authorization only these',
      ),
    // DESIGN D2: identity scopes are implied; operator scopes only, never account:* (SPEC §2.5 rule 1).
    scopes: z
      .array(z.string().refine((s) => OPERATOR_SCOPES.has(s), 'not an operator scope (account:* is never allowed)'))
      .describe(
        'operator scopes it may request (`openid profile email` are implied; never `account:*`, which only member clients get)',
      ),
    client_secret_env: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/)
      .optional()
      .describe(
        'name of the environment variable holding its secret (≥ 32 characters): a confidential client (`client_secret_post`). Never a secret in the file',
      ),
    example: z
      .boolean()
      .optional()
      .describe('`true`: loaded in development and test only, ignored when `NODE_ENV=production`'),
    enabled: z
      .boolean()
      .optional()
      .describe(
        '`false`: switched off, not loaded (its registrations are refused as for an unknown host); default `true`',
      ),
  })
  .strict()
  .describe('one vendor platform');

/** One Client ID Metadata Document of the catalogue (DESIGN D13): a host's document, reviewed or switched off. */
export const CATALOGUE_DOCUMENT_SCHEMA = z
  .object({
    name: z.string().min(1).max(200).describe('the host, in words (logs and docs)'),
    client_id: z
      .string()
      .url()
      .refine((u) => u.startsWith('https://') && !u.includes('#'), 'must be an https URL without fragment')
      .describe('the document URL, which the host sends as its `client_id`'),
    reviewed: z
      .boolean()
      .optional()
      .describe(
        '`true` (default): an operator read the document; its client may request write scopes too (kind `cimd_reviewed`). `false`: treated as any unreviewed document',
      ),
    enabled: z
      .boolean()
      .optional()
      .describe('`false`: switched off, the document is never fetched and its client is refused; default `true`'),
  })
  .strict()
  .describe('one Client ID Metadata Document');

/** `config/integrations.yaml` (or the file `INTEGRATIONS_FILE` names); a missing file means no vendor platforms. */
export const INTEGRATIONS_FILE_SCHEMA = z
  .object({
    integrations: z
      .array(INTEGRATION_SCHEMA)
      .default([])
      .describe('the vendor platforms, each a static client of kind `vendor`'),
    documents: z
      .array(CATALOGUE_DOCUMENT_SCHEMA)
      .default([])
      .describe(
        'Client ID Metadata Documents an operator reviewed or switched off; any other https document is accepted unreviewed (`cimd.open`)',
      ),
  })
  .strict()
  .describe('config/integrations.yaml: vendor platforms and reviewed Client ID Metadata Documents');

/** The whole catalogue: the environment and the YAML files, side by side. */
export const CONFIG_SCHEMA = z
  .object({
    environment: ENV_SCHEMA,
    'config/default.yaml': DEFAULTS_FILE_SCHEMA,
    'config/integrations.yaml': INTEGRATIONS_FILE_SCHEMA,
    'config/demo-seed.yaml': DEMO_SEED_SCHEMA,
  })
  .describe('coursegate configuration: environment variables and configuration files');

// ---------------------------------------------------------------------------------------------
// Generated documentation
// ---------------------------------------------------------------------------------------------

/** The built-in defaults of `config/default.yaml` (the zod schema's, what an absent file means). */
export function builtInDefaults(): Record<string, unknown> {
  return DEFAULTS_FILE_SCHEMA.parse({}) as Record<string, unknown>;
}

/** The value at a dotted `config/default.yaml` key of `defaults` (undefined: none). */
function valueAt(defaults: Record<string, unknown>, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>(
      (node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined),
      defaults,
    );
}

/**
 * The default the operator guide shows for a setting (issue #27 part 4: generated, not copied).
 * A setting the file can set shows the file's built-in default, rendered as operators write the
 * variable (`points/seconds` for a rate limit, `none` for an empty list, `off`/`on` for a
 * boolean); a setting with no file default (computed at start, e.g. `$BASE_URL/docs`) shows its
 * hand-written `default`.
 * @param defaults the built-in defaults (`builtInDefaults()`; a test passes altered copies)
 */
export function shownDefault(setting: Setting, defaults: Record<string, unknown> = builtInDefaults()): string {
  const value = setting.yaml ? valueAt(defaults, setting.yaml) : undefined;
  if (value === undefined) return setting.default;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : `\`${value.join(',')}\``;
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (value && typeof value === 'object' && 'points' in value && 'duration' in value) {
    const limit = value as { points: number; duration: number };
    return `\`${limit.points}/${limit.duration}\``;
  }
  return `\`${String(value)}\``;
}

/**
 * Settings whose hand-written `default` disagrees with the schema's (empty: none). A changed zod
 * default or `config/default.yaml` shows up here, not as two defaults in the guide.
 */
export function defaultDrift(
  settings: readonly Setting[] = SETTINGS,
  defaults: Record<string, unknown> = builtInDefaults(),
): string[] {
  return settings
    .filter((s) => shownDefault(s, defaults) !== s.default)
    .map((s) => `${s.env}: SETTINGS says ${s.default}, the schema ${shownDefault(s, defaults)}`);
}

/**
 * The operator guide's settings table (markdown), generated from `SETTINGS`; the default column
 * comes from the schema where the file can set the variable (`shownDefault`).
 */
export function settingsTable(defaults: Record<string, unknown> = builtInDefaults()): string {
  const rows = SETTINGS.map((s) => {
    const name = `\`${s.env}\`${s.requiredInProduction ? ' ★' : ''}`;
    const yaml = s.yaml ? `\`${s.yaml}\`` : '';
    return `| ${name} | ${yaml} | ${shownDefault(s, defaults)} | ${s.description} |`;
  });
  return ['| env | `config/default.yaml` | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** The JSON Schema (draft 2020-12) of a file of the catalogue, as YAML editors read it. */
export function fileJsonSchema(file: ConfigFile): Record<string, unknown> {
  return z.toJSONSchema(FILES[file].schema, { io: 'input' }) as Record<string, unknown>;
}

/** A node of the JSON Schema `z.toJSONSchema` makes (the parts the tables read). */
interface JsonNode {
  type?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  properties?: Record<string, JsonNode>;
  required?: string[];
  items?: JsonNode;
}

/** One documented key of a YAML file: its dotted path (`[]` = each list item) and its schema. */
export interface FileKey {
  path: string;
  node: JsonNode;
  /** The key must be present (it has no default). */
  required: boolean;
}

/** Every key of a file's schema, depth first, in declaration order. */
export function fileKeys(file: ConfigFile): FileKey[] {
  const out: FileKey[] = [];
  const walk = (node: JsonNode, prefix: string) => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const path = prefix ? `${prefix}.${key}` : key;
      out.push({ path, node: child, required: node.required?.includes(key) ?? false });
      if (child.type === 'object') walk(child, path);
      if (child.type === 'array' && child.items?.type === 'object') walk(child.items, `${path}[]`);
    }
  };
  walk(fileJsonSchema(file) as JsonNode, '');
  return out;
}

const code = (v: unknown) =>
  v === ''
    ? 'empty'
    : `\`${
        typeof v === 'string'
          ? v
          : JSON.stringify(v)
              .replace(/"([a-z_]+)":/g, '$1: ')
              .replace(/,/g, ', ')
      }\``;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Plain words for a schema node's type and bounds. */
function typeOf(node: JsonNode): string {
  if (node.enum) return node.enum.map((v) => code(v)).join(' \\| ');
  switch (node.type) {
    case 'integer': {
      const min = node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : node.minimum;
      const max = node.maximum !== undefined && node.maximum < MAX_SAFE ? node.maximum : undefined;
      if (min !== undefined && max !== undefined) return `integer ${min}–${max}`;
      return min !== undefined ? `integer ≥ ${min}` : 'integer';
    }
    case 'string':
      return node.format === 'uri'
        ? 'URL'
        : node.format === 'date-time'
          ? 'ISO 8601 date-time'
          : node.format === 'email'
            ? 'e-mail address'
            : 'string';
    case 'boolean':
      return 'boolean';
    case 'array':
      return `list of ${node.items ? (node.items.type === 'object' ? 'entries' : `${typeOf(node.items)}s`) : 'values'}`;
    case 'object':
      return 'mapping';
    default:
      return node.type ?? 'any';
  }
}

/** The markdown table of a YAML file's keys: key, type, default, overriding variable, meaning. */
export function fileTable(file: ConfigFile): string {
  const envOf = new Map(SETTINGS.filter((s) => s.yaml).map((s) => [s.yaml!, s.env]));
  const rows = fileKeys(file).map(({ path, node, required }) => {
    const fallback = required
      ? 'required'
      : node.default === undefined || (node.type === 'object' && JSON.stringify(node.default) === '{}')
        ? ''
        : code(node.default);
    const env = envOf.get(path);
    return `| \`${path}\` | ${typeOf(node)} | ${fallback} | ${env ? `\`${env}\`` : ''} | ${node.description ?? ''} |`;
  });
  return ['| key | type | default | env override | meaning |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The YAML files of the catalogue. */
export type ConfigFile = 'config/default.yaml' | 'config/integrations.yaml' | 'config/demo-seed.yaml';

/** Each file: its schema and where its generated JSON Schema is written. */
export const FILES: Readonly<Record<ConfigFile, { schema: z.ZodType; jsonSchema: string }>> = {
  'config/default.yaml': { schema: DEFAULTS_FILE_SCHEMA, jsonSchema: 'config/default.schema.json' },
  'config/integrations.yaml': { schema: INTEGRATIONS_FILE_SCHEMA, jsonSchema: 'config/integrations.schema.json' },
  'config/demo-seed.yaml': { schema: DEMO_SEED_SCHEMA, jsonSchema: 'config/demo-seed.schema.json' },
};

/** Markers around the generated environment table in docs/operator-guide.md. */
export const TABLE_MARKERS = [
  '<!-- settings-table:begin (generated from src/config-settings.ts) -->',
  '<!-- settings-table:end -->',
] as const;

/** A generated table: the doc it lives in, the markers around it, and its text. */
export interface GeneratedTable {
  /** Path from the repository root. */
  doc: string;
  markers: readonly [string, string];
  render(): string;
}

/** Every table generated from the catalogue (written by scripts/settings-table.ts, checked by the test). */
export const GENERATED_TABLES: readonly GeneratedTable[] = [
  { doc: 'docs/operator-guide.md', markers: TABLE_MARKERS, render: () => settingsTable() },
  ...(Object.keys(FILES) as ConfigFile[]).map((file) => ({
    doc: file === 'config/integrations.yaml' ? 'docs/operator-integrations.md' : 'docs/operator-guide.md',
    markers: [
      `<!-- settings-table:begin ${file} (generated from src/config-settings.ts) -->`,
      '<!-- settings-table:end -->',
    ] as const,
    render: () => fileTable(file),
  })),
];
