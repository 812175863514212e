/**
 * The admin REST API, `/api/v1/*` (DESIGN.md §1, D4: "each route names its scope").
 *
 * Operators reach their own site (the token's `org_id`) with the operator scopes of SPEC §2.5.
 * Every route needs (1) a valid access token bound to BASE_URL, (2) the route's scope, else 403
 * `insufficient_scope`, and (3) an operator role (`owner`, `admin`) at the site *now* (a role
 * removed after the token was issued ends its admin access), else 403 `access_denied`.
 *
 * Site and applications (SPEC §5.4 member clients):
 *   GET    /api/v1/site                                  school:read
 *   PATCH  /api/v1/site                                  school:write   { name?, mcpConnectionsEnabled? }
 *   GET    /api/v1/oauth-applications                    school:read
 *   POST   /api/v1/oauth-applications                    school:write   { clientName, redirectUris, scopes }
 *   DELETE /api/v1/oauth-applications/:clientId          school:write
 */
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware } from 'koa';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import type { Accounts } from '../../platform/accounts.js';
import { OPERATOR_ROLES } from '../../platform/accounts.js';
import type { SiteSettings } from '../../platform/sites.js';
import { MEMBER_CLIENT_SCOPES, type MemberClients } from '../../oauth/member-clients.js';
import { HttpError } from '../../http/errors.js';
import { bearer, challenge, requireScopes, type Principal } from '../bearer.js';

export interface AdminApiDeps {
  provider: Provider;
  baseUrl: string;
  accounts: Accounts;
  siteSettings: SiteSettings;
  memberClients: MemberClients;
}

/** A route's scope requirement, also published in `/openapi.json`. */
export const ADMIN_ROUTES = [
  { method: 'get', path: '/api/v1/site', scope: 'school:read', summary: 'The site of the token (id, name, MCP connections beta)' },
  { method: 'patch', path: '/api/v1/site', scope: 'school:write', summary: 'Rename the site or switch the MCP connections beta' },
  { method: 'get', path: '/api/v1/oauth-applications', scope: 'school:read', summary: 'OAuth applications (member clients) of the site' },
  { method: 'post', path: '/api/v1/oauth-applications', scope: 'school:write', summary: 'Create a member client (needs the MCP connections beta)' },
  { method: 'delete', path: '/api/v1/oauth-applications/{clientId}', scope: 'school:write', summary: 'Delete a member client' },
] as const;

const sitePatch = z.object({ name: z.string().trim().min(1).max(120).optional(), mcpConnectionsEnabled: z.boolean().optional() }).strict();

const loopbackOrHttps = z
  .string()
  .url()
  .refine((u) => {
    const url = new URL(u);
    if (url.hash) return false;
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  }, 'redirect URIs must be https:// or http:// on a loopback address, without fragment');

const newApplication = z
  .object({
    clientName: z.string().trim().min(1).max(120),
    redirectUris: z.array(loopbackOrHttps).min(1).max(10),
    scopes: z
      .array(z.enum(MEMBER_CLIENT_SCOPES as [string, ...string[]]))
      .min(1)
      .refine((s) => s.includes('account:read'), 'a member client needs account:read'),
  })
  .strict();

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new HttpError(400, 'invalid_request', `${issue?.path.join('.') || 'body'}: ${issue?.message}`);
  }
  return result.data;
}

/** Builds the router. */
export function adminApiRouter(deps: AdminApiDeps): Router {
  const router = new Router({ prefix: '/api/v1' });
  const json = bodyParser({ enableTypes: ['json'], jsonLimit: '64kb', encoding: 'utf-8' });
  const authenticated = bearer(deps.provider, deps.baseUrl, deps.accounts);

  /** Scope check, then the live operator-role check (DESIGN D2). */
  const operator =
    (scope: string): Middleware =>
    async (ctx, next) => {
      const principal = ctx.state.principal as Principal;
      requireScopes(deps.baseUrl, principal, [scope]);
      const roles = await deps.accounts.rolesAt(principal.userId, principal.siteId);
      if (!roles.some((r) => OPERATOR_ROLES.has(r))) {
        throw challenge(deps.baseUrl, 403, 'access_denied', 'the admin API needs an owner or admin role at the site', scope);
      }
      await next();
    };

  const siteOf = async (ctx: Context) => {
    const site = await deps.accounts.findSite((ctx.state.principal as Principal).siteId);
    if (!site) throw new HttpError(404, 'not_found', 'the site of this token no longer exists');
    return site;
  };

  router.get('/site', authenticated, operator('school:read'), async (ctx) => {
    ctx.body = await siteOf(ctx);
  });

  router.patch('/site', authenticated, operator('school:write'), json, async (ctx) => {
    const patch = parse(sitePatch, ctx.request.body);
    ctx.body = await deps.siteSettings.update((ctx.state.principal as Principal).siteId, patch);
  });

  router.get('/oauth-applications', authenticated, operator('school:read'), async (ctx) => {
    const site = await siteOf(ctx);
    ctx.body = { applications: site.mcpConnectionsEnabled ? await deps.memberClients.list(site.id) : [], mcpConnectionsEnabled: site.mcpConnectionsEnabled };
  });

  router.post('/oauth-applications', authenticated, operator('school:write'), json, async (ctx) => {
    const site = await siteOf(ctx);
    if (!site.mcpConnectionsEnabled) {
      // SPEC §5.4: the OAuth applications area appears only after the beta is switched on.
      throw new HttpError(409, 'feature_disabled', 'enable the "MCP connections" beta feature first (PATCH /api/v1/site {"mcpConnectionsEnabled": true})');
    }
    const input = parse(newApplication, ctx.request.body);
    const principal = ctx.state.principal as Principal;
    const app = await deps.memberClients.create(site.id, { clientName: input.clientName, redirectUris: input.redirectUris, scope: input.scopes.join(' ') }, principal.userId);
    ctx.status = 201;
    ctx.set('Location', `/api/v1/oauth-applications/${encodeURIComponent(app.clientId)}`);
    ctx.body = app;
  });

  router.delete('/oauth-applications/:clientId', authenticated, operator('school:write'), async (ctx) => {
    const deleted = await deps.memberClients.delete((ctx.state.principal as Principal).siteId, ctx.params.clientId!);
    if (!deleted) throw new HttpError(404, 'not_found', 'no such application at this site');
    ctx.status = 204;
  });

  return router;
}
