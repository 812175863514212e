/**
 * Site and OAuth applications (SPEC §2.5 `school:read|write`, §5.4 member clients; DESIGN §3:
 * `PATCH /api/v1/site {"mcpConnectionsEnabled": true|false}` switches the "MCP connections" beta).
 */
import { z } from 'zod';
import { MEMBER_CLIENT_SCOPES } from '../../../oauth/member-clients.js';
import { PlatformError, notFound } from '../../../platform/errors.js';
import { defineOperation, READ } from '../operation.js';

const site = z.object({ id: z.string(), name: z.string(), mcpConnectionsEnabled: z.boolean() });

const loopbackOrHttps = z
  .string()
  .url()
  .refine((u) => {
    const url = new URL(u);
    if (url.hash) return false;
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  }, 'redirect URIs must be https:// or http:// on a loopback address, without fragment');

const application = z.object({
  clientId: z.string(),
  clientName: z.string(),
  redirectUris: z.array(z.string()),
  scope: z.string(),
  createdAt: z.string(),
});

export const getSite = defineOperation({
  id: 'getSite',
  method: 'get',
  path: '/api/v1/site',
  scope: 'school:read',
  tag: 'school',
  summary: 'The site of the token (id, name, MCP connections beta)',
  response: site,
  mcp: { name: 'get_site', title: 'Your site', annotations: READ },
  async run(_input, ctx) {
    const found = await ctx.services.accounts.findSite(ctx.siteId);
    if (!found) throw notFound('site', ctx.siteId);
    return found;
  },
});

export const updateSite = defineOperation({
  id: 'updateSite',
  method: 'patch',
  path: '/api/v1/site',
  scope: 'school:write',
  tag: 'school',
  summary: 'Rename the site or switch the MCP connections beta',
  body: { name: z.string().trim().min(1).max(120).optional(), mcpConnectionsEnabled: z.boolean().optional() },
  response: site,
  ifMatch: 'getSite',
  async run({ body }, ctx) {
    const updated = await ctx.services.siteSettings.update(ctx.siteId, body);
    if (!updated) throw notFound('site', ctx.siteId);
    return updated;
  },
});

export const listApplications = defineOperation({
  id: 'listOAuthApplications',
  method: 'get',
  path: '/api/v1/oauth-applications',
  scope: 'school:read',
  tag: 'school',
  summary: 'OAuth applications (member clients) of the site',
  response: z.object({ applications: z.array(application), mcpConnectionsEnabled: z.boolean() }),
  async run(_input, ctx) {
    const found = await ctx.services.accounts.findSite(ctx.siteId);
    if (!found) throw notFound('site', ctx.siteId);
    return { applications: found.mcpConnectionsEnabled ? await ctx.services.memberClients.list(ctx.siteId) : [], mcpConnectionsEnabled: found.mcpConnectionsEnabled };
  },
});

export const createApplication = defineOperation({
  id: 'createOAuthApplication',
  method: 'post',
  path: '/api/v1/oauth-applications',
  scope: 'school:write',
  tag: 'school',
  summary: 'Create a member client (needs the MCP connections beta)',
  body: {
    clientName: z.string().trim().min(1).max(120),
    redirectUris: z.array(loopbackOrHttps).min(1).max(10),
    scopes: z
      .array(z.enum(MEMBER_CLIENT_SCOPES as [string, ...string[]]))
      .min(1)
      .refine((s) => s.includes('account:read'), 'a member client needs account:read'),
  },
  response: application,
  status: 201,
  location: (app) => `/api/v1/oauth-applications/${encodeURIComponent(app.clientId)}`,
  async run({ body }, ctx) {
    const found = await ctx.services.accounts.findSite(ctx.siteId);
    if (!found) throw notFound('site', ctx.siteId);
    if (!found.mcpConnectionsEnabled) {
      // SPEC §5.4: the OAuth applications area appears only after the beta is switched on.
      throw new PlatformError('conflict', 'enable the "MCP connections" beta feature first (PATCH /api/v1/site {"mcpConnectionsEnabled": true})', { reason: 'feature_disabled' });
    }
    return ctx.services.memberClients.create(ctx.siteId, { clientName: body.clientName, redirectUris: body.redirectUris, scope: body.scopes.join(' ') }, ctx.userId);
  },
});

export const getApplication = defineOperation({
  id: 'getOAuthApplication',
  method: 'get',
  path: '/api/v1/oauth-applications/{clientId}',
  scope: 'school:read',
  tag: 'school',
  summary: 'One member client of the site',
  params: { clientId: z.string().min(1).max(200) },
  response: application,
  async run({ params }, ctx) {
    const app = (await ctx.services.memberClients.list(ctx.siteId)).find((a) => a.clientId === params.clientId);
    if (!app) throw notFound('application', params.clientId);
    return app;
  },
});

export const deleteApplication = defineOperation({
  id: 'deleteOAuthApplication',
  method: 'delete',
  path: '/api/v1/oauth-applications/{clientId}',
  scope: 'school:write',
  tag: 'school',
  summary: 'Delete a member client (its grants and tokens end)',
  params: { clientId: z.string().min(1).max(200) },
  status: 204,
  async run({ params }, ctx) {
    if (!(await ctx.services.memberClients.delete(ctx.siteId, params.clientId))) throw notFound('application', params.clientId);
  },
});
