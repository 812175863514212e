/**
 * Error bodies and challenges outside oidc-provider (STYLE.md "Errors"):
 * - RFC 6749 §5.2 JSON bodies `{ error, error_description }` (SPEC §7);
 * - RFC 6750 §3 `WWW-Authenticate: Bearer …` challenges with the RFC 9728 `resource_metadata`
 *   parameter (SPEC §5.7, DESIGN D4).
 */
import type { Context } from 'koa';

/** An error with an RFC error code, an HTTP status and a human-readable description. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

/** Writes an RFC 6749 §5.2 JSON error body with `Cache-Control: no-store`. */
export function sendOAuthError(ctx: Context, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error, error_description: description };
}

/** Quotes a value for an auth-param (RFC 9110 §11.2 quoted-string). */
const quote = (value: string): string =>
  `"${value.replace(/[^\x20-\x7e]/g, '?').replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/**
 * Builds a `WWW-Authenticate` value (RFC 6750 §3, RFC 9728 §5.1).
 * @param params e.g. `{ error: 'invalid_token', error_description: '…', scope: 'a b', resource_metadata: 'https://…' }`;
 *   undefined values are left out
 */
export function bearerChallenge(params: Record<string, string | undefined>): string {
  const parts = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([k, v]) => `${k}=${quote(v)}`);
  return parts.length ? `Bearer ${parts.join(', ')}` : 'Bearer';
}
