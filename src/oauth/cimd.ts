/**
 * Client ID Metadata Documents (SPEC §5.4, SPEC §2.5 rule 3, DESIGN D2 `cimd` / `cimd_reviewed`),
 * on oidc-provider's `features.clientIdMetadataDocument` (draft-ietf-oauth-client-id-metadata-
 * document-02). The engine fetches, validates (`client_id` equals the URL, no shared secrets,
 * https web URIs, 200 only, no redirects followed, 5 KiB body limit, 2.5 s timeout) and caches
 * (per-process LRU of 100 documents, Cache-Control bounded by `cacheDuration`). We add:
 *
 * - `allowFetch`: the document host must be on `cimd.allowed_hosts`, or `cimd.open` is on; the
 *   host must resolve to a public address (SSRF, `ssrf.ts`);
 * - `allowClient` (every use, cached or not): every redirect URI and post-logout redirect URI is
 *   https on the document host or a loopback URI;
 * - `CimdFailures`: failed fetches are not repeated for a short time and their cause is shown;
 * - `classifyCimdClient`: the kind is decided by us, never by the document: `cimd_reviewed` when
 *   the URL is listed in `cimd.reviewed`, else `cimd` (identity + `*:read` only);
 * - `documentFetch`: the outbound `fetch`, with the test-only loopback/CA switch.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { errors, type Configuration, type ClientMetadata } from 'oidc-provider';
import type { Logger } from 'pino';
import type { CimdConfig } from '../config.js';
import { CLIENT_KIND_PROPERTY, CLIENT_ORG_PROPERTY, DEFAULT_SCOPE_PROPERTY } from '../domain/client-kinds.js';
import { clientMetadata } from '../domain/client-metadata.js';
import { assertPublicHost, guardedLookup, isForbiddenAddress, ForbiddenTargetError } from './ssrf.js';
import { isLoopbackRedirectUri } from '../http/loopback.js';
import { withDocs } from '../http/docs-links.js';
import { CIMD_FETCH_FAILED } from '../engine/oidc-provider.js';

type CimdFeature = NonNullable<NonNullable<Configuration['features']>['clientIdMetadataDocument']>;
type FetchFn = NonNullable<Configuration['fetch']>;

/** True when a client_id is (syntactically) a Client ID Metadata Document URL. */
export const isCimdClientId = (clientId: unknown): clientId is string =>
  typeof clientId === 'string' && /^https:\/\//i.test(clientId);

/**
 * Sets the kind of a CIMD client from configuration, overriding whatever the document says
 * (DESIGN D2). Called by the provider's `extraClientMetadata.validator` for every client; leaves
 * non-CIMD clients alone. Mutates `metadata`.
 */
export function classifyCimdClient(config: CimdConfig, metadata: ClientMetadata): void {
  if (!isCimdClientId(metadata.client_id)) return;
  metadata[CLIENT_KIND_PROPERTY] = config.reviewed.includes(metadata.client_id) ? 'cimd_reviewed' : 'cimd';
  delete metadata[CLIENT_ORG_PROPERTY];
  // The document's `scope` is its default (DESIGN D2); it cannot name its own default otherwise.
  delete metadata[DEFAULT_SCOPE_PROPERTY];
}

function hostAllowed(config: CimdConfig, url: URL): boolean {
  return (
    config.open ||
    config.allowedHosts.includes(url.host.toLowerCase()) ||
    config.allowedHosts.includes(url.hostname.toLowerCase())
  );
}

/**
 * The `features.clientIdMetadataDocument` configuration.
 * Errors are `invalid_client` with a description naming the rule and linking the docs (`docsUrl`).
 */
export function cimdFeature(config: CimdConfig, logger: Logger, failures: CimdFailures, docsUrl: string): CimdFeature {
  const ssrf = { allowLoopback: config.allowLoopback };
  return {
    enabled: true,
    ack: 'draft-02',
    // Documents are cached between 5 minutes and 1 hour (Cache-Control within these bounds), so a
    // changed document or review takes effect within the hour.
    cacheDuration: { min: 300, max: 3600 },
    async allowFetch(_ctx, clientId) {
      const url = new URL(clientId);
      if (!hostAllowed(config, url)) {
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
      try {
        await assertPublicHost(url.hostname, ssrf);
      } catch (err) {
        if (!(err instanceof ForbiddenTargetError)) throw err;
        logger.warn({ event: 'cimd_refused', reason: 'ssrf', host: url.host }, 'client metadata document refused');
        failures.record(clientId, `refused: ${err.message}`);
        throw new errors.InvalidClient(`client_id metadata document refused: ${err.message}`);
      }
      logger.info({ event: 'cimd_fetch', client_id: clientId }, 'fetching client metadata document');
      return true;
    },
    async allowClient(_ctx, client) {
      const docHost = new URL(client.clientId).host.toLowerCase();
      const metadata = clientMetadata(client);
      // Issue #13 finding 2: post_logout_redirect_uris follow the redirect_uris rule.
      for (const field of ['redirect_uris', 'post_logout_redirect_uris'] as const) {
        const uris = (metadata[field] ?? []) as string[];
        const foreign = uris.filter((u) => {
          const url = URL.parse(u);
          return (
            !url || !((url.protocol === 'https:' && url.host.toLowerCase() === docHost) || isLoopbackRedirectUri(u))
          );
        });
        if (foreign.length > 0) {
          logger.info(
            { event: 'cimd_refused', reason: `foreign_${field}`, client_id: client.clientId },
            'client metadata document refused',
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
function guardedGet(ca: string | undefined, ssrf: { allowLoopback: boolean }): FetchFn {
  return (url, options) =>
    new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = {};
      new Headers(options?.headers as HeadersInit | undefined).forEach((v, k) => {
        headers[k] = v;
      });
      const req = httpsRequest(
        String(url),
        {
          method: 'GET',
          headers,
          ca,
          agent: false,
          lookup: guardedLookup(ssrf) as never,
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
 * `testCaFile` is trusted: the in-process server under test cannot take NODE_EXTRA_CA_CERTS.
 */
export function documentFetch(config: CimdConfig, failures: CimdFailures): FetchFn {
  const ssrf = { allowLoopback: config.allowLoopback };
  const get = guardedGet(config.testCaFile ? readFileSync(config.testCaFile, 'utf8') : undefined, ssrf);
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
