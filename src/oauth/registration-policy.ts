/**
 * The registration policy: SPEC §5.4 (registration paths), SPEC §2.5 rules 1–3, DESIGN D1 and D2,
 * in one place.
 *
 * `POST /api/oauth/register` (RFC 7591) runs the `registrationSteps` of the registration pipeline
 * (src/pipelines/oauth.ts), in front of oidc-provider. It parses the JSON itself and walks the D1 table (`D1`, below) top to
 * bottom; the first row that matches decides:
 *
 * | # | request                                                        | result                                   |
 * |---|----------------------------------------------------------------|------------------------------------------|
 * | 1 | not a JSON object, or `redirect_uris` missing/empty/not strings | 400 invalid_client_metadata / invalid_redirect_uri |
 * | 2 | every redirect URI is loopback (RFC 8252)                       | 201 new client, kind `loopback` (oidc-provider creates it) |
 * | 3 | https on a vendor host, `client_name` one of that integration's names, URIs a subset of its own (loopback: any port and spelling) | 201 the integration's fixed client_id, no secret |
 * | 4 | https on a vendor host, `client_name` matches none of its integrations | 400 invalid_client_metadata      |
 * | 5 | anything else                                                   | 400 invalid_redirect_uri                 |
 *
 * Loopback wins over vendor matching (row 2 before row 3). Vendor matching must happen outside the
 * provider: inside, registration would create (or overwrite) a client record.
 *
 * Row 2 continues into oidc-provider, whose `extraClientMetadata.validator` calls
 * `validateLoopbackRegistration` (second line of defence and the place where the stored metadata
 * is forced: kind, application_type, scope ceiling).
 *
 * Open registration cannot fill the store: a loopback client is stored with a 24 h adapter TTL
 * (`LOOPBACK_UNUSED_TTL`); its first authorization-code exchange (`keepUsedLoopbackClient`) stores
 * it again without expiry. A client that never obtained a token disappears after 24 h.
 */
import type { Context, Middleware } from 'koa';
import { errors, type Adapter, type ClientMetadata, type KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import { HttpError, sendOAuthError } from '../http/errors.js';
import { readText } from '../http/body.js';
import { withDocs } from '../http/docs-links.js';
import {
  CLIENT_KIND_PROPERTY,
  CLIENT_ORG_PROPERTY,
  DEFAULT_SCOPE_PROPERTY,
  SCOPE_CEILING_PROPERTY,
  ceilingOf,
  kindOf,
} from '../domain/client-kinds.js';
import { clientMetadata } from '../domain/client-metadata.js';
import { type Integration, integrationAllows, vendorRegistrationResponse } from './integrations.js';
import { isLoopbackRedirectUri } from '../http/loopback.js';
import { IDENTITY_SCOPES, OPERATOR_SCOPES, parseScope } from '../domain/scopes.js';

/** RFC 7591 registration path (SPEC §4.2). */
export const REGISTRATION_PATH = '/api/oauth/register';
/** Seconds a loopback client lives without ever obtaining a token. */
export const LOOPBACK_UNUSED_TTL = 24 * 3600;

/** A registration request after parsing (D1 row 1 passed). */
export interface RegistrationRequest {
  body: Record<string, unknown>;
  redirectUris: string[];
  clientName: string | undefined;
}

/** What a D1 row decides. */
export type RegistrationDecision =
  | { row: number; outcome: 'create_loopback' }
  | { row: number; outcome: 'vendor'; integration: Integration }
  | { row: number; outcome: 'reject'; error: 'invalid_client_metadata' | 'invalid_redirect_uri'; description: string };

interface Row {
  row: number;
  /** What the row matches, in words (logged and documented). */
  when: string;
  decide(req: RegistrationRequest, integrations: readonly Integration[]): RegistrationDecision | undefined;
}

const httpsHost = (uri: string): string | undefined => {
  const url = URL.parse(uri);
  return url?.protocol === 'https:' ? url.host.toLowerCase() : undefined;
};

/** Integrations that own a host of one of the request's https redirect URIs. */
const vendorsOnHosts = (req: RegistrationRequest, integrations: readonly Integration[]): Integration[] => {
  const hosts = req.redirectUris.map(httpsHost).filter((h): h is string => !!h);
  return integrations.filter((i) => hosts.some((h) => i.hosts.has(h)));
};

/** DESIGN D1 rows 2–5 (row 1 is `parseRegistration`), evaluated in order. */
export const D1: readonly Row[] = [
  {
    row: 2,
    when: 'every redirect URI is loopback (http://127.0.0.1|[::1]|localhost:<port>/…)',
    decide: (req) =>
      req.redirectUris.every(isLoopbackRedirectUri) ? { row: 2, outcome: 'create_loopback' } : undefined,
  },
  {
    row: 3,
    when: "https redirect URI on a vendor host, client_name one of that integration's names, every URI one it allows (loopback: any port, 127.0.0.1 or localhost)",
    decide(req, integrations) {
      const integration = vendorsOnHosts(req, integrations).find((i) => i.names.has(req.clientName ?? ''));
      if (!integration || !req.redirectUris.every((u) => integrationAllows(integration, u))) return undefined;
      return { row: 3, outcome: 'vendor', integration };
    },
  },
  {
    row: 4,
    when: 'https redirect URI on a vendor host, client_name matches none of its integrations',
    decide(req, integrations) {
      const vendors = vendorsOnHosts(req, integrations);
      if (vendors.length === 0 || vendors.some((i) => i.names.has(req.clientName ?? ''))) return undefined;
      return {
        row: 4,
        outcome: 'reject',
        error: 'invalid_client_metadata',
        description: `client_name ${JSON.stringify(req.clientName ?? null)} matches no integration registered for this redirect host: use the integration's exact name, or register a loopback client`,
      };
    },
  },
  {
    row: 5,
    when: 'anything else (https on an unknown host, http off loopback, custom schemes, URIs a vendor does not allow)',
    decide: (req) => ({
      row: 5,
      outcome: 'reject',
      error: 'invalid_redirect_uri',
      description:
        'redirect_uris: open registration accepts only loopback redirect URIs (http://127.0.0.1:<port>/…); ' +
        'a fixed HTTPS callback needs an integration set up by the server operator, or publish a client_id metadata document. Not accepted: ' +
        req.redirectUris.filter((u) => !isLoopbackRedirectUri(u)).join(' '),
    }),
  },
];

/**
 * Client metadata the server would fetch (oidc-provider fetches them at registration or use).
 * Outside Client ID Metadata Documents they are refused: a stranger must not make the server open
 * connections (issue #13 finding 1; docs/security.md "Outbound requests").
 */
export const FETCHED_METADATA = ['sector_identifier_uri', 'jwks_uri', 'request_uris'] as const;

/**
 * Bounds of registration metadata (docs/security.md "Limits"): string lengths in characters,
 * list sizes in entries. The whole body is also bounded (the registration row's limit, DESIGN D7).
 */
export const METADATA_LIMITS = {
  client_name: 200,
  uri: 2000,
  redirect_uris: 10,
  post_logout_redirect_uris: 10,
  scope: 2000,
  /** Any other string field, and any string inside another list. */
  other_string: 2000,
  other_list: 20,
} as const;

type Reject = Extract<RegistrationDecision, { outcome: 'reject' }>;
const reject = (error: Reject['error'], description: string): Reject => ({
  row: 1,
  outcome: 'reject',
  error,
  description,
});

/** The first metadata field over `METADATA_LIMITS`, as a rejection; undefined when all fit. */
function overLimit(record: Record<string, unknown>): Reject | undefined {
  const cap = (field: string): number =>
    field === 'client_name'
      ? METADATA_LIMITS.client_name
      : field === 'scope'
        ? METADATA_LIMITS.scope
        : field.endsWith('_uri')
          ? METADATA_LIMITS.uri
          : METADATA_LIMITS.other_string;
  for (const [field, value] of Object.entries(record)) {
    if (typeof value === 'string' && value.length > cap(field)) {
      return reject('invalid_client_metadata', `${field} is longer than ${cap(field)} characters`);
    }
    if (Array.isArray(value)) {
      const max = field in METADATA_LIMITS ? METADATA_LIMITS[field as 'redirect_uris'] : METADATA_LIMITS.other_list;
      if (value.length > max) return reject('invalid_client_metadata', `${field} has more than ${max} entries`);
      const long = value.find(
        (v) =>
          typeof v === 'string' &&
          v.length > (field.endsWith('_uris') ? METADATA_LIMITS.uri : METADATA_LIMITS.other_string),
      );
      if (long !== undefined) return reject('invalid_client_metadata', `an entry of ${field} is too long`);
    }
  }
  return undefined;
}

/**
 * D1 row 1: parses a registration body. Also refuses fetched metadata (`FETCHED_METADATA`),
 * metadata over `METADATA_LIMITS`, and `post_logout_redirect_uris` that are not loopback: open
 * registration creates loopback clients only, and a vendor's record is never taken from the
 * request, so the redirect_uris rule applies to them as well (issue #13 finding 2).
 * @returns the request, or the row-1 rejection
 */
export function parseRegistration(body: unknown): RegistrationRequest | Reject {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return reject('invalid_client_metadata', 'the request body must be a JSON object (RFC 7591 §3.1)');
  }
  const record = body as Record<string, unknown>;
  const uris = record.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every((u) => typeof u === 'string' && u.length > 0)) {
    return reject('invalid_redirect_uri', 'redirect_uris must be a non-empty array of URI strings (RFC 7591 §2)');
  }
  if (record.client_name !== undefined && typeof record.client_name !== 'string') {
    return reject('invalid_client_metadata', 'client_name must be a string');
  }
  const fetched = FETCHED_METADATA.filter((f) => record[f] !== undefined);
  if (fetched.length > 0) {
    return reject(
      'invalid_client_metadata',
      `${fetched.join(', ')}: not accepted at registration (the server fetches no URL a registration names); publish a Client ID Metadata Document instead`,
    );
  }
  const tooBig = overLimit(record);
  if (tooBig) return tooBig;
  const logout = record.post_logout_redirect_uris;
  if (logout !== undefined) {
    if (!Array.isArray(logout) || !logout.every((u) => typeof u === 'string')) {
      return reject('invalid_client_metadata', 'post_logout_redirect_uris must be an array of URI strings');
    }
    const foreign = logout.filter((u) => !isLoopbackRedirectUri(u as string));
    if (foreign.length > 0) {
      return reject(
        'invalid_client_metadata',
        `post_logout_redirect_uris: open registration accepts only loopback URIs, as for redirect_uris. Not accepted: ${foreign.join(' ')}`,
      );
    }
  }
  return { body: record, redirectUris: uris as string[], clientName: record.client_name as string | undefined };
}

/**
 * Walks DESIGN D1 for one request body. Pure: no I/O.
 * @param body the parsed JSON body (anything)
 * @param integrations vendor platforms from config/integrations.yaml
 */
export function decideRegistration(body: unknown, integrations: readonly Integration[]): RegistrationDecision {
  const req = parseRegistration(body);
  if ('outcome' in req) return req;
  for (const row of D1) {
    const decision = row.decide(req, integrations);
    if (decision) return decision;
  }
  throw new Error('D1 has no final row'); // unreachable: row 5 always decides
}

/** Scopes a loopback client may hold (DESIGN D2 `loopback`): identity + operator, never account:*. */
const LOOPBACK_SCOPES = [...IDENTITY_SCOPES, ...OPERATOR_SCOPES];

/**
 * Inside oidc-provider, at the registration route only (DESIGN D1 row 2): refuses non-loopback
 * redirect URIs and forces the stored metadata: `x_client_kind: loopback`, `application_type:
 * native` (any loopback port at authorization, RFC 8252 §7.3), no `x_org_id`, and a `scope` within
 * the D2 ceiling (the requested scopes that are allowed; the identity scopes when every requested
 * one is beyond it; the whole ceiling when none is requested). `private_key_jwt` is refused: open
 * registration stores no key it could check (DESIGN D13 accepts it for metadata documents only).
 * Mutates `metadata` (oidc-provider's schema object, before its own validation).
 * @throws errors.InvalidClientMetadata (`redirect_uris …` renders `invalid_redirect_uri`)
 */
export function validateLoopbackRegistration(_ctx: KoaContextWithOIDC, metadata: ClientMetadata): void {
  const uris = metadata.redirect_uris;
  if (
    !Array.isArray(uris) ||
    uris.length === 0 ||
    !uris.every((u) => typeof u === 'string' && isLoopbackRedirectUri(u))
  ) {
    throw new errors.InvalidClientMetadata(
      'redirect_uris: open registration accepts only loopback redirect URIs (http://127.0.0.1:<port>/…)',
    );
  }
  const logout = metadata.post_logout_redirect_uris;
  if (
    logout !== undefined &&
    !(Array.isArray(logout) && logout.every((u) => typeof u === 'string' && isLoopbackRedirectUri(u)))
  ) {
    throw new errors.InvalidClientMetadata('post_logout_redirect_uris: open registration accepts only loopback URIs');
  }
  for (const field of FETCHED_METADATA) {
    if (metadata[field] !== undefined) throw new errors.InvalidClientMetadata(`${field}: not accepted at registration`);
  }
  if (metadata.token_endpoint_auth_method === 'private_key_jwt' || metadata.jwks !== undefined)
    throw new errors.InvalidClientMetadata(
      'private_key_jwt and jwks: not accepted at registration; publish a Client ID Metadata Document instead',
    );
  // RP Metadata Choices (DESIGN D13): a list of methods picks the first one open registration takes.
  const choices = metadata.token_endpoint_auth_methods_supported;
  if (Array.isArray(choices))
    metadata.token_endpoint_auth_methods_supported = choices.filter((m) => m !== 'private_key_jwt');
  metadata[CLIENT_KIND_PROPERTY] = 'loopback';
  delete metadata[CLIENT_ORG_PROPERTY];
  metadata.application_type = 'native';
  const asked = [...parseScope(typeof metadata.scope === 'string' ? metadata.scope : '')];
  const requested = asked.filter((s) => LOOPBACK_SCOPES.includes(s));
  // A request that names only scopes beyond the ceiling (`account:read`) gets the identity scopes,
  // not every operator scope it never asked for; one that names none gets the whole ceiling.
  metadata.scope = (requested.length > 0 ? requested : asked.length > 0 ? [...IDENTITY_SCOPES] : LOOPBACK_SCOPES).join(
    ' ',
  );
}

/** The non-secret facts of a request worth logging: `client_name` (cut to 100) and the redirect hosts. */
function logSummary(body: unknown): { client_name?: string; redirect_hosts?: string[] } {
  if (typeof body !== 'object' || body === null) return {};
  const { client_name: name, redirect_uris: uris } = body as Record<string, unknown>;
  return {
    client_name: typeof name === 'string' ? name.slice(0, 100) : undefined,
    redirect_hosts: Array.isArray(uris)
      ? uris.slice(0, 10).map((u) => (typeof u === 'string' ? (URL.parse(u)?.host ?? '?') : '?'))
      : undefined,
  };
}

/** What the registration middleware needs. */
export interface RegistrationDeps {
  integrations: readonly Integration[];
  adapter: new (name: string) => Adapter;
  logger: Logger;
  /** DOCS_URL: error descriptions link the registration guide. */
  docsUrl: string;
}

/** What the registration steps leave for the next ones (on `ctx.state.registration`). */
interface RegistrationState {
  /** The parsed JSON body (undefined: not a JSON object sent as application/json). */
  metadata: unknown;
  /** Non-secret facts worth logging. */
  summary: ReturnType<typeof logSummary>;
  decision?: RegistrationDecision;
}

const registrationOf = (ctx: Context): RegistrationState | undefined =>
  (ctx.state as { registration?: RegistrationState }).registration;

/**
 * The named steps of `POST /api/oauth/register` (DESIGN D1), in pipeline order (src/pipelines/oauth.ts):
 *
 *   answerPreflight → readMetadata → decideD1Row → answerRefusal → answerVendor → createLoopbackClient → (provider)
 *
 * Answers: 400 RFC 7591 §3.2.2 error (rows 1, 4, 5); 201 vendor record (row 3); 413 over the
 * route's body limit (`readText`, DESIGN D7); row 2 is handed to oidc-provider with the request
 * body set. Other methods pass through every step (the provider answers them).
 */
export interface RegistrationSteps {
  /**
   * CORS (issue #26), as oidc-provider does for discovery and the token endpoint: a preflight
   * (`OPTIONS` with `Access-Control-Request-Method`) is answered 204 allowing `POST` from any
   * origin, and every other answer names the caller's origin in `Access-Control-Allow-Origin`, so
   * a browser-based MCP host can register. No cookie or credential is involved.
   */
  answerPreflight: Middleware;
  /** Reads the JSON body under the row's limit (413 logged as a row-1 refusal). */
  readMetadata: Middleware;
  /** Walks the D1 table: the first matching row decides. */
  decideD1Row: Middleware;
  /** Rows 1, 4, 5: 400 with the RFC 7591 error and a link to the registration guide. */
  answerRefusal: Middleware;
  /** Row 3: the integration's fixed record, 201, nothing stored. */
  answerVendor: Middleware;
  /** Row 2: the provider creates the client; its answer names the default scope and ceiling, the record expires unless used. */
  createLoopbackClient: Middleware;
}

/** Builds the registration steps once. */
export function registrationSteps(deps: RegistrationDeps): RegistrationSteps {
  const { integrations, logger } = deps;
  const log = (ctx: Context, decision: RegistrationDecision, extra: Record<string, unknown> = {}) =>
    logger.info(
      { event: 'registration', req_id: ctx.state.requestId, d1_row: decision.row, outcome: decision.outcome, ...extra },
      'registration decision',
    );
  return {
    async answerPreflight(ctx, next) {
      if (ctx.state.route?.spec.name !== 'registration') return next();
      ctx.vary('Origin');
      ctx.set('Access-Control-Allow-Origin', ctx.get('Origin') || '*');
      if (ctx.method !== 'OPTIONS' || !ctx.get('Access-Control-Request-Method')) return next();
      ctx.set('Access-Control-Allow-Methods', 'POST');
      ctx.set('Access-Control-Allow-Headers', ctx.get('Access-Control-Request-Headers') || 'Content-Type');
      ctx.set('Access-Control-Max-Age', '3600');
      ctx.status = 204;
    },
    async readMetadata(ctx, next) {
      if (ctx.method !== 'POST' || ctx.state.route?.spec.name !== 'registration') return next();
      let raw: string;
      try {
        raw = await readText(ctx);
      } catch (err) {
        if (err instanceof HttpError && err.status === 413) {
          logger.info(
            { event: 'registration', req_id: ctx.state.requestId, d1_row: 1, outcome: 'reject', reason: 'too_large' },
            'registration decision',
          );
        }
        throw err;
      }
      let metadata: unknown;
      try {
        if (!ctx.is('application/json')) throw new Error('not JSON');
        metadata = JSON.parse(raw);
      } catch {
        metadata = undefined;
      }
      (ctx.state as { registration?: RegistrationState }).registration = { metadata, summary: logSummary(metadata) };
      return next();
    },
    async decideD1Row(ctx, next) {
      const state = registrationOf(ctx);
      if (state) {
        state.decision =
          state.metadata === undefined
            ? {
                row: 1,
                outcome: 'reject',
                error: 'invalid_client_metadata',
                description: 'the request body must be a JSON object sent as application/json (RFC 7591 §3.1)',
              }
            : decideRegistration(state.metadata, integrations);
      }
      return next();
    },
    async answerRefusal(ctx, next) {
      const state = registrationOf(ctx);
      const decision = state?.decision;
      if (!state || decision?.outcome !== 'reject') return next();
      log(ctx, decision, { ...state.summary, error: decision.error });
      sendOAuthError(ctx, 400, decision.error, withDocs(decision.description, deps.docsUrl, 'registration'));
    },
    async answerVendor(ctx, next) {
      const state = registrationOf(ctx);
      const decision = state?.decision;
      if (!state || decision?.outcome !== 'vendor') return next();
      log(ctx, decision, { ...state.summary, client_id: decision.integration.clientId });
      ctx.status = 201;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = vendorRegistrationResponse(decision.integration);
    },
    async createLoopbackClient(ctx, next) {
      const state = registrationOf(ctx);
      const decision = state?.decision;
      if (!state || decision?.outcome !== 'create_loopback') return next();
      // RFC 7591 §2 defaults an absent method to client_secret_basic, and oidc-provider issues a
      // secret before applying our default: a client that names no method is public (issue #13).
      const record = state.metadata as Record<string, unknown>;
      if (record.token_endpoint_auth_method === undefined) record.token_endpoint_auth_method = 'none';
      // oidc-provider reads `req.body` before `request.body`: both carry the amended record.
      ctx.request.body = record;
      (ctx.req as unknown as { body?: unknown }).body = record;
      await next();
      const created = ctx.status === 201 ? (ctx.body as { client_id?: string } | undefined)?.client_id : undefined;
      if (created) {
        describeScopes(ctx.body as Record<string, unknown>);
        await expireUnlessUsed(deps.adapter, created);
      }
      log(ctx, decision, { ...state.summary, status: ctx.status, client_id: created });
    },
  };
}

/**
 * The registration response of a self-registered client (DESIGN D2): `scope` is the registered
 * default (stored as `x_default_scope`, see `uncageRegisteredScope`), and `x_scope_ceiling` lists
 * every scope the client may request at a later authorization. Mutates `body`.
 */
function describeScopes(body: Record<string, unknown>): void {
  const registered = body[DEFAULT_SCOPE_PROPERTY];
  if (typeof registered === 'string') body.scope = registered;
  delete body[DEFAULT_SCOPE_PROPERTY];
  body[SCOPE_CEILING_PROPERTY] = ceilingOf(kindOf(body)).join(' ');
}

/** Stores a just-registered loopback client again, with the 24 h TTL of unused clients. */
async function expireUnlessUsed(AdapterClass: new (name: string) => Adapter, clientId: string): Promise<void> {
  const adapter = new AdapterClass('Client');
  const payload = await adapter.find(clientId);
  if (payload) await adapter.upsert(clientId, payload, LOOPBACK_UNUSED_TTL);
}

/**
 * On a successful authorization-code exchange by a loopback client, stores the client without
 * expiry: it is in use (see the module comment). Meant for oidc-provider's `grant.success` event.
 */
export async function keepUsedLoopbackClient(
  AdapterClass: new (name: string) => Adapter,
  ctx: KoaContextWithOIDC,
): Promise<void> {
  const client = ctx.oidc.client;
  if (!client || ctx.oidc.params?.grant_type !== 'authorization_code') return;
  if (kindOf(clientMetadata(client)) !== 'loopback' || client.clientIdMetadataDocument) return;
  const adapter = new AdapterClass('Client');
  const payload = await adapter.find(client.clientId);
  if (payload) await adapter.upsert(client.clientId, payload);
}
