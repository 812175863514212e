/**
 * DESIGN D3: an authorization request without `scope` gets the client's default scope set instead
 * of an error (SPEC §4.2 marks `scope` required, but real clients and the MCP conformance suite
 * sometimes send none).
 *
 * The default set: the client's registered `scope` (or, without one, every scope its kind may
 * have, DESIGN D2), keeping identity scopes and `…:read` scopes only. Runs as the `fillDefaultScope`
 * step of the authorization pipeline (src/pipelines/oauth.ts), in front of oidc-provider on
 * `GET /oauth/authorize`; it only adds the parameter, and the provider then validates the request
 * as usual.
 */
import type { Middleware } from 'koa';
import type Provider from 'oidc-provider';
import { defaultScopeOf } from '../domain/client-kinds.js';
import { clientMetadata } from '../domain/client-metadata.js';
import { ALL_SCOPES } from '../domain/scopes.js';
// The set itself (`defaultScopeOf`) is domain vocabulary shared with the bearer step.

/**
 * Fills a missing `scope` on `GET /oauth/authorize` (route-table row `authorization`, read from
 * `ctx.state.route`; other requests pass through).
 * @param provider used to look the client up (unknown client or lookup error: request left as is,
 *   the provider answers it)
 */
export function defaultScopeMiddleware(provider: Provider): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.state.route?.spec.name !== 'authorization') return next();
    const { scope, client_id: clientId } = ctx.query;
    if ((typeof scope === 'string' && scope.trim() !== '') || Array.isArray(scope) || typeof clientId !== 'string')
      return next();
    let metadata: Readonly<Record<string, unknown>> | undefined;
    try {
      const client = await provider.Client.find(clientId);
      metadata = client ? clientMetadata(client) : undefined;
    } catch {
      metadata = undefined;
    }
    if (metadata) {
      const filled = defaultScopeOf(metadata);
      if (filled) ctx.query = { ...ctx.query, scope: filled };
    }
    return next();
  };
}

/**
 * DESIGN D4: scope values this server does not define (a host adds `offline_access`: refresh
 * tokens are issued without it, DESIGN D3) are dropped from `scope` on `GET /oauth/authorize`
 * instead of refused; RFC 6749 §3.3 lets the server ignore them. Runs before `fillDefaultScope`,
 * so a request left with no known scope gets the client's default. Other requests pass through.
 */
export const keepKnownScopes: Middleware = async (ctx, next) => {
  if (ctx.method !== 'GET' || ctx.state.route?.spec.name !== 'authorization') return next();
  const { scope } = ctx.query;
  if (typeof scope !== 'string') return next();
  const asked = scope.split(' ').filter(Boolean);
  const known = asked.filter((s) => ALL_SCOPES.includes(s));
  if (known.length !== asked.length) {
    const query: Record<string, string | string[] | undefined> = { ...ctx.query };
    if (known.length > 0) query.scope = known.join(' ');
    else delete query.scope;
    ctx.query = query;
  }
  return next();
};
