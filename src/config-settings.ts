/**
 * The catalogue of settings (issue #9): one entry per environment variable, with its
 * `config/default.yaml` key where there is one, its default and what it means. `ENV_SCHEMA` is the
 * zod schema of the environment built from it (each entry `.describe()`d); `src/config.ts` validates
 * against it and then interprets each value. The operator guide's settings table is generated from
 * this list (`settingsTable()`), and `test/unit/config-settings.test.ts` keeps both in step: every
 * variable `src/config.ts` reads must have an entry here, and docs/operator-guide.md must hold the
 * generated table.
 *
 * To add a setting: add one entry, read it in `loadConfig`, then regenerate the table with
 * `npx tsx scripts/settings-table.ts --write` (DESIGN §3: documented names never change).
 */
import { z } from 'zod';

/** One setting. */
export interface Setting {
  /** Environment variable name (DESIGN §3: stable). */
  env: string;
  /** Key path in `config/default.yaml`, when the file can set it too. */
  yaml?: string;
  /** Default, as shown to operators. */
  default: string;
  /** What it does; `★` settings are required in production. */
  description: string;
  requiredInProduction?: boolean;
}

/** Every setting, in the order of the operator guide. */
export const SETTINGS: readonly Setting[] = [
  { env: 'NODE_ENV', default: '`development`', description: '`development` (unset), `test` or `production`; anything else refuses to start. `production` requires the settings marked ★ and never seeds demo data' },
  { env: 'PORT', yaml: 'port', default: '`3000`', description: 'listening port' },
  { env: 'BASE_URL', default: '`http://localhost:$PORT`', description: 'the origin: issuer, protected-resource identifier, token audience. No path, no trailing slash', requiredInProduction: true },
  { env: 'COOKIE_SECRETS', default: 'generated and kept in the store (dev)', description: 'comma-separated, ≥ 32 characters each; the first signs, all verify (rotation: prepend a new one)', requiredInProduction: true },
  { env: 'SIGNING_KEY_FILE', default: 'generated and kept in the store (dev)', description: 'file holding a private ES256 JWK, or a JWK Set whose first key signs', requiredInProduction: true },
  { env: 'SIGNING_KEY', default: 'unset', description: 'the same JWK (Set) as JSON, instead of `SIGNING_KEY_FILE`' },
  { env: 'SIGNING_KEYS', default: '—', description: '`store` (production): sign with the stored keys managed by `npm run keys` instead of `SIGNING_KEY(_FILE)`' },
  { env: 'KEYS_JWKS_MAX_AGE', default: '`600`', description: 'seconds; JWKS `Cache-Control: max-age`, and the wait between `add` and `activate` (stored keys)' },
  { env: 'KEYS_REFRESH_SECONDS', default: '`10`', description: 'seconds; how often each process re-reads the stored keys' },
  { env: 'ID_TOKEN_SIGNING', yaml: 'id_token_signing', default: '`active`', description: '`active`: id_tokens are signed; `published`: the key is in the JWKS but no id_token is issued and discovery omits `id_token_signing_alg_values_supported` (SPEC §2.2, DESIGN D6)' },
  { env: 'ACCOUNT_GRAPHIQL', default: '`1` in development, else `0`', description: '`1`: GraphiQL at `GET /account/graphql` for browsers (never in production); docs/account-api.md' },
  { env: 'DATA_DIR', yaml: 'data_dir', default: '`./data`', description: 'directory of the embedded store `coursegate.db`; created 0700 with the file 0600; a warning at start when an existing one is readable by others' },
  { env: 'DOCS_URL', yaml: 'docs_url', default: '`$BASE_URL/docs`', description: "where the developer docs live: advertised as `service_documentation` and `resource_documentation`, and linked from every integrator-facing error description. By default this server publishes the Markdown pages of `docs/` there itself (`GET /docs/mcp.md`, …); point it at your own docs site or the repository's `docs/` folder (same file names and heading anchors) to change that" },
  { env: 'LOG_LEVEL', yaml: 'log_level', default: '`info`', description: 'pino level; `silent` turns logs off' },
  { env: 'TRUST_PROXY', default: 'off', description: 'number of trusted proxy hops (`1` = one TLS-terminating proxy). Only the client address (that many `X-Forwarded-For` entries from the right) and the scheme (`X-Forwarded-Proto`) are taken from it; never the host: every URL comes from `BASE_URL`' },
  { env: 'DEMO_PASSWORD', default: 'random', description: 'password of the demo accounts (development only)' },
  { env: 'DEMO_SEED_FILE', yaml: 'demo_seed_file', default: '`config/demo-seed.yaml`', description: 'demo data' },
  { env: 'INTEGRATIONS_FILE', yaml: 'integrations_file', default: '`config/integrations.yaml`', description: 'vendor platforms' },
  { env: 'SQLITE_SYNCHRONOUS', default: '`NORMAL`', description: '`FULL` makes every commit survive a power loss (≈ 2× slower token endpoint)' },
  { env: 'CONFIG_FILE', default: '`config/default.yaml`', description: 'another defaults file' },
  { env: 'REDIS_URL', default: 'unset (embedded)', description: 'OIDC state (codes, tokens, grants, sessions, clients) and rate-limit counters on Redis; see [deployment.md](deployment.md)' },
  { env: 'REDIS_CLUSTER_NODES', default: 'unset', description: 'Redis Cluster seed nodes `host:port,…`; `REDIS_URL` then only gives credentials/TLS' },
  { env: 'REDIS_KEY_PREFIX', default: '`cg`', description: 'prefix of every Redis key' },
  { env: 'DATABASE_URL', default: 'unset (embedded)', description: 'platform data and keys on PostgreSQL (`postgres://…`)' },
  { env: 'RATE_LIMIT_TOKEN', yaml: 'rate_limits.token', default: '`600/60`', description: 'token endpoint, `points/seconds` per client_id + address; the client as a whole gets 10 × (DESIGN D7)' },
  { env: 'RATE_LIMIT_REVOCATION', yaml: 'rate_limits.revocation', default: '`600/60`', description: 'revocation endpoint, as `RATE_LIMIT_TOKEN`' },
  { env: 'RATE_LIMIT_INTROSPECTION', yaml: 'rate_limits.introspection', default: '`6000/60`', description: 'introspection endpoint, as `RATE_LIMIT_TOKEN`' },
  { env: 'RATE_LIMIT_LOGIN_FAILURES', yaml: 'rate_limits.login_failures', default: '`5/900`', description: 'failed sign-ins per account + address; a point is reserved before the password check' },
  { env: 'RATE_LIMIT_REGISTRATION', yaml: 'rate_limits.registration', default: '`60/600`', description: 'dynamic client registrations per address' },
  { env: 'REFRESH_GRACE_SECONDS', yaml: 'token_ttl.refresh_grace', default: '`30`', description: 'DESIGN D3 grace window: a refresh token rotated at most this long ago still gets a working pair (lost responses, retries after a 503, parallel refreshes); `0` turns it off; 0–300' },
  { env: 'CIMD_ALLOWED_HOSTS', yaml: 'cimd.allowed_hosts', default: 'none', description: 'Client ID Metadata Documents: hosts that may serve them; see [operator-integrations.md](operator-integrations.md)' },
  { env: 'CIMD_REVIEWED', yaml: 'cimd.reviewed', default: 'none', description: 'document URLs an operator reviewed (DESIGN D2)' },
  { env: 'CIMD_OPEN', yaml: 'cimd.open', default: 'off', description: 'open registration: any public HTTPS host may serve a document' },
  { env: 'CIMD_NEGATIVE_CACHE_SECONDS', yaml: 'cimd.negative_cache_seconds', default: '`30`', description: 'a document that failed to load (status, timeout, size, refused address) is not fetched again for this long; the error names the cause (0 = off)' },
  { env: 'AUDIT_RETENTION_DAYS', default: '`90`', description: 'days the audit trail keeps its events (1–3650, DESIGN D10)' },
  { env: 'UPLOAD_MAX_BYTES', default: '`5242880` (5 MiB)', description: 'largest file `POST /api/v1/files` accepts (`storage:write`, 413 above); 1024 to 67108864 (64 MiB, the route\'s body limit). Files are kept in the platform store; see "File storage"' },
  { env: 'SMTP_URL', default: 'unset', description: '`smtp://user:pass@host:587` or `smtps://…:465`: one-time links (first password, invitations) are also e-mailed' },
  { env: 'SMTP_FROM', default: '`coursegate <no-reply@…>` (host of `BASE_URL`)', description: 'sender of those e-mails' },
  { env: 'CIMD_ALLOW_LOOPBACK', default: 'off', description: 'test only (refused in production): fetch documents from loopback addresses' },
  { env: 'CIMD_TEST_CA_FILE', default: 'unset', description: 'test only (refused in production): PEM of an extra CA trusted by the document fetcher' },
  { env: 'METRICS_PORT', default: 'unset', description: 'serve `/metrics` on its own listener on this port only (bind it to a private network)' },
  { env: 'METRICS_TOKEN', default: 'unset', description: 'serve `/metrics` on the main port to `Authorization: Bearer <token>` only (≥ 32 characters). With neither setting `/metrics` is open in development/test and not served in production' },
];

/** The zod schema of the environment: every catalogued variable, an optional string, described. */
export const ENV_SCHEMA = z.object(Object.fromEntries(SETTINGS.map((s) => [s.env, z.string().optional().describe(s.description)])));

/** The operator guide's settings table (markdown), generated from `SETTINGS`. */
export function settingsTable(): string {
  const rows = SETTINGS.map((s) => {
    const name = `\`${s.env}\`${s.requiredInProduction ? ' ★' : ''}`;
    const yaml = s.yaml ? `\`${s.yaml}\`` : '';
    return `| ${name} | ${yaml} | ${s.default} | ${s.description} |`;
  });
  return ['| env | `config/default.yaml` | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** Markers around the generated table in docs/operator-guide.md. */
export const TABLE_MARKERS = ['<!-- settings-table:begin (generated from src/config-settings.ts) -->', '<!-- settings-table:end -->'] as const;
