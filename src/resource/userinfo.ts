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
import type { BearerState } from './bearer.js';
import { challenge } from '../http/challenge.js';
import { claimsOf, loadClaims } from '../domain/claims.js';
import { KeptGrants } from './kept-grants.js';

/** The Content-Type Koa would give a JSON body. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * GET or POST handler answering the claims as JSON (`Cache-Control: no-store`), after the row's
 * bearer step (`ctx.state.principal`).
 * @throws HttpError 401 invalid_token when the grant was revoked or the account is gone; 403
 *   insufficient_scope when the grant does not include `openid`
 */
export function userinfoHandler(provider: Provider, accounts: Accounts, baseUrl: string): Middleware {
  // The grant's OpenID scope decides the claims; a grant never changes (src/resource/kept-grants.ts).
  const grants = new KeptGrants(provider);
  return async (ctx) => {
    // The row's bearer step (route table `auth: bearer, challengeScope: openid`) authenticated the
    // token with the same rule as every resource, naming `openid` in its 401s (DESIGN D4).
    const principal = (ctx.state as BearerState).principal;
    if (!principal) throw new Error("userinfo: the row's bearer step did not run");
    const grant = grants.known(principal.grantId) ?? (await grants.read(principal.grantId));
    if (!grant || grant.clientId !== principal.clientId || grant.accountId !== principal.userId) {
      throw challenge(
        baseUrl,
        401,
        'invalid_token',
        'the grant of this access token was revoked: sign in again',
        'openid',
      );
    }
    if (!grant.scopes.has('openid')) {
      throw challenge(
        baseUrl,
        403,
        'insufficient_scope',
        'UserInfo needs a token whose grant includes openid',
        'openid',
      );
    }
    // The bearer step read the user and their roles at the site (one query, issue #15).
    const claims =
      principal.user && principal.roles
        ? claimsOf(principal.user, principal.siteId, principal.roles, grant.scopes)
        : await loadClaims(accounts, principal.userId, principal.siteId, grant.scope);
    if (!claims)
      throw challenge(baseUrl, 401, 'invalid_token', 'the account of this access token no longer exists', 'openid');
    ctx.set('Cache-Control', 'no-store');
    // Named here so Koa's body setter does not look `json` up in the MIME table at each request.
    ctx.set('Content-Type', JSON_TYPE);
    ctx.body = claims;
  };
}
