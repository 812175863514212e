/**
 * UserInfo (SPEC §2.3, §4.2; OpenID Connect Core §5.3) at `/api/oauth/userinfo`.
 *
 * oidc-provider's own userinfo refuses audience-bound access tokens, yet SPEC §1 has one token for
 * UserInfo, `/mcp` and `/account/graphql`; this handler accepts exactly the tokens the bearer
 * middleware accepts and releases the claims of the grant's OpenID scopes.
 */
import type { Middleware } from 'koa';
import type Provider from 'oidc-provider';
import type { Accounts } from '../platform/accounts.js';
import { authenticate, readBearerToken, type ScopeHint } from './bearer.js';
import { challenge } from '../http/challenge.js';
import { claimsOf, loadClaims } from '../domain/claims.js';
import { KeptGrants } from './kept-grants.js';

/** DESIGN D4: UserInfo's 401s name the scope it needs. */
const OPENID: ScopeHint = { operation: 'openid', fallback: 'openid' };

/** The Content-Type Koa would give a JSON body. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** GET or POST handler answering the claims as JSON (`Cache-Control: no-store`). */
export function userinfoHandler(provider: Provider, accounts: Accounts, baseUrl: string): Middleware {
  // The grant's OpenID scope decides the claims; a grant never changes (src/resource/kept-grants.ts).
  const grants = new KeptGrants(provider);
  return async (ctx) => {
    const token = readBearerToken(ctx, baseUrl, OPENID);
    if (!token) throw challenge(baseUrl, 401, 'invalid_token', 'an access token is required: send the header Authorization: Bearer <access token>', 'openid');
    const principal = await authenticate(provider, baseUrl, token, accounts, OPENID);
    const grant = grants.known(principal.grantId) ?? (await grants.read(principal.grantId));
    if (!grant || grant.clientId !== principal.clientId || grant.accountId !== principal.userId) {
      throw challenge(baseUrl, 401, 'invalid_token', 'the grant of this access token was revoked: sign in again', 'openid');
    }
    if (!grant.scopes.has('openid')) {
      throw challenge(baseUrl, 403, 'insufficient_scope', 'UserInfo needs a token whose grant includes openid', 'openid');
    }
    // The bearer step read the user and their roles at the site (one query, issue #15).
    const claims = principal.user && principal.roles ? claimsOf(principal.user, principal.siteId, principal.roles, grant.scopes) : await loadClaims(accounts, principal.userId, principal.siteId, grant.scope);
    if (!claims) throw challenge(baseUrl, 401, 'invalid_token', 'the account of this access token no longer exists', 'openid');
    ctx.set('Cache-Control', 'no-store');
    // Named here so Koa's body setter does not look `json` up in the MIME table at each request.
    ctx.set('Content-Type', JSON_TYPE);
    ctx.body = claims;
  };
}
