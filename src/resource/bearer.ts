/**
 * The shared bearer middleware of the protected resources (SPEC §5.6, §5.7; DESIGN D4; RFC 6750,
 * RFC 9728). One function, `challenge` (src/http/challenge.ts), builds every `WWW-Authenticate` header.
 *
 * - no token: anonymous where the resource allows it (`/mcp`), else 401 `invalid_token`;
 * - unknown, expired, revoked or malformed token, or a token whose audience is not BASE_URL:
 *   401 `invalid_token`;
 * - a valid token without a scope the operation needs: 403 `insufficient_scope` with `scope=`.
 *
 * DPoP (RFC 9449 §7, DESIGN D15): `Authorization: DPoP <token>` with a `DPoP` proof is checked by
 * src/resource/dpop.ts; a DPoP-bound token (`cnf.jkt`) sent as `Bearer`, or with a proof of
 * another key, is 401 `invalid_token` under a `DPoP` challenge.
 *
 * Every challenge names a `scope` (DESIGN D4; MCP authorization, "scope selection"): the scope to
 * ask for next. A client that sees none asks for every scope in `scopes_supported`, which no client
 * kind may hold (`invalid_scope`). See `ScopeHint` for how it is chosen.
 */
import type { Context, Middleware } from 'koa';
import type Provider from 'oidc-provider';
import { narrowest, parseScope, satisfies } from '../domain/scopes.js';
import { defaultScopeOf } from '../domain/client-kinds.js';
import { clientMetadata } from '../domain/client-metadata.js';
import { challenge, dpopChallenge } from '../http/challenge.js';
import type { Accounts, Site, User } from '../platform/accounts.js';
import type { DpopProofs, VerifiedProof } from './dpop.js';

// `challenge()` and the RFC 9728 metadata URL live in the HTTP layer (src/http/challenge.ts), so
// that every surface's error mapper can build a challenge without importing a resource server.
export { challenge, resourceMetadataUrl } from '../http/challenge.js';

/** The live membership rule the bearer step applies (`Accounts.liveMemberAt`). */
export type Members = Pick<Accounts, 'liveMemberAt'>;

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
  /**
   * The user (id, e-mail, display name) and the site, read by `authenticate` in the same query as
   * `roles` (issue #15: surfaces answer from them instead of reading them again).
   */
  user?: User;
  site?: Site;
  /**
   * The scheme the token came with (`DPoP`: RFC 9449, proof checked), so a later refusal of the
   * request (403 `insufficient_scope`) challenges in the same scheme (§7.1). Undefined = Bearer.
   */
  scheme?: 'Bearer' | 'DPoP';
}

/** Koa state set by the middleware: `principal` is undefined for anonymous requests. */
export interface BearerState {
  principal?: Principal;
}

/**
 * What a surface names in `scope` when a token is refused before the operation's scope is known
 * (DESIGN D4: "the called operation's, else the caller kind's default").
 * - `operation`: the scopes of what was called (e.g. the MCP tool of a `tools/call`), when known;
 * - `fallback`: named when the caller's client cannot be told either (the token was never ours, or
 *   its tombstone is gone too). For a token that is found but expired, or revoked or purged within
 *   its tombstone's life (src/oauth/token-tombstones.ts), the default scope of its client
 *   (DESIGN D3, `defaultScopeOf`) comes first.
 * Values are space-delimited scope strings.
 */
export interface ScopeHint {
  operation?: string;
  fallback: string;
  /** Developer-docs page sent as `error_uri` (RFC 6750 §3) with every 401 of the surface. */
  errorUri?: string;
}

/**
 * The scope every client kind may request (DESIGN D2): what `/mcp` names when neither the
 * operation nor the caller is known. The first protected tool call then steps up.
 */
export const ANY_KIND_SCOPE = 'openid';

/**
 * Extracts the token of an `Authorization: Bearer` header (RFC 6750 §2.1); undefined when absent.
 * @throws HttpError 401 invalid_token for any other Authorization header
 */
export function readBearerToken(ctx: Context, baseUrl: string, hint: ScopeHint): string | undefined {
  const header = ctx.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!match)
    throw challenge(
      baseUrl,
      401,
      'invalid_token',
      'send the access token in the header Authorization: Bearer <access token>',
      hint.operation ?? hint.fallback,
      hint.errorUri,
    );
  return match[1];
}

/** An access token as the Authorization header carries it (RFC 6750 §2.1, RFC 9449 §7.1). */
export interface PresentedToken {
  token: string;
  scheme: 'Bearer' | 'DPoP';
}

/**
 * Extracts the token of an `Authorization: Bearer` or `Authorization: DPoP` header; undefined when
 * there is none.
 * @throws HttpError 401 invalid_token for any other Authorization header
 */
export function readAccessToken(ctx: Context, baseUrl: string, hint: ScopeHint): PresentedToken | undefined {
  const header = ctx.get('authorization');
  if (!header) return undefined;
  const match = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!match) return { token: readBearerToken(ctx, baseUrl, hint)!, scheme: 'Bearer' };
  return { token: match[2]!, scheme: match[1]!.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer' };
}

/** The DPoP proof of a request sent with `Authorization: DPoP`, verified, and where to record it. */
export interface ProofOfPossession {
  proofs: DpopProofs;
  proof: VerifiedProof;
}

/**
 * What the `AccessToken` adapter answers about a token that is gone (src/oauth/token-tombstones.ts,
 * reached through the provider so that this layer imports nothing of src/oauth).
 */
interface GoneTokens {
  clientOfGoneToken?(token: string): Promise<string | undefined>;
}

/** The client a revoked or purged access token was issued to, while its tombstone lives (issue #26). */
async function clientOfGoneToken(provider: Provider, token: string): Promise<string | undefined> {
  const adapter = (provider.AccessToken as unknown as { adapter?: GoneTokens }).adapter;
  return adapter?.clientOfGoneToken?.(token).catch(() => undefined);
}

/** The default scope of a token's client (DESIGN D3), or undefined when the client is gone. */
async function clientDefaultScope(provider: Provider, clientId: string | undefined): Promise<string | undefined> {
  if (!clientId) return undefined;
  const client = await provider.Client.find(clientId).catch(() => undefined);
  return client ? defaultScopeOf(clientMetadata(client)) || undefined : undefined;
}

/**
 * Resolves an access token to a principal, with the live role check of issue #9: a member whose
 * every role at the token's site was removed is refused at once, on every resource surface. The
 * principal carries what that one query read (roles, user, site).
 * @param members the live role check (`Accounts`)
 * @param hint the `scope` to name when the token is refused (see `ScopeHint`)
 * @throws HttpError 401 invalid_token for unknown/expired/revoked tokens, a foreign audience, or a
 *   user who no longer holds a role at the token's site
 */
export async function authenticate(
  provider: Provider,
  baseUrl: string,
  token: string,
  members: Members,
  hint: ScopeHint,
  possession?: ProofOfPossession,
): Promise<Principal> {
  // Opaque tokens only (DESIGN D3); anything longer than a stored id cannot be one of ours.
  // Expired tokens are read too (until purged): their client tells which scope to ask for next.
  const at = token.length <= 128 ? await provider.AccessToken.find(token, { ignoreExpiration: true }) : undefined;
  // DESIGN D4: the operation's scope, else the default of the token's client: read from the token,
  // or, for a revoked or purged one, from its tombstone (issue #26); else the surface's fallback.
  // RFC 9449 §7.1: a request that used DPoP, or a DPoP-bound token, is answered with a DPoP challenge.
  const boundTo = (at as { jkt?: string } | undefined)?.jkt;
  const refuse = async (description: string) => {
    const scope =
      hint.operation ??
      (await clientDefaultScope(
        provider,
        at ? at.clientId : token.length <= 128 ? await clientOfGoneToken(provider, token) : undefined,
      )) ??
      hint.fallback;
    return possession || boundTo
      ? dpopChallenge(baseUrl, 'invalid_token', description, scope, hint.errorUri)
      : challenge(baseUrl, 401, 'invalid_token', description, scope, hint.errorUri);
  };
  if (!at) throw await refuse('the access token is unknown or was revoked: sign in again');
  if (at.isExpired) throw await refuse('the access token has expired: refresh it or sign in again');
  const aud = at.aud as string | string[] | undefined;
  const audiences = Array.isArray(aud) ? aud : aud ? [aud] : [];
  if (!audiences.includes(baseUrl)) {
    // SPEC §5.6: a token issued for another origin (or an audience-less one) is not ours to accept.
    throw await refuse(`the access token is not bound to ${baseUrl}: request it with resource=${baseUrl}`);
  }
  // RFC 9449 §7.1: the proof's key must be the one the token is bound to (`cnf.jkt`, §6.1).
  if (!possession && boundTo) {
    throw await refuse(
      'the access token is bound to a DPoP key: send it as Authorization: DPoP <access token> with a DPoP proof signed by that key (RFC 9449 §7)',
    );
  }
  if (possession && boundTo !== possession.proof.jkt) {
    throw await refuse(
      boundTo
        ? 'the DPoP proof is signed by another key than the one the access token is bound to'
        : 'the access token is not DPoP-bound: send it as Authorization: Bearer <access token>',
    );
  }
  const siteId = (at.extra as { org_id?: unknown } | undefined)?.org_id;
  if (!at.accountId || !at.grantId || typeof siteId !== 'string') {
    throw await refuse('the access token acts for no member of a site: sign in as a person');
  }
  const member = await members.liveMemberAt(at.accountId, siteId);
  if (!member) throw await refuse('the access token acts for no member of its site');
  // RFC 9449 §11.1: the proof is spent once everything else holds (a refused request writes nothing).
  if (possession) {
    await possession.proofs.remember(possession.proof, {
      scope: hint.operation ?? hint.fallback,
      errorUri: hint.errorUri,
    });
  }
  return {
    roles: member.roles,
    user: member.user,
    site: member.site,
    userId: at.accountId,
    siteId,
    clientId: at.clientId ?? '',
    scopes: parseScope(at.scope),
    grantId: at.grantId,
    expiresAt: at.exp ?? 0,
  };
}

/**
 * Reads the request's access token, `Bearer` or `DPoP` (its proof verified first, RFC 9449 §7.1),
 * and resolves it to a principal with `authenticate`; undefined when the request carries none.
 * @param proofs the resource side's DPoP checks (src/resource/dpop.ts)
 * @param options.body the raw request body, for a proof's `content_digest` claim (`/mcp`)
 * @throws HttpError 401 `invalid_token`, `invalid_dpop_proof` or `use_dpop_nonce` (see
 *   `authenticate` and `DpopProofs.verify`)
 */
export async function authenticateRequest(
  ctx: Context,
  provider: Provider,
  baseUrl: string,
  members: Members,
  hint: ScopeHint,
  proofs: DpopProofs,
  options: { body?: string } = {},
): Promise<Principal | undefined> {
  const presented = readAccessToken(ctx, baseUrl, hint);
  if (!presented) return undefined;
  if (presented.scheme === 'Bearer') return authenticate(provider, baseUrl, presented.token, members, hint);
  const refusal = { scope: hint.operation ?? hint.fallback, errorUri: hint.errorUri };
  const proof = await proofs.verify(ctx, presented.token, refusal, options);
  const principal = await authenticate(provider, baseUrl, presented.token, members, hint, { proofs, proof });
  return principal && { ...principal, scheme: 'DPoP' };
}

/**
 * The shared bearer step: sets `ctx.state.principal`, or throws the SPEC §5.7 401.
 * @param members the live role check (`Accounts`)
 * @param options.anonymous serve requests without a token anonymously (`/mcp`)
 * @param options.scopes scopes every request must carry (403 insufficient_scope otherwise); also
 *   the `scope` of every 401 of the surface (without: `challengeScope`, else the client's default,
 *   else `openid`)
 * @param options.challengeScope the scope the 401s name when `scopes` is empty (UserInfo: `openid`)
 * @param options.errorUri developer-docs page named as `error_uri` in the surface's 401s
 */
export function bearer(
  provider: Provider,
  baseUrl: string,
  members: Members,
  proofs: DpopProofs,
  options: { anonymous?: boolean; scopes?: readonly string[]; challengeScope?: string; errorUri?: string } = {},
): Middleware {
  // DESIGN D4: the surface's own scopes are what a refused caller should ask for next.
  const own = options.scopes?.length ? options.scopes.join(' ') : options.challengeScope;
  const hint: ScopeHint = { operation: own, fallback: own ?? ANY_KIND_SCOPE, errorUri: options.errorUri };
  return async function authenticateBearer(ctx, next) {
    const principal = await authenticateRequest(ctx, provider, baseUrl, members, hint, proofs);
    if (principal === undefined) {
      if (!options.anonymous)
        throw challenge(
          baseUrl,
          401,
          'invalid_token',
          'an access token is required: send the header Authorization: Bearer <access token>',
          hint.fallback,
          hint.errorUri,
        );
    } else {
      if (options.scopes) requireScopes(baseUrl, principal, options.scopes);
      (ctx.state as BearerState).principal = principal;
    }
    await next();
  };
}

/**
 * Asserts that a principal's scopes satisfy every scope of `needed`, a held `X:write` counting for
 * `X:read` (DESIGN D4 scope hierarchy, `satisfies`).
 * @throws HttpError 403 insufficient_scope naming the narrowest needed scopes
 */
export function requireScopes(baseUrl: string, principal: Principal, needed: readonly string[]): void {
  const missing = needed.filter((s) => !satisfies(principal.scopes, s));
  if (missing.length > 0) {
    const description = `the access token lacks the scope ${missing.join(' ')}`;
    const scope = narrowest(needed).join(' ');
    // RFC 9449 §7.1: a request made with DPoP is challenged in the DPoP scheme.
    throw principal.scheme === 'DPoP'
      ? dpopChallenge(baseUrl, 'insufficient_scope', description, scope)
      : challenge(baseUrl, 403, 'insufficient_scope', description, scope);
  }
}
