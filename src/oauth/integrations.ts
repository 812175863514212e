/**
 * Vendor platforms (SPEC §5.4 "Vendor platform", DESIGN D1 rows 3–4, D2 `vendor`), read from
 * `config/integrations.yaml` and validated with zod at start.
 *
 * File shape (DESIGN §3): `integrations: [{ name, client_id, redirect_uris: [...], scopes: [...] }]`
 * plus `names` (the product variants' `client_name`s, DESIGN D1 row 3) and, for a confidential vendor, `client_secret_env: ENV_NAME` (the secret is read from that
 * environment variable; a plain-text secret in the file is refused). Entries with `example: true`
 * are loaded in development and test mode only.
 *
 * Each integration becomes a static oidc-provider client (`x_client_kind: vendor`, `scope` =
 * identity + the listed scopes), so the engine itself enforces its redirect URIs and scope
 * allowlist at the authorization and token endpoints, and no registration can overwrite it.
 *
 * The file also lists the catalogue's Client ID Metadata Documents (`documents`, DESIGN D13:
 * reviewed or switched off), read by `loadCatalogueDocuments`.
 *
 * The file's schema, every key described, is `INTEGRATIONS_FILE_SCHEMA` in the configuration
 * catalogue (src/config-settings.ts); docs/operator-integrations.md shows the table generated from it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import type { ClientMetadata } from 'oidc-provider';
import { ConfigError, type Config } from '../config.js';
import { INTEGRATIONS_FILE_SCHEMA } from '../config-settings.js';
import { IDENTITY_SCOPES } from '../domain/scopes.js';
import { CLIENT_KIND_PROPERTY } from '../domain/client-kinds.js';

/** One vendor platform, validated. */
export interface Integration {
  name: string;
  /** Every `client_name` accepted at registration: `name` and its product variants (`names`). */
  names: ReadonlySet<string>;
  clientId: string;
  redirectUris: string[];
  /** Operator scopes the integration may request (identity scopes are always allowed). */
  scopes: string[];
  /** Resolved from `client_secret_env`; undefined = public client (`none`). Never logged. */
  clientSecret: string | undefined;
  /** Lower-case `host[:port]` of every https redirect URI: the hosts D1 rows 3–4 match on. */
  hosts: Set<string>;
}

/** The integrations file, validated; undefined when it does not exist. @throws ConfigError */
function readIntegrationsFile(file: string): z.output<typeof INTEGRATIONS_FILE_SCHEMA> | undefined {
  if (!existsSync(file)) return undefined;
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, 'utf8')) ?? {};
  } catch (err) {
    throw new ConfigError(`${file}: not valid YAML: ${(err as Error).message}`);
  }
  const parsed = INTEGRATIONS_FILE_SCHEMA.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${file}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return parsed.data;
}

/**
 * Reads and validates the integrations file.
 * @param file path of `integrations.yaml`; a missing file means no vendor platforms
 * @param env environment holding the `client_secret_env` variables
 * @param mode `production` drops `example: true` entries
 * @throws ConfigError naming the entry and field at fault, a duplicate, or a missing secret variable
 */
export function loadIntegrations(file: string, env: NodeJS.ProcessEnv, mode: Config['mode']): Integration[] {
  const parsed = readIntegrationsFile(file);
  if (!parsed) return [];
  const seen = new Set<string>();
  const result: Integration[] = [];
  for (const entry of parsed.integrations) {
    if (entry.example && mode === 'production') continue;
    // Issue #26: an operator switches a catalogued host off without deleting its entry.
    if (entry.enabled === false) continue;
    for (const key of [`name:${entry.name}`, `id:${entry.client_id}`]) {
      if (seen.has(key)) throw new ConfigError(`${file}: duplicate integration ${key}`);
      seen.add(key);
    }
    let clientSecret: string | undefined;
    if (entry.client_secret_env) {
      clientSecret = env[entry.client_secret_env];
      if (!clientSecret || clientSecret.length < 32) {
        throw new ConfigError(
          `${file}: integration "${entry.name}": environment variable ${entry.client_secret_env} must hold a secret of at least 32 characters`,
        );
      }
    }
    result.push({
      name: entry.name,
      names: new Set([entry.name, ...(entry.names ?? [])]),
      clientId: entry.client_id,
      redirectUris: entry.redirect_uris,
      scopes: entry.scopes,
      clientSecret,
      // D1 rows 3–4 match on the https hosts only (a loopback callback names no vendor).
      hosts: new Set(
        entry.redirect_uris.filter((u) => u.startsWith('https://')).map((u) => new URL(u).host.toLowerCase()),
      ),
    });
  }
  return result;
}

/** The two spellings of a loopback redirect URI that desktop apps use (`127.0.0.1`, `localhost`), others as they are. */
function bothLoopbackSpellings(uri: string): string[] {
  const url = URL.parse(uri);
  if (url?.protocol !== 'http:' || !['127.0.0.1', 'localhost'].includes(url.hostname)) return [uri];
  return ['127.0.0.1', 'localhost'].map((host) => {
    const copy = new URL(url.href);
    copy.hostname = host;
    return copy.href;
  });
}

/**
 * True when an integration allows `uri` (DESIGN D1 row 3): one of its https callbacks exactly, or
 * a loopback URI with the path of one of its loopback callbacks, on any port and under either
 * `127.0.0.1` or `localhost` (RFC 8252 §7.3, §8.3: desktop builds vary both).
 */
export function integrationAllows(integration: Integration, uri: string): boolean {
  if (integration.redirectUris.includes(uri)) return true;
  const url = URL.parse(uri);
  if (url?.protocol !== 'http:' || !['127.0.0.1', 'localhost'].includes(url.hostname) || url.hash) return false;
  return integration.redirectUris.some((allowed) => {
    const own = URL.parse(allowed);
    return (
      !!own &&
      own.protocol === 'http:' &&
      ['127.0.0.1', 'localhost'].includes(own.hostname) &&
      own.pathname === url.pathname &&
      own.search === url.search
    );
  });
}

/** A Client ID Metadata Document of the catalogue (DESIGN D13), validated. */
export interface CatalogueDocument {
  name: string;
  /** The document URL: the host's `client_id`. */
  clientId: string;
  /** Reviewed by an operator (kind `cimd_reviewed`); default true. */
  reviewed: boolean;
  /** False: never fetched, its client refused. */
  enabled: boolean;
}

/**
 * The `documents` of the integrations file: the well-known hosts' Client ID Metadata Documents and
 * any an operator added (DESIGN D13). A missing file means none.
 * @throws ConfigError when the file is invalid or lists a document twice
 */
export function loadCatalogueDocuments(file: string): CatalogueDocument[] {
  const parsed = readIntegrationsFile(file);
  if (!parsed) return [];
  const seen = new Set<string>();
  return parsed.documents.map((entry) => {
    if (seen.has(entry.client_id)) throw new ConfigError(`${file}: duplicate document ${entry.client_id}`);
    seen.add(entry.client_id);
    return {
      name: entry.name,
      clientId: entry.client_id,
      reviewed: entry.reviewed ?? true,
      enabled: entry.enabled ?? true,
    };
  });
}

/** The static oidc-provider client of an integration (DESIGN D2 `vendor`). Contains the secret: never log it. */
export function vendorClientMetadata(integration: Integration): ClientMetadata {
  return {
    client_id: integration.clientId,
    client_name: integration.name,
    ...(integration.clientSecret ? { client_secret: integration.clientSecret } : {}),
    // oidc-provider ignores a native client's loopback port but not its host spelling: list both.
    redirect_uris: [...new Set(integration.redirectUris.flatMap(bothLoopbackSpellings))],
    // A host that also lists loopback callbacks (VS Code) is a desktop app: any loopback port
    // matches at authorization (RFC 8252 §7.3), its https callbacks as registered.
    application_type: integration.redirectUris.some((u) => u.startsWith('http://')) ? 'native' : 'web',
    token_endpoint_auth_method: integration.clientSecret ? 'client_secret_post' : 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    scope: [...IDENTITY_SCOPES, ...integration.scopes].join(' '),
    [CLIENT_KIND_PROPERTY]: 'vendor',
  };
}

/** The public part of the vendor record, as answered to a matching registration (no secret, RFC 7591 §3.2.1). */
export function vendorRegistrationResponse(integration: Integration): Record<string, unknown> {
  const { client_secret: _secret, ...rest } = vendorClientMetadata(integration);
  return rest;
}
