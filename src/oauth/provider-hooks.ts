/**
 * Wrapping middleware around oidc-provider's own actions (registered with `provider.use`), for
 * the few rules of SPEC.md that the engine has no switch for.
 *
 * - SPEC §2.2: refresh responses carry no id_token; with signing not started (DESIGN D6, state
 *   `published`) no response carries one and discovery omits `id_token_signing_alg_values_supported`.
 * - RFC 6749 §5.1: the token response's `scope` names the identity scopes granted too.
 */
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { IDENTITY_SCOPES, parseScope } from '../domain/scopes.js';
import type { Config } from '../config.js';
import { ROUTES } from './provider.js';

type Body = Record<string, unknown>;

/**
 * RFC 6749 §5.1 `scope` names what was granted. With resource indicators oidc-provider answers the
 * access token's (resource) scopes only, so a client that asked for `openid profile email
 * account:read` reads `account:read` and believes the identity scopes were refused, although an
 * id_token came back. This adds the identity scopes the grant holds and the request asked for
 * (the code's or refresh token's scope, or a narrowing `scope` parameter), in both flows.
 */
function nameIdentityScopes(ctx: KoaContextWithOIDC, body: Body): void {
  if (typeof body.access_token !== 'string') return;
  const { entities, params } = ctx.oidc;
  const source = entities.AuthorizationCode ?? entities.RefreshToken;
  const grant = entities.Grant;
  if (!source || !grant) return;
  const asked = typeof params?.scope === 'string' ? params.scope : source.scope;
  const granted = parseScope(grant.getOIDCScopeFiltered(parseScope(asked)));
  const identity = [...IDENTITY_SCOPES].filter((s) => granted.has(s));
  const resource = typeof body.scope === 'string' ? [...parseScope(body.scope)] : [];
  const named = [...new Set([...identity, ...resource])];
  if (named.length) body.scope = named.join(' ');
}

/** Installs the post-processing middleware on the provider. */
export function installProviderHooks(provider: Provider, config: Config, signingActive: () => boolean = () => config.idTokenSigning === 'active'): void {
  provider.use(async (ctx, next) => {
    await next();
    const route = ctx.oidc?.route;
    if (!route || !ctx.body || typeof ctx.body !== 'object') return;
    const body = ctx.body as Body;
    switch (route) {
      case 'discovery':
        body.userinfo_endpoint = `${config.baseUrl}${ROUTES.userinfo}`;
        if (!signingActive()) delete body.id_token_signing_alg_values_supported;
        break;
      case 'token':
        if (!signingActive() || ctx.oidc.params?.grant_type === 'refresh_token') delete body.id_token;
        nameIdentityScopes(ctx as unknown as KoaContextWithOIDC, body);
        break;
      default:
        break;
    }
  });
}
