/**
 * Site and OAuth applications (SPEC §2.5 `school:read|write`, §5.4 member clients; DESIGN §3:
 * `PATCH /api/v1/site {"mcpConnectionsEnabled": true|false}` switches the "MCP connections" beta).
 */
import { z } from 'zod';
import { MEMBER_CLIENT_SCOPES } from '../domain/applications.js';
import { PlatformError, notFound } from '../platform/errors.js';
import { auditTarget } from '../platform/audit.js';
import { isLoopbackRedirectUri } from '../http/loopback.js';
import { defineOperation, READ, WRITE_IDEMPOTENT, DESTRUCTIVE } from './operation.js';

const site = z.object({ id: z.string(), name: z.string(), mcpConnectionsEnabled: z.boolean() });

const loopbackOrHttps = z
  .string()
  .url()
  .refine((u) => {
    const url = new URL(u);
    return url.protocol === 'https:' ? !url.hash : isLoopbackRedirectUri(u);
  }, 'redirect URIs must be https:// or http:// on a loopback address, without fragment');

const application = z.object({
  clientId: z.string(),
  clientName: z.string(),
  redirectUris: z.array(z.string()),
  scope: z.string(),
  createdAt: z.string(),
  confidential: z
    .boolean()
    .describe('true: authenticates at the token endpoint with its secret (client_secret_post); PKCE either way.'),
  dpopRequired: z
    .boolean()
    .describe(
      'true: every token request must carry a DPoP proof (RFC 9449), so its tokens are bound to its key; a request without one gets invalid_dpop_proof.',
    ),
});
const withSecret = application.extend({
  clientSecret: z.string().optional().describe("A confidential client's secret: shown only in this answer."),
});
const appClientId = z.string().min(1).max(200);
/** Audit target of an action on an OAuth application (filtering the trail by its client id finds it). */
const appTarget = (clientId: unknown): string => auditTarget('application', String(clientId ?? ''));

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
  target: (_input, result) => auditTarget('site', result?.id ?? ''),
  mcp: {
    name: 'update_site',
    title: 'Rename the site or switch MCP connections',
    annotations: WRITE_IDEMPOTENT,
    output: { site },
    present: (s) => ({ site: s }),
  },
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
  // SPEC §5.4 / DESIGN §3: with the beta off the applications are suspended, still listed as such.
  response: z.object({
    applications: z.array(application.extend({ suspended: z.boolean() })),
    mcpConnectionsEnabled: z.boolean(),
  }),
  async run(_input, ctx) {
    const found = await ctx.services.accounts.findSite(ctx.siteId);
    if (!found) throw notFound('site', ctx.siteId);
    const applications = (await ctx.services.memberClients.list(ctx.siteId)).map((a) => ({
      ...a,
      suspended: !found.mcpConnectionsEnabled,
    }));
    return { applications, mcpConnectionsEnabled: found.mcpConnectionsEnabled };
  },
});

/** Fields of a new member client (SPEC §5.4); the operator pages (src/operator/admin-routes.ts) parse the same. */
export const NEW_APPLICATION_BODY = {
  clientName: z.string().trim().min(1).max(120),
  redirectUris: z.array(loopbackOrHttps).min(1).max(10),
  scopes: z
    .array(z.enum(MEMBER_CLIENT_SCOPES as [string, ...string[]]))
    .min(1)
    .refine((s) => s.includes('account:read'), 'a member client needs account:read'),
  confidential: z
    .boolean()
    .optional()
    .describe('true: the client gets a secret, shown once (default false: public, PKCE only).'),
  dpopRequired: z
    .boolean()
    .optional()
    .describe(
      'true: its token requests must carry a DPoP proof (RFC 9449), binding its tokens to its key (default false).',
    ),
};

export const createApplication = defineOperation({
  id: 'createOAuthApplication',
  method: 'post',
  path: '/api/v1/oauth-applications',
  scope: 'school:write',
  tag: 'school',
  summary: 'Create a member client (needs the MCP connections beta)',
  body: NEW_APPLICATION_BODY,
  response: withSecret,
  status: 201,
  location: (app) => `/api/v1/oauth-applications/${encodeURIComponent(app.clientId)}`,
  // Not an MCP tool: its answer carries a confidential client's secret, which has no place in a model's context.
  target: (_input, app) => appTarget(app?.clientId),
  async run({ body }, ctx) {
    const found = await ctx.services.accounts.findSite(ctx.siteId);
    if (!found) throw notFound('site', ctx.siteId);
    if (!found.mcpConnectionsEnabled) {
      // SPEC §5.4: the OAuth applications area appears only after the beta is switched on.
      throw new PlatformError(
        'conflict',
        'enable the "MCP connections" beta feature first (PATCH /api/v1/site {"mcpConnectionsEnabled": true})',
        { reason: 'feature_disabled' },
      );
    }
    return ctx.services.memberClients.create(
      ctx.siteId,
      {
        clientName: body.clientName,
        redirectUris: body.redirectUris,
        scope: body.scopes.join(' '),
        confidential: body.confidential,
        dpopRequired: body.dpopRequired,
      },
      ctx.userId,
    );
  },
});

export const getApplication = defineOperation({
  id: 'getOAuthApplication',
  method: 'get',
  path: '/api/v1/oauth-applications/{clientId}',
  scope: 'school:read',
  tag: 'school',
  summary: 'One member client of the site',
  params: { clientId: appClientId },
  response: application,
  async run({ params }, ctx) {
    return ctx.services.memberClients.get(ctx.siteId, params.clientId);
  },
});

export const updateApplication = defineOperation({
  id: 'updateOAuthApplication',
  method: 'patch',
  path: '/api/v1/oauth-applications/{clientId}',
  scope: 'school:write',
  tag: 'school',
  summary: 'Rename a member client, change its redirect URIs or its scopes (its secret stays)',
  params: { clientId: appClientId },
  body: {
    clientName: NEW_APPLICATION_BODY.clientName.optional(),
    redirectUris: NEW_APPLICATION_BODY.redirectUris.optional(),
    scopes: NEW_APPLICATION_BODY.scopes.optional(),
    dpopRequired: NEW_APPLICATION_BODY.dpopRequired,
  },
  response: application,
  ifMatch: 'getOAuthApplication',
  target: ({ params }) => appTarget(params.clientId),
  mcp: {
    name: 'update_oauth_application',
    title: 'Change an OAuth application',
    description:
      'Rename a member client or change its scopes (its secret stays). Its redirect URIs, where members’ authorization codes go, are not changed here: an operator changes them through the admin API or the admin area, which shows what changes.',
    annotations: WRITE_IDEMPOTENT,
    output: { application },
    present: (a) => ({ application: a }),
    // Redirect URIs decide where members' codes go: only surfaces that show the operator the
    // change (the admin API's explicit body, /admin's confirmation) may make it, not a model.
    withheld: {
      redirectUris:
        'not accepted by this tool: redirect URIs change only through PATCH /api/v1/oauth-applications/{clientId} or the admin area (Developers, OAuth applications), which show what changes',
    },
  },
  async run({ params, body }, ctx) {
    return ctx.services.memberClients.update(ctx.siteId, params.clientId, {
      clientName: body.clientName,
      redirectUris: body.redirectUris,
      scope: body.scopes?.join(' '),
      dpopRequired: body.dpopRequired,
    });
  },
});

export const rotateApplicationSecret = defineOperation({
  id: 'rotateOAuthApplicationSecret',
  method: 'post',
  path: '/api/v1/oauth-applications/{clientId}/secret',
  scope: 'school:write',
  tag: 'school',
  summary: 'Give a confidential member client a new secret (the old one stops working at once)',
  description: 'Answers the new secret, shown only here. 409 public_client for a public (PKCE-only) client.',
  params: { clientId: appClientId },
  response: z.object({ clientId: z.string(), clientSecret: z.string() }),
  // Not an MCP tool: the new secret has no place in a model's context.
  target: ({ params }) => appTarget(params.clientId),
  async run({ params }, ctx) {
    const { clientSecret } = await ctx.services.memberClients.rotateSecret(ctx.siteId, params.clientId);
    return { clientId: params.clientId, clientSecret };
  },
});

export const deleteApplication = defineOperation({
  id: 'deleteOAuthApplication',
  method: 'delete',
  path: '/api/v1/oauth-applications/{clientId}',
  scope: 'school:write',
  tag: 'school',
  summary: 'Delete a member client (its grants and tokens end)',
  description:
    'Revokes every grant members gave the application at your site (their access and refresh tokens are refused at once on every surface), then deletes it. 404 when it is not an application of your site.',
  params: { clientId: appClientId },
  status: 204,
  target: ({ params }) => appTarget(params.clientId),
  mcp: {
    name: 'delete_oauth_application',
    title: 'Delete an OAuth application',
    annotations: DESTRUCTIVE,
    output: { deleted: z.string() },
    present: (_r, args) => ({ deleted: args.clientId }),
  },
  // Issue #25 finding 10 / #27: one implementation on every surface (/api/v1, MCP, /admin): the
  // application must be this site's; its grants (and their tokens) end first, then it is deleted.
  async run({ params }, ctx) {
    await ctx.services.memberClients.get(ctx.siteId, params.clientId);
    await ctx.services.connections.revoke(
      { siteId: ctx.siteId },
      { clientId: params.clientId },
      { userId: ctx.userId },
    );
    if (!(await ctx.services.memberClients.delete(ctx.siteId, params.clientId)))
      throw notFound('application', params.clientId);
  },
});
