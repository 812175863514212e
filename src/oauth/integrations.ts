/**
 * Vendor platforms (SPEC §5.4 "Vendor platform", DESIGN D1 rows 3–4, D2 `vendor`), read from
 * `config/integrations.yaml` and validated with zod at start.
 *
 * File shape (DESIGN §3): `integrations: [{ name, client_id, redirect_uris: [...], scopes: [...] }]`
 * plus, for a confidential vendor, `client_secret_env: ENV_NAME` (the secret is read from that
 * environment variable; a plain-text secret in the file is refused). Entries with `example: true`
 * are loaded in development and test mode only.
 *
 * Each integration becomes a static oidc-provider client (`x_client_kind: vendor`, `scope` =
 * identity + the listed scopes), so the engine itself enforces its redirect URIs and scope
 * allowlist at the authorization and token endpoints, and no registration can overwrite it.
 *
 * The file's schema, every key described, is `INTEGRATIONS_FILE_SCHEMA` in the configuration
 * catalogue (src/config-settings.ts); docs/operator-integrations.md shows the table generated from it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { ClientMetadata } from 'oidc-provider';
import { ConfigError, type Config } from '../config.js';
import { INTEGRATIONS_FILE_SCHEMA } from '../config-settings.js';
import { IDENTITY_SCOPES } from '../domain/scopes.js';
import { CLIENT_KIND_PROPERTY } from '../domain/client-kinds.js';

/** One vendor platform, validated. */
export interface Integration {
  name: string;
  clientId: string;
  redirectUris: string[];
  /** Operator scopes the integration may request (identity scopes are always allowed). */
  scopes: string[];
  /** Resolved from `client_secret_env`; undefined = public client (`none`). Never logged. */
  clientSecret: string | undefined;
  /** Lower-case `host[:port]` of every redirect URI: the hosts D1 rows 3–4 match on. */
  hosts: Set<string>;
}

/**
 * Reads and validates the integrations file.
 * @param file path of `integrations.yaml`; a missing file means no vendor platforms
 * @param env environment holding the `client_secret_env` variables
 * @param mode `production` drops `example: true` entries
 * @throws ConfigError naming the entry and field at fault, a duplicate, or a missing secret variable
 */
export function loadIntegrations(file: string, env: NodeJS.ProcessEnv, mode: Config['mode']): Integration[] {
  if (!existsSync(file)) return [];
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
  const seen = new Set<string>();
  const result: Integration[] = [];
  for (const entry of parsed.data.integrations) {
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

/** The static oidc-provider client of an integration (DESIGN D2 `vendor`). Contains the secret: never log it. */
export function vendorClientMetadata(integration: Integration): ClientMetadata {
  return {
    client_id: integration.clientId,
    client_name: integration.name,
    ...(integration.clientSecret ? { client_secret: integration.clientSecret } : {}),
    redirect_uris: integration.redirectUris,
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
