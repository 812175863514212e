/**
 * The one builder of `WWW-Authenticate: Bearer` challenges (SPEC §5.7, RFC 6750 §3, RFC 9728 §5.1):
 * every 401/403 of every resource surface is made here, whichever layer raises it (the shared
 * bearer step in src/resource/bearer.ts, the admin API, `/mcp`, `/account/graphql`, UserInfo).
 */
import { authChallenge, bearerChallenge } from './errors.js';
import {
  AccessDenied,
  HttpError,
  InsufficientScope,
  InvalidDpopProof,
  InvalidToken,
  UseDpopNonce,
} from '../errors/catalogue.js';
import { DPOP_SIGNING_ALGS } from '../domain/dpop.js';

/** The RFC 9728 metadata URL of the protected resource. */
export const resourceMetadataUrl = (baseUrl: string): string => `${baseUrl}/.well-known/oauth-protected-resource`;

/**
 * Builds the 401/403 error of SPEC §5.7 with its `WWW-Authenticate` challenge; the one place
 * challenges are made.
 * Every 401/403 of every resource surface is built here (issue #9), so each carries the challenge.
 * @param status 401 (`invalid_token`) or 403 (`insufficient_scope`; `access_denied` when the scopes
 *   are there but the user's live role at the site is not, e.g. the admin API's operator check)
 * @param scope the scope to ask for next (space-delimited; DESIGN D4: on every 401 and 403)
 * @param errorUri a developer-docs page about the error (RFC 6750 §3 `error_uri`)
 */
export function challenge(
  baseUrl: string,
  status: 401 | 403,
  error: 'invalid_token' | 'insufficient_scope' | 'invalid_request' | 'access_denied',
  description: string,
  scope: string,
  errorUri?: string,
): HttpError {
  const header = bearerChallenge({
    error,
    error_description: description,
    scope,
    error_uri: errorUri,
    resource_metadata: resourceMetadataUrl(baseUrl),
  });
  const headers = { 'WWW-Authenticate': header };
  // The catalogue class of the code (src/errors/catalogue.ts); the surfaces render it their way.
  if (status === 401 && error === 'invalid_token') return new InvalidToken(description, headers);
  if (status === 403 && error === 'insufficient_scope') return new InsufficientScope(description, headers);
  if (status === 403 && error === 'access_denied') return new AccessDenied(description, headers);
  return new HttpError(status, error, description, headers);
}

/**
 * Builds a 401 (or, for `insufficient_scope`, a 403) with a `WWW-Authenticate: DPoP` challenge (RFC 9449 §7.1): for a request that used
 * the DPoP scheme, or a DPoP-bound token sent as `Bearer`. It names the accepted proof algorithms
 * (`algs`), and, as every challenge here, the scope to ask for next and the RFC 9728 metadata.
 * @param error `invalid_token` (token or key binding refused), `invalid_dpop_proof` (the proof
 *   itself), `use_dpop_nonce` (RFC 9449 §9: retry with the nonce of the `DPoP-Nonce` header),
 *   `insufficient_scope` (403: a DPoP request whose token lacks a scope, RFC 6750 §3.1 in §7.1's scheme)
 * @param nonce sent as `DPoP-Nonce` (always with `use_dpop_nonce`)
 */
export function dpopChallenge(
  baseUrl: string,
  error: 'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce' | 'insufficient_scope',
  description: string,
  scope: string,
  errorUri?: string,
  nonce?: string,
): HttpError {
  const header = authChallenge('DPoP', {
    algs: DPOP_SIGNING_ALGS.join(' '),
    error,
    error_description: description,
    scope,
    error_uri: errorUri,
    resource_metadata: resourceMetadataUrl(baseUrl),
  });
  const headers: Record<string, string> = { 'WWW-Authenticate': header };
  if (nonce) headers['DPoP-Nonce'] = nonce;
  if (error === 'invalid_dpop_proof') return new InvalidDpopProof(description, headers);
  if (error === 'use_dpop_nonce') return new UseDpopNonce(description, headers);
  if (error === 'insufficient_scope') return new InsufficientScope(description, headers);
  return new InvalidToken(description, headers);
}
