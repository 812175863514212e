/**
 * Challenges outside oidc-provider (STYLE.md "Errors"); the error classes and the per-surface
 * renderers live in src/errors/ (catalogue.ts, surfaces/*):
 * - RFC 6750 §3 `WWW-Authenticate: Bearer …` challenges with the RFC 9728 `resource_metadata`
 *   parameter (SPEC §5.7, DESIGN D4).
 */
/** The catalogue's base error (src/errors/catalogue.ts), kept here under its old import path. */
export { HttpError } from '../errors/catalogue.js';
/** The OAuth surface's body writer (src/errors/surfaces/oauth.ts). */
export { sendOAuthError } from '../errors/surfaces/oauth.js';

/** Quotes a value for an auth-param (RFC 9110 §11.2 quoted-string). */
const quote = (value: string): string => `"${value.replace(/[^\x20-\x7e]/g, '?').replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/**
 * Builds a `WWW-Authenticate` value (RFC 6750 §3, RFC 9728 §5.1).
 * @param params e.g. `{ error: 'invalid_token', error_description: '…', scope: 'a b', resource_metadata: 'https://…' }`;
 *   undefined values are left out
 */
export function bearerChallenge(params: Record<string, string | undefined>): string {
  return authChallenge('Bearer', params);
}

/**
 * Builds a `WWW-Authenticate` challenge of `scheme` (RFC 9110 §11.6.1): `Bearer` (RFC 6750 §3) or
 * `DPoP` (RFC 9449 §7.1, whose `algs` parameter names the accepted proof algorithms).
 * @param params auth-params in order; undefined values are left out
 */
export function authChallenge(scheme: 'Bearer' | 'DPoP', params: Record<string, string | undefined>): string {
  const parts = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([k, v]) => `${k}=${quote(v)}`);
  return parts.length ? `${scheme} ${parts.join(', ')}` : scheme;
}
