/**
 * The shared bearer middleware of the protected resources (SPEC §5.6, §5.7; DESIGN D4; RFC 6750,
 * RFC 9728). One function, `challenge`, builds every `WWW-Authenticate` header.
 *
 * - no token: anonymous where the resource allows it (`/mcp`), else 401 `invalid_token`;
 * - unknown, expired, revoked or malformed token, or a token whose audience is not BASE_URL:
 *   401 `invalid_token`;
 * - a valid token without a scope the operation needs: 403 `insufficient_scope` with `scope=`.
 */
import type { Context, Middleware } from 'koa';
import type Provider from 'oidc-provider';
import { parseScope } from '../oauth/scopes.js';
import { bearerChallenge, HttpError } from '../http/errors.js';
import type { Accounts } from '../platform/accounts.js';

/** The live membership rule the bearer step applies (`Accounts.liveRolesAt`). */
export type Members = Pick<Accounts, 'liveRolesAt'>;

/** Who a request acts for, from a valid access token. */
export interface Principal {
  /** `sub` of the user. */
  userId: string;
  /** `org_id` of the site chosen at authorization. */
  siteId: string;
  clientId: string;
  /** Scopes carried by the access token (resource scopes, SPEC §2.5). */
  scopes: ReadonlySet<string>;
  grantId: string;
  /** Expiry, epoch seconds. */
  expiresAt: number;
  /** The user's roles at `siteId`, read at this request by `authenticate` (never empty there). */
  roles?: readonly string[];
}

/** Koa state set by the middleware: `principal` is undefined for anonymous requests. */
export interface BearerState {
  principal?: Principal;
}

/** The RFC 9728 metadata URL of the protected resource. */
export const resourceMetadataUrl = (baseUrl: string): string => `${baseUrl}/.well-known/oauth-protected-resource`;

/**
 * Builds the 401/403 error of SPEC §5.7 with its `WWW-Authenticate` challenge.
 * Every 401/403 of every resource surface is built here (issue #9), so each carries the challenge.
 * @param status 401 (`invalid_token`) or 403 (`insufficient_scope`; `access_denied` when the scopes
 *   are there but the user's live role at the site is not, e.g. the admin API's operator check)
 * @param scope the scopes the operation needs (space-delimited), for 403 and for 401 step-up hints
 */
export function challenge(
  baseUrl: string,
  status: 401 | 403,
  error: 'invalid_token' | 'insufficient_scope' | 'invalid_request' | 'access_denied',
  description: string,
  scope?: string,
): HttpError {
  const header = bearerChallenge({
    error,
    error_description: description,
    scope,
    resource_metadata: resourceMetadataUrl(baseUrl),
  });
  return new HttpError(status, error, description, { 'WWW-Authenticate': header });
}

/** Extracts the token of an `Authorization: Bearer` header (RFC 6750 §2.1); undefined when absent. */
export function readBearerToken(ctx: Context, baseUrl: string): string | undefined {
  const header = ctx.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!match) throw challenge(baseUrl, 401, 'invalid_token', 'the Authorization header must be "Bearer <access token>"');
  return match[1];
}

/**
 * Resolves an access token to a principal, with the live role check of issue #9: a member whose
 * every role at the token's site was removed is refused at once, on every resource surface.
 * @throws HttpError 401 invalid_token for unknown/expired/revoked tokens, a foreign audience, or a
 *   user who no longer holds a role at the token's site
 */
export async function authenticate(provider: Provider, baseUrl: string, token: string, members: Members): Promise<Principal> {
  // Opaque tokens only (DESIGN D3); anything longer than a stored id cannot be one of ours.
  const at = token.length <= 128 ? await provider.AccessToken.find(token) : undefined;
  if (!at || at.isExpired) throw challenge(baseUrl, 401, 'invalid_token', 'the access token is invalid, expired or revoked');
  const aud = at.aud as string | string[] | undefined;
  const audiences = Array.isArray(aud) ? aud : aud ? [aud] : [];
  if (!audiences.includes(baseUrl)) {
    // SPEC §5.6: a token issued for another origin (or an audience-less one) is not ours to accept.
    throw challenge(baseUrl, 401, 'invalid_token', `the access token is not bound to ${baseUrl}`);
  }
  const siteId = (at.extra as { org_id?: unknown } | undefined)?.org_id;
  if (!at.accountId || !at.grantId || typeof siteId !== 'string') {
    throw challenge(baseUrl, 401, 'invalid_token', 'the access token acts for no member');
  }
  const roles = await members.liveRolesAt(at.accountId, siteId);
  if (!roles) throw challenge(baseUrl, 401, 'invalid_token', 'the access token acts for no member of its site');
  return {
    roles,
    userId: at.accountId,
    siteId,
    clientId: at.clientId ?? '',
    scopes: parseScope(at.scope),
    grantId: at.grantId,
    expiresAt: at.exp ?? 0,
  };
}

/**
 * The shared bearer step: sets `ctx.state.principal`, or throws the SPEC §5.7 401.
 * @param members the live role check (`Accounts`)
 * @param options.anonymous serve requests without a token anonymously (`/mcp`)
 * @param options.scopes scopes every request must carry (403 insufficient_scope otherwise)
 */
export function bearer(provider: Provider, baseUrl: string, members: Members, options: { anonymous?: boolean; scopes?: string[] } = {}): Middleware {
  return async (ctx, next) => {
    const token = readBearerToken(ctx, baseUrl);
    if (token === undefined) {
      if (!options.anonymous) throw challenge(baseUrl, 401, 'invalid_token', 'an access token is required (Authorization: Bearer <token>)', options.scopes?.join(' '));
    } else {
      const principal = await authenticate(provider, baseUrl, token, members);
      if (options.scopes) requireScopes(baseUrl, principal, options.scopes);
      (ctx.state as BearerState).principal = principal;
    }
    await next();
  };
}

/**
 * Asserts that a principal holds every scope of `needed`.
 * @throws HttpError 403 insufficient_scope naming the needed scopes
 */
export function requireScopes(baseUrl: string, principal: Principal, needed: readonly string[]): void {
  const missing = needed.filter((s) => !principal.scopes.has(s));
  if (missing.length > 0) {
    throw challenge(baseUrl, 403, 'insufficient_scope', `the access token lacks the scope ${missing.join(' ')}`, needed.join(' '));
  }
}
