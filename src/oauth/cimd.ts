/**
 * Client ID Metadata Documents (SPEC §5.4, SPEC §2.5 rule 3, DESIGN D2 `cimd` / `cimd_reviewed`),
 * on oidc-provider's `features.clientIdMetadataDocument` (draft-ietf-oauth-client-id-metadata-
 * document-02). The engine fetches, validates (`client_id` equals the URL, no shared secrets,
 * https web URIs, 200 only, no redirects followed, 5 KiB body limit, 2.5 s timeout) and caches
 * (per-process LRU of 100 documents, Cache-Control bounded by `cacheDuration`). We add:
 *
 * - `allowFetch`: the document host must be on `cimd.allowed_hosts`, or `cimd.open` is on; the
 *   host must resolve to a public address (SSRF, `ssrf.ts`);
 * - `allowClient` (every use, cached or not): every redirect URI is https on the document host
 *   or a loopback URI;
 * - `classifyCimdClient`: the kind is decided by us, never by the document: `cimd_reviewed` when
 *   the URL is listed in `cimd.reviewed`, else `cimd` (identity + `*:read` only);
 * - `documentFetch`: the outbound `fetch`, with the test-only loopback/CA switch.
 */
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { errors, type Configuration, type ClientMetadata } from 'oidc-provider';
import type { Logger } from 'pino';
import type { CimdConfig } from '../config.js';
import { CLIENT_KIND_PROPERTY, CLIENT_ORG_PROPERTY, DEFAULT_SCOPE_PROPERTY } from './client-kinds.js';
import { assertPublicHost, guardedLookup, isForbiddenAddress, ForbiddenTargetError } from './ssrf.js';
import { isLoopbackRedirectUri } from './loopback.js';
import { withDocs } from '../http/docs-links.js';

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
  return config.open || config.allowedHosts.includes(url.host.toLowerCase()) || config.allowedHosts.includes(url.hostname.toLowerCase());
}

/**
 * The `features.clientIdMetadataDocument` configuration.
 * Errors are `invalid_client` with a description naming the rule and linking the docs (`docsUrl`).
 */
export function cimdFeature(config: CimdConfig, logger: Logger, docsUrl: string): CimdFeature {
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
        logger.info({ event: 'cimd_refused', reason: 'host_not_allowed', host: url.host }, 'client metadata document refused');
        throw new errors.InvalidClient(
          withDocs(`client_id metadata documents from ${url.host} are not accepted here: ask the server's operator to allow the host, or register a loopback client`, docsUrl, 'cimd'),
        );
      }
      try {
        await assertPublicHost(url.hostname, ssrf);
      } catch (err) {
        if (!(err instanceof ForbiddenTargetError)) throw err;
        logger.warn({ event: 'cimd_refused', reason: 'ssrf', host: url.host }, 'client metadata document refused');
        throw new errors.InvalidClient(`client_id metadata document refused: ${err.message}`);
      }
      logger.info({ event: 'cimd_fetch', client_id: clientId }, 'fetching client metadata document');
      return true;
    },
    async allowClient(_ctx, client) {
      const docHost = new URL(client.clientId).host.toLowerCase();
      const redirectUris = (client.metadata().redirect_uris ?? []) as string[];
      const foreign = redirectUris.filter((u) => {
        const url = URL.parse(u);
        return !url || !((url.protocol === 'https:' && url.host.toLowerCase() === docHost) || isLoopbackRedirectUri(u));
      });
      if (foreign.length > 0) {
        logger.info({ event: 'cimd_refused', reason: 'foreign_redirect_uri', client_id: client.clientId }, 'client metadata document refused');
        throw new errors.InvalidClient(
          withDocs(`every redirect_uri of a client_id metadata document must be https on its own host ${docHost} or a loopback URI; not: ${foreign.join(' ')}`, docsUrl, 'cimd'),
        );
      }
      return true;
    },
  };
}

/** Test mode only: a minimal GET over `node:https` that trusts `ca` and admits loopback targets. */
function testModeFetch(ca: string | undefined, ssrf: { allowLoopback: boolean }): FetchFn {
  return (url, options) =>
    new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = {};
      new Headers(options?.headers as HeadersInit | undefined).forEach((v, k) => (headers[k] = v));
      const req = httpsRequest(String(url), { method: 'GET', headers, ca, lookup: guardedLookup(ssrf) as never, signal: options?.signal ?? undefined }, (res) => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
        const status = res.statusCode ?? 502;
        const body = [204, 304].includes(status) ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
        resolve(new Response(body, { status, headers: out }));
      });
      req.on('error', reject);
      req.end();
    });
}

/**
 * The provider's outbound `fetch` (used for metadata documents). In production it is the global
 * `fetch` with oidc-provider's SSRF-guarded dispatcher, plus an IP-literal check. With the
 * test-only `allowLoopback` switch it is a small `node:https` client that admits loopback (but
 * still no other special-use address, checked at connect time) and trusts `testCaFile`: the
 * in-process server under test cannot take NODE_EXTRA_CA_CERTS after start.
 */
export function documentFetch(config: CimdConfig): FetchFn {
  const ssrf = { allowLoopback: config.allowLoopback };
  const testFetch = config.allowLoopback
    ? testModeFetch(config.testCaFile ? readFileSync(config.testCaFile, 'utf8') : undefined, ssrf)
    : undefined;
  return async (url, options) => {
    const target = new URL(String(url));
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // IP literals never go through `lookup`: check them here too.
    if (/^[\d.]+$|:/.test(host) && isForbiddenAddress(host, ssrf)) {
      throw new ForbiddenTargetError(`refusing to fetch from special-use address ${host}`);
    }
    if (testFetch) return testFetch(target, options);
    return globalThis.fetch(target, options as RequestInit);
  };
}
