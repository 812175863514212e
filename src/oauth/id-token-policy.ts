/**
 * SPEC §2.2 and DESIGN D6: when an id_token is withheld, in one place.
 *
 * - A refresh response (`grant_type=refresh_token` at the token endpoint) carries no id_token.
 * - While signing has not started (DESIGN D6 key state `published`), no token response carries one.
 *
 * oidc-provider has no switch for either and signs one on every refresh of an `openid` grant.
 * `withholdIdTokens` wraps its IdToken model so that such a token is never signed (an ES256
 * signature is ~20 % of a refresh); oidc-provider then leaves `id_token` out of the JSON. The
 * account's `claims()` reads the same rule to skip the claim queries of a token never issued.
 */
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { patchIdTokenIssue, ROUTE, routeOf } from '../engine/oidc-provider.js';

/** True inside a refresh_token grant request at the token endpoint. */
export function isRefreshGrant(ctx: KoaContextWithOIDC | undefined): boolean {
  return routeOf(ctx) === ROUTE.token && ctx?.oidc?.params?.grant_type === 'refresh_token';
}

/**
 * True when the token endpoint answers this request without an id_token.
 * @param signingActive DESIGN D6: true once id_tokens may be signed
 */
export function idTokenWithheld(ctx: KoaContextWithOIDC | undefined, signingActive: () => boolean): boolean {
  return routeOf(ctx) === ROUTE.token && (!signingActive() || isRefreshGrant(ctx));
}

/**
 * Installs the rule on the provider's IdToken model (the engine seam's `patchIdTokenIssue`):
 * `issue()` returns undefined where `idTokenWithheld` says so.
 */
export function withholdIdTokens(provider: Provider, signingActive: () => boolean): void {
  patchIdTokenIssue(provider, (ctx) => idTokenWithheld(ctx, signingActive));
}
