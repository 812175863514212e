/**
 * Client ID Metadata Documents (SPEC §5.4, SPEC §2.5 rule 3, DESIGN D2 `cimd` / `cimd_reviewed`,
 * DESIGN D13: the default way in for MCP hosts), on oidc-provider's
 * `features.clientIdMetadataDocument` (draft-ietf-oauth-client-id-metadata-document-02). The engine
 * fetches, validates (`client_id` equals the URL, no shared secrets, https web URIs, 200 only, no
 * redirects followed, 5 KiB body limit, 2.5 s timeout) and caches (per-process LRU of 100
 * documents, Cache-Control bounded by `cacheDuration`). We add:
 *
 * - `cimdPolicy`: which documents are reviewed or switched off (`cimd.reviewed` and the catalogue's
 *   `documents` in config/integrations.yaml) and which hosts may serve one (`cimd.open`, on by
 *   default; else `cimd.allowed_hosts` and the catalogue's hosts);
 * - `allowFetch`: a switched-off document is never fetched; the host must be allowed and resolve to
 *   a public address (SSRF, `ssrf.ts`);
 * - `allowClient` (every use, cached or not): every redirect URI and post-logout redirect URI is
 *   https on the document host or a loopback URI (a reviewed document: https on any host);
 * - `classifyCimdClient`: the kind is decided by us, never by the document; a document whose
 *   redirect URIs are all loopback is native (any port, RFC 8252 §7.3); scopes and auth methods
 *   this server does not know are dropped, not refused (RFC 6749 §3.3);
 * - `CimdRefusals`: a refusal of a fetched document goes back to the request's `redirect_uri` when
 *   the document lists it (with `iss`, RFC 9207); an error page otherwise;
 * - `CimdFailures`: failed fetches are not repeated for a short time and their cause is shown;
 * - `documentFetch`: the outbound `fetch`, with the test-only loopback, CA and resolve switches.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { errors, type Configuration, type ClientMetadata } from 'oidc-provider';
import type { Logger } from 'pino';
import type { IncomingMessage } from 'node:http';
import type { CimdConfig } from '../config.js';
import { CLIENT_KIND_PROPERTY, CLIENT_ORG_PROPERTY, DEFAULT_SCOPE_PROPERTY } from '../domain/client-kinds.js';
import { clientMetadata } from '../domain/client-metadata.js';
import { ALL_SCOPES, parseScope } from '../domain/scopes.js';
import { assertPublicHost, guardedLookup, isForbiddenAddress, ForbiddenTargetError } from './ssrf.js';
import { isLoopbackRedirectUri } from '../http/loopback.js';
import type { CatalogueDocument } from './integrations.js';
import { withDocs } from '../http/docs-links.js';
import { CIMD_FETCH_FAILED } from '../engine/oidc-provider.js';

type CimdFeature = NonNullable<NonNullable<Configuration['features']>['clientIdMetadataDocument']>;
type FetchFn = NonNullable<Configuration['fetch']>;

/** True when a client_id is (syntactically) a Client ID Metadata Document URL. */
export const isCimdClientId = (clientId: unknown): clientId is string =>
  typeof clientId === 'string' && /^https:\/\//i.test(clientId);

/**
 * What decides about a document before and after it is fetched (DESIGN D13): `cimd.*` settings
 * merged with the catalogue's `documents` (config/integrations.yaml).
 */
export interface CimdPolicy {
  config: CimdConfig;
  /** Document URLs reviewed by an operator (`cimd.reviewed`, catalogue entries not `reviewed: false`). */
  reviewed: ReadonlySet<string>;
  /** Document URLs switched off (`enabled: false`): never fetched, their client refused. */
  disabled: ReadonlySet<string>;
  /** Lower-case hosts of the enabled catalogue documents: fetched even with `cimd.open` off. */
  catalogueHosts: ReadonlySet<string>;
}

/** Merges the settings and the catalogue's documents into one policy. */
export function cimdPolicy(config: CimdConfig, documents: readonly CatalogueDocument[] = []): CimdPolicy {
  const enabled = documents.filter((d) => d.enabled);
  return {
    config,
    reviewed: new Set([...config.reviewed, ...enabled.filter((d) => d.reviewed).map((d) => d.clientId)]),
    disabled: new Set(documents.filter((d) => !d.enabled).map((d) => d.clientId)),
    catalogueHosts: new Set(enabled.map((d) => new URL(d.clientId).host.toLowerCase())),
  };
}

/** Token endpoint auth methods a document may use (DESIGN D13): no shared secret exists for it. */
const DOCUMENT_AUTH_METHODS = ['private_key_jwt', 'none'];

/**
 * Sets the kind of a CIMD client from configuration, overriding whatever the document says
 * (DESIGN D2), and reads the document as its host publishes it (DESIGN D13):
 * - every redirect URI loopback → `application_type: native`, so any port matches (RFC 8252 §7.3;
 *   hosts such as Claude Code and Codex omit `application_type`, which then defaults to `web`);
 * - scope values this server does not know (`offline_access`) are dropped from its `scope`
 *   (RFC 6749 §3.3 lets the server ignore them) instead of invalidating the document;
 * - `token_endpoint_auth_methods_supported` (OpenID RP Metadata Choices) keeps `private_key_jwt`
 *   only when the document carries `jwks` or `jwks_uri`, and drops shared-secret methods, so the
 *   engine picks `private_key_jwt` when it can and `none` otherwise.
 * Called by the provider's `extraClientMetadata.validator` for every client, before the engine
 * validates the document; leaves non-CIMD clients alone. Mutates `metadata`.
 */
export function classifyCimdClient(policy: CimdPolicy, metadata: ClientMetadata): void {
  if (!isCimdClientId(metadata.client_id)) return;
  metadata[CLIENT_KIND_PROPERTY] = policy.reviewed.has(metadata.client_id) ? 'cimd_reviewed' : 'cimd';
  delete metadata[CLIENT_ORG_PROPERTY];
  // The document's `scope` is its default (DESIGN D2); it cannot name its own default otherwise.
  delete metadata[DEFAULT_SCOPE_PROPERTY];
  const uris = metadata.redirect_uris;
  if (Array.isArray(uris) && uris.length > 0 && uris.every((u) => typeof u === 'string' && isLoopbackRedirectUri(u)))
    metadata.application_type = 'native';
  if (typeof metadata.scope === 'string') {
    const known = [...parseScope(metadata.scope)].filter((s) => ALL_SCOPES.includes(s));
    if (known.length > 0) metadata.scope = known.join(' ');
    else delete metadata.scope;
  }
  const choices = metadata.token_endpoint_auth_methods_supported;
  if (Array.isArray(choices)) {
    const keyed = metadata.jwks !== undefined || metadata.jwks_uri !== undefined;
    const usable = choices.filter(
      (m) => DOCUMENT_AUTH_METHODS.includes(m as string) && (m !== 'private_key_jwt' || keyed),
    );
    metadata.token_endpoint_auth_methods_supported = usable.length > 0 ? usable : choices;
  }
}

function hostAllowed(policy: CimdPolicy, url: URL): boolean {
  const { config } = policy;
  const host = url.host.toLowerCase();
  return (
    config.open ||
    policy.catalogueHosts.has(host) ||
    config.allowedHosts.includes(host) ||
    config.allowedHosts.includes(url.hostname.toLowerCase())
  );
}

/** True when `uri` is one of `own`, a loopback one matching on any port (RFC 8252 §7.3). */
function listedRedirect(own: readonly string[], uri: string): boolean {
  if (own.includes(uri)) return true;
  const url = URL.parse(uri);
  if (!url || !isLoopbackRedirectUri(uri)) return false;
  return own.some((o) => {
    const listed = URL.parse(o);
    return (
      !!listed &&
      isLoopbackRedirectUri(o) &&
      listed.hostname === url.hostname &&
      listed.pathname === url.pathname &&
      listed.search === url.search
    );
  });
}

/**
 * Refusals of documents that were fetched (DESIGN D13), per request: the document's redirect URIs
 * are remembered when `allowClient` refuses it, so that the authorization endpoint's error can go
 * back to the request's `redirect_uri` if the document lists it (the client then learns why),
 * instead of an error page the host never sees. Keyed by the request, forgotten with it.
 */
export class CimdRefusals {
  readonly #byRequest = new WeakMap<IncomingMessage, readonly string[]>();

  /** Remembers the redirect URIs of the document refused while serving `req`. */
  record(req: IncomingMessage | undefined, redirectUris: readonly string[]): void {
    if (req) this.#byRequest.set(req, redirectUris);
  }

  /**
   * The URL to send an authorization error to (RFC 6749 §4.1.2.1, `iss` of RFC 9207), or
   * undefined (render the page): only for the authorization endpoint, a refused fetched document,
   * and a `redirect_uri` the document lists (loopback ones on any port).
   * @param out oidc-provider's error parameters (`error`, `error_description`, `state`, `iss`)
   */
  redirectFor(
    ctx: { req: IncomingMessage; oidc?: { route?: string; params?: Record<string, unknown> } },
    out: Record<string, unknown>,
  ): string | undefined {
    if (ctx.oidc?.route !== 'authorization') return undefined;
    const own = this.#byRequest.get(ctx.req);
    const redirectUri = ctx.oidc.params?.redirect_uri;
    if (!own || typeof redirectUri !== 'string' || !listedRedirect(own, redirectUri)) return undefined;
    const url = new URL(redirectUri);
    for (const key of ['error', 'error_description', 'state', 'iss'])
      if (typeof out[key] === 'string') url.searchParams.set(key, out[key] as string);
    return url.href;
  }
}

/**
 * The `features.clientIdMetadataDocument` configuration.
 * Errors are `invalid_client` with a description naming the rule and linking the docs (`docsUrl`).
 */
export function cimdFeature(
  policy: CimdPolicy,
  logger: Logger,
  failures: CimdFailures,
  docsUrl: string,
  refusals: CimdRefusals = new CimdRefusals(),
): CimdFeature {
  const { config } = policy;
  const ssrf = { allowLoopback: config.allowLoopback };
  return {
    enabled: true,
    ack: 'draft-02',
    // Documents are cached between 5 minutes and 1 hour (Cache-Control within these bounds), so a
    // changed document or review takes effect within the hour.
    cacheDuration: { min: 300, max: 3600 },
    async allowFetch(_ctx, clientId) {
      const url = new URL(clientId);
      if (policy.disabled.has(clientId)) {
        logger.info(
          { event: 'cimd_refused', reason: 'switched_off', client_id: clientId },
          'client metadata document refused',
        );
        throw new errors.InvalidClient(
          withDocs(
            `the client_id metadata document ${clientId} is switched off on this server by its operator`,
            docsUrl,
            'cimd',
          ),
        );
      }
      if (!hostAllowed(policy, url)) {
        logger.info(
          { event: 'cimd_refused', reason: 'host_not_allowed', host: url.host },
          'client metadata document refused',
        );
        throw new errors.InvalidClient(
          withDocs(
            `client_id metadata documents from ${url.host} are not accepted here: ask the server's operator to allow the host, or register a loopback client`,
            docsUrl,
            'cimd',
          ),
        );
      }
      const failed = failures.get(clientId);
      if (failed) {
        logger.info(
          { event: 'cimd_refused', reason: 'recent_failure', host: url.host },
          'client metadata document refused',
        );
        const retry = Math.max(1, Math.ceil((failed.until - Date.now()) / 1000));
        throw new errors.InvalidClient(
          `client_id metadata document fetch failed: ${failed.cause} (not fetched again for ${retry} s)`,
        );
      }
      // A host the test-only resolve switch maps is connected to at its mapped address only.
      if (!config.testResolve.has(url.hostname.toLowerCase())) {
        try {
          await assertPublicHost(url.hostname, ssrf);
        } catch (err) {
          if (!(err instanceof ForbiddenTargetError)) throw err;
          logger.warn({ event: 'cimd_refused', reason: 'ssrf', host: url.host }, 'client metadata document refused');
          failures.record(clientId, `refused: ${err.message}`);
          throw new errors.InvalidClient(`client_id metadata document refused: ${err.message}`);
        }
      }
      logger.info({ event: 'cimd_fetch', client_id: clientId }, 'fetching client metadata document');
      return true;
    },
    async allowClient(ctx, client) {
      const docHost = new URL(client.clientId).host.toLowerCase();
      const metadata = clientMetadata(client);
      // An operator who reviewed a document also reviewed its callbacks on other hosts of the same
      // vendor (VS Code: vscode.dev and insiders.vscode.dev); an unreviewed one stays on its host.
      const reviewed = policy.reviewed.has(client.clientId);
      const acceptable = (u: string): boolean => {
        const url = URL.parse(u);
        return (
          !!url &&
          ((url.protocol === 'https:' && (reviewed || url.host.toLowerCase() === docHost)) || isLoopbackRedirectUri(u))
        );
      };
      for (const field of ['redirect_uris', 'post_logout_redirect_uris'] as const) {
        const uris = (metadata[field] ?? []) as string[];
        const foreign = uris.filter((u) => !acceptable(u));
        if (foreign.length > 0) {
          logger.info(
            { event: 'cimd_refused', reason: `foreign_${field}`, client_id: client.clientId },
            'client metadata document refused',
          );
          // Only the document's own acceptable callbacks may receive the error, never a foreign one.
          refusals.record(
            (ctx as { req?: IncomingMessage } | undefined)?.req,
            ((metadata.redirect_uris ?? []) as string[]).filter(acceptable),
          );
          throw new errors.InvalidClient(
            withDocs(
              `every entry of ${field} of a client_id metadata document must be https on its own host ${docHost} or a loopback URI; not: ${foreign.join(' ')}`,
              docsUrl,
              'cimd',
            ),
          );
        }
      }
      return true;
    },
  };
}

/** Why the last fetch of a document failed, and until when it is not fetched again (ms epoch). */
interface Failure {
  cause: string;
  until: number;
}

/**
 * Negative cache of failed document fetches (issue #13 finding 11): a document that failed to load
 * is not fetched again for `ttlSeconds`, and every refusal in that time names the cause (HTTP
 * status, timeout, size, refused address). Per process, bounded to `MAX_FAILURES` entries.
 */
export class CimdFailures {
  static readonly MAX_FAILURES = 1000;
  readonly #entries = new Map<string, Failure>();
  constructor(readonly ttlSeconds: number) {}

  /** Records a failure of `url` with a human-readable `cause`. */
  record(url: string, cause: string): void {
    if (this.ttlSeconds <= 0) return;
    this.#entries.delete(url);
    if (this.#entries.size >= CimdFailures.MAX_FAILURES) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(url, { cause, until: Date.now() + this.ttlSeconds * 1000 });
  }

  /** The recorded failure of `url` while it is fresh; undefined otherwise. */
  get(url: string): Failure | undefined {
    const entry = this.#entries.get(url);
    if (entry && entry.until <= Date.now()) this.#entries.delete(url);
    return entry && entry.until > Date.now() ? entry : undefined;
  }

  /** Forgets `url` (a later fetch succeeded). */
  clear(url: string): void {
    this.#entries.delete(url);
  }
}

/** oidc-provider's limit for a metadata document body, in bytes (its `fetchResponseBodyLimits`). */
export const CIMD_BODY_LIMIT = 5 * 1024;

/**
 * Appends the recorded cause to oidc-provider's generic "client_id metadata document fetch failed"
 * description, in an error response body (JSON) or page. Mutates `out`.
 */
export function explainCimdFailure(
  failures: CimdFailures,
  clientId: unknown,
  out: { error?: unknown; error_description?: unknown },
): void {
  if (!isCimdClientId(clientId) || out.error !== 'invalid_client') return;
  if (out.error_description !== CIMD_FETCH_FAILED) return;
  const failure = failures.get(clientId);
  if (failure) out.error_description = `client_id metadata document fetch failed: ${failure.cause}`;
}

/**
 * One GET over `node:https` whose socket resolves names through `guardedLookup` (the address
 * connected to is the address checked: no connection towards a special-use address is ever
 * opened). `ca` adds a trusted CA (test mode only).
 */
function guardedGet(
  ca: string | undefined,
  ssrf: { allowLoopback: boolean },
  testResolve: CimdConfig['testResolve'],
): FetchFn {
  return (url, options) =>
    new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = {};
      new Headers(options?.headers as HeadersInit | undefined).forEach((v, k) => {
        headers[k] = v;
      });
      const target = new URL(String(url));
      // Test only: connect to the mapped address, with the host's name in SNI, Host and the
      // certificate check, as if DNS had answered it.
      const mapped = testResolve.get(target.hostname.toLowerCase());
      const req = httpsRequest(
        target,
        {
          method: 'GET',
          headers: mapped ? { ...headers, host: target.host } : headers,
          ca,
          agent: false,
          ...(mapped
            ? { hostname: mapped.host, port: mapped.port, servername: target.hostname }
            : { lookup: guardedLookup(ssrf) as never }),
          signal: options?.signal ?? undefined,
        },
        (res) => {
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
          const status = res.statusCode ?? 502;
          const body = [204, 304].includes(status)
            ? null
            : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
          resolve(new Response(body, { status, headers: out }));
        },
      );
      req.on('error', reject);
      req.end();
    });
}

/** The failure cause of a thrown fetch error, in words. */
function causeOf(err: unknown): string {
  const e = err as { name?: string; message?: string; code?: string };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timed out after 2.5 s';
  if (err instanceof ForbiddenTargetError) return `refused: ${err.message}`;
  return `connection failed${e?.code ? ` (${e.code})` : ''}`;
}

/**
 * The provider's outbound `fetch` (metadata documents and whatever they point to): every request
 * goes through `guardedGet` (SSRF guard pinned at connect time, `ssrf.ts`); IP literals, which skip
 * DNS, are checked here. Failures are recorded in `failures` with their cause. With the test-only
 * `allowLoopback` switch, loopback targets are admitted (no other special-use address) and
 * `testCaFile` is trusted: the in-process server under test cannot take NODE_EXTRA_CA_CERTS; with
 * `testResolve`, a mapped host name is connected to at its loopback address (replicas of the
 * hosts' documents at their published URLs).
 */
export function documentFetch(config: CimdConfig, failures: CimdFailures): FetchFn {
  const ssrf = { allowLoopback: config.allowLoopback };
  const get = guardedGet(
    config.testCaFile ? readFileSync(config.testCaFile, 'utf8') : undefined,
    ssrf,
    config.testResolve,
  );
  return async (url, options) => {
    const target = new URL(String(url));
    const host = target.hostname.replace(/^\[|\]$/g, '');
    try {
      // IP literals never go through `lookup`: check them here too.
      if ((isIP(host) !== 0 || /^[\d.]+$/.test(host)) && isForbiddenAddress(host, ssrf)) {
        throw new ForbiddenTargetError(`refusing to fetch from special-use address ${host}`);
      }
      const response = await get(target, options);
      const declared = Number(response.headers.get('content-length') ?? 0);
      if (response.status !== 200) failures.record(target.href, `HTTP status ${response.status}`);
      else if (declared > CIMD_BODY_LIMIT)
        failures.record(target.href, `document larger than ${CIMD_BODY_LIMIT} bytes`);
      else failures.clear(target.href);
      return response;
    } catch (err) {
      failures.record(target.href, causeOf(err));
      throw err;
    }
  };
}
