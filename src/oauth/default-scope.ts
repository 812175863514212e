/**
 * DESIGN D3 (minimal, issue 5): an authorization request without `scope` gets the client's
 * default scope set, its registered `scope` reduced to identity and read scopes, instead of
 * `access_denied`. SPEC §4.2 marks `scope` required, but real clients and the MCP conformance
 * suite's `authorization-code-grant` scenario send none.
 *
 * A Koa middleware in front of oidc-provider's authorization endpoint (GET only; the query is
 * rewritten before the engine reads it). Clients without a registered `scope` are left alone.
 * NOTE for the merge: the registration work (DESIGN D1/D3) may implement the same rule inside the
 * provider; keep one of the two.
 */
import type { Middleware } from 'koa';
import type Provider from 'oidc-provider';
import { IDENTITY_SCOPES, isReadScope, parseScope } from './scopes.js';
import { ROUTES } from './provider.js';

/** The default scope of a registered `scope` value: identity and `…:read` scopes only. */
export function defaultScopeOf(registered: string | undefined): string {
  return [...parseScope(registered)].filter((s) => IDENTITY_SCOPES.has(s) || isReadScope(s)).join(' ');
}

/** The middleware; mount it before oidc-provider. */
export function defaultScope(provider: Provider): Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === ROUTES.authorization && ctx.query.scope === undefined && typeof ctx.query.client_id === 'string') {
      const client = await provider.Client.find(ctx.query.client_id).catch(() => undefined);
      const scope = defaultScopeOf(client?.scope);
      if (scope) {
        const params = new URLSearchParams(ctx.querystring);
        params.set('scope', scope);
        ctx.querystring = params.toString();
      }
    }
    await next();
  };
}
