/**
 * The operator area `/admin` (issue 11, SPEC §5.4, DESIGN D10/D11): server-rendered pages for
 * signed-in owners and admins of a site, built on the same platform services as `/api/v1`.
 *
 * GET  /admin                           → the first site the person runs (403 page when none)
 * GET  /admin/:site                     overview: figures (analytics service) with charts + tables
 * GET  /admin/:site/settings            beta features; POST: `mcp_connections` = on|off
 * GET  /admin/:site/apps                Developers → OAuth applications (beta on); POST: create
 * GET  /admin/:site/apps/:client        edit form; POST: name, redirect URIs, scopes
 * POST /admin/:site/apps/:client/secret rotates a confidential client's secret (shown once)
 * POST /admin/:site/apps/:client/delete deletes it after revoking every grant
 * GET  /admin/:site/connections         connected apps; POST …/revoke: `grant_id` or `client_id`
 * GET  /admin/:site/audit               audit trail; filters `kind`, `client`, `user`, `from`, `to`
 * GET  /admin/:site/people              members, roles and invitations (admin-people.ts)
 *
 * Access: anonymous → /signin; no owner/admin role at `:site` → 403 (an admin of site A never sees
 * site B). Every POST checks the session's CSRF token.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Accounts, SiteMembership } from '../platform/accounts.js';
import { isOperator } from '../platform/accounts.js';
import type { SiteSettings } from '../platform/sites.js';
import { AUDIT_KINDS, usageDays, type AuditKind, type AuditTrail } from '../platform/audit.js';
import type { AnalyticsAdmin } from '../platform/operator/analytics.js';
import type { MemberClients } from '../oauth/member-clients.js';
import { MEMBER_CLIENT_SCOPES } from '../domain/applications.js';
import type { Connections } from '../oauth/connections.js';
import { SCOPES } from '../domain/scopes.js';
import { z } from 'zod';
import { NEW_APPLICATION_BODY } from '../resource/admin-api/operations/site.js';
import { AccessDenied, Conflict, InvalidRequest, NotFound } from '../errors/catalogue.js';
import type { WebSession, WebSessions } from './session.js';
import { checkCsrf, requireSession, sendPage } from './web-routes.js';
import { parseForm as form, formBody } from '../http/body.js';
import { button, e, header, notice, page, table, when, type NavLink } from './views.js';
import { barChart, stackedDailyChart } from './charts.js';
import { mountPeople } from './admin-people.js';
import type { PeopleAdmin } from '../platform/operator/people.js';
import type { Invitations } from '../platform/invitations.js';

export interface AdminDeps {
  accounts: Accounts;
  sessions: WebSessions;
  /** Operator analytics (overview charts), built by the composition root (src/compose.ts). */
  analytics: AnalyticsAdmin;
  siteSettings: SiteSettings;
  memberClients: MemberClients;
  connections: Connections;
  audit: AuditTrail;
  /** Roles (DESIGN D5 hierarchy), the same service as /api/v1/members. */
  people: PeopleAdmin;
  invitations: Invitations;
  /** BASE_URL, for one-time links shown to the operator. */
  baseUrl: string;
}

/** The signed-in operator of the site a page is about. */
export interface Operator {
  session: WebSession;
  email: string;
  site: SiteMembership['site'];
  sites: SiteMembership[];
  csrf: string;
}

/** Days shown by the overview's usage chart (issue 11). */
const USAGE_DAYS = 14;

export function adminRouter(deps: AdminDeps): Router {
  const { accounts, sessions } = deps;
  const router = new Router({ prefix: '/admin' });
  const { analytics } = deps;
  const newApplication = z.object(NEW_APPLICATION_BODY).strict();

  /** Sites where the person holds an operator role. */
  const operatorSites = async (userId: string) => (await accounts.membershipsOf(userId)).filter((m) => isOperator(m.roles));

  /** Resolves the signed-in operator of `:site`, or answers (redirect / 403) and returns undefined. */
  async function operator(ctx: Context): Promise<Operator | undefined> {
    const session = await requireSession(sessions, ctx);
    if (!session) return undefined;
    const user = await accounts.findUser(session.userId);
    if (!user) {
      await sessions.end(ctx);
      ctx.redirect('/signin');
      return undefined;
    }
    const sites = await operatorSites(user.id);
    const mine = sites.find((m) => m.site.id === ctx.params.site);
    // The same answer for "no such site" and "not yours": nothing about other sites leaks.
    if (!mine) throw new AccessDenied('You need an owner or admin role at this site to open its admin area.');
    return { session, email: user.email, site: mine.site, sites, csrf: sessions.csrf(session.sid) };
  }

  function render(ctx: Context, op: Operator, section: string, title: string, body: string, status = 200) {
    const base = `/admin/${op.site.id}`;
    const menu: NavLink[] = [
      { href: base, label: 'Overview' },
      { href: `${base}/settings`, label: 'Site settings' },
      ...(op.site.mcpConnectionsEnabled ? [{ href: `${base}/apps`, label: 'Developers' }] : []),
      { href: `${base}/connections`, label: 'Connected apps' },
      { href: `${base}/audit`, label: 'Audit trail' },
      { href: `${base}/people`, label: 'People' },
    ].map((l) => ({ ...l, current: l.label === section }));
    sendPage(
      ctx,
      page({
        title: `${title} · ${op.site.name}`,
        header: header({ email: op.email, csrf: op.csrf, sites: op.sites.map((m) => ({ id: m.site.id, name: m.site.name, current: m.site.id === op.site.id })) }),
        menu,
        body: `<h1>${e(title)} <small>${e(op.site.name)}</small></h1>\n${body}`,
      }),
      status,
    );
  }
  const back = (ctx: Context, path: string) => {
    ctx.status = 303;
    ctx.redirect(path);
  };

  router.get('/', async (ctx) => {
    const session = await requireSession(sessions, ctx);
    if (!session) return;
    const sites = await operatorSites(session.userId);
    if (sites.length === 0) throw new AccessDenied('The admin area is for owners and admins of a site; you have neither role anywhere.');
    ctx.redirect(`/admin/${sites[0]!.site.id}`);
  });

  router.get('/:site', async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    const s = await analytics.summary(op.site.id);
    const connections = await deps.connections.ofSite(op.site.id);
    const byClient = new Map<string, number>();
    for (const c of connections) byClient.set(c.clientName, (byClient.get(c.clientName) ?? 0) + 1);
    const enrollments: Array<[string, number]> = [['Active', s.enrollments.active], ['Expired', s.enrollments.expired], ['Lifetime', s.enrollments.lifetime]];
    const members = Object.entries(s.members.byRole).sort();
    const revenue = s.revenue.map((r) => [r.currency, r.paidMinor / 100] as [string, number]);
    // MCP/API usage by client over time: token issuances + refreshes per client per UTC day (audit trail).
    const usage = (await deps.audit.tokenUsage(op.site.id, USAGE_DAYS)).map((r) => ({ day: r.day, series: r.clientId, count: r.count }));
    render(
      ctx,
      op,
      'Overview',
      'Overview',
      `<p class="lead">Figures as of ${e(when(s.asOf))}: ${s.members.total} members, ${s.courses.total} courses, ${s.activeLearners30d} active learners in the last 30 days.</p>
${barChart('Enrollments', 'Enrollments by state', enrollments)}
${barChart('Members', 'Members by role', members)}
${barChart('Revenue', 'Paid revenue by currency (major units)', revenue)}
${barChart('Apps', 'Connected apps (grants) by application', [...byClient])}
${stackedDailyChart('Usage', `MCP/API usage by client: tokens issued and refreshed per day, last ${USAGE_DAYS} days`, usageDays(USAGE_DAYS), usage)}`,
    );
  });

  router.get('/:site/settings', async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    const on = op.site.mcpConnectionsEnabled;
    render(
      ctx,
      op,
      'Site settings',
      'Site settings',
      `${ctx.query.saved === '1' ? notice('Saved.') : ''}
<h2>Beta features</h2>
<form method="post" action="/admin/${e(op.site.id)}/settings">
<input type="hidden" name="csrf" value="${e(op.csrf)}">
<fieldset><legend>MCP connections</legend>
<p>Lets members connect applications made for this site (Developers → OAuth applications). Off: those applications are <strong>suspended</strong>: sign-ins refused, their tokens refused, until you switch it on again.</p>
<label class="choice"><input type="radio" name="mcp_connections" value="on"${on ? ' checked' : ''}> On</label>
<label class="choice"><input type="radio" name="mcp_connections" value="off"${on ? '' : ' checked'}> Off</label>
</fieldset>
<button type="submit">Save</button>
</form>`,
    );
  });

  router.post('/:site/settings', form, async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    checkCsrf(sessions, op.session, ctx);
    const value = formBody(ctx).mcp_connections;
    if (value !== 'on' && value !== 'off') throw new InvalidRequest('Choose On or Off.');
    await deps.siteSettings.update(op.site.id, { mcpConnectionsEnabled: value === 'on' });
    await deps.audit.record({ kind: 'operator_action', siteId: op.site.id, userId: op.session.userId, detail: `MCP connections switched ${value} (admin area)` });
    back(ctx, `/admin/${op.site.id}/settings?saved=1`);
  });

  const appsPage = async (ctx: Context, op: Operator, extra = '', status = 200) => {
    const apps = await deps.memberClients.list(op.site.id);
    const rows = apps.map((a) => [
      `<strong>${e(a.clientName)}</strong>`,
      `<code>${e(a.clientId)}</code>`,
      a.redirectUris.map((u) => `<code>${e(u)}</code>`).join('<br>'),
      `<code>${e(a.scope)}</code>`,
      a.confidential ? 'Confidential' : 'Public',
      e(when(a.createdAt)),
      [
        `<a href="/admin/${e(op.site.id)}/apps/${encodeURIComponent(a.clientId)}" aria-label="Edit ${e(a.clientName)}">Edit</a>`,
        a.confidential ? button(`/admin/${op.site.id}/apps/${encodeURIComponent(a.clientId)}/secret`, op.csrf, 'Rotate secret', {}, true) : '',
        button(`/admin/${op.site.id}/apps/${encodeURIComponent(a.clientId)}/delete`, op.csrf, 'Delete', {}, true),
      ].join(' '),
    ]);
    const scopes = MEMBER_CLIENT_SCOPES.map(
      (s) => `<label class="choice"><input type="checkbox" name="scopes" value="${e(s)}"${s === 'openid' || s === 'account:read' ? ' checked' : ''}> <code>${e(s)}</code> ${e(SCOPES[s])}</label>`,
    ).join('\n');
    render(
      ctx,
      op,
      'Developers',
      'OAuth applications',
      `${extra}
${table('Applications of this site', ['Name', 'client_id', 'Redirect URIs', 'Scopes', 'Type', 'Created', 'Actions'], rows, 'No application yet.')}
<h2>New application</h2>
<form method="post" action="/admin/${e(op.site.id)}/apps">
<input type="hidden" name="csrf" value="${e(op.csrf)}">
<label for="client_name">Name</label><input id="client_name" name="client_name" type="text" required maxlength="120">
<label for="redirect_uris">Redirect URIs (one per line: https://… or http://127.0.0.1/…)</label>
<textarea id="redirect_uris" name="redirect_uris" rows="3" required></textarea>
<fieldset><legend>Scopes</legend>${scopes}</fieldset>
<label class="choice"><input type="checkbox" name="confidential" value="on"> Confidential: the application runs on a server and keeps a secret (shown once). Leave unchecked for an app on a computer or phone (public, PKCE only).</label>
<button type="submit">Create application</button>
</form>`,
      status,
    );
  };

  router.get('/:site/apps', async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    if (!op.site.mcpConnectionsEnabled) throw new NotFound('Developers appears once the "MCP connections" beta feature is on (Site settings).');
    await appsPage(ctx, op, ctx.query.deleted === '1' ? notice('Application deleted; its grants and tokens were revoked.') : ctx.query.updated === '1' ? notice('Application saved.') : '');
  });

  router.post('/:site/apps', form, async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    checkCsrf(sessions, op.session, ctx);
    if (!op.site.mcpConnectionsEnabled) throw new Conflict('Switch the "MCP connections" beta feature on first (Site settings).', 'feature_disabled');
    const body = formBody(ctx);
    const scopes = Array.isArray(body.scopes) ? body.scopes : body.scopes === undefined ? [] : [body.scopes];
    const parsed = newApplication.safeParse({
      clientName: typeof body.client_name === 'string' ? body.client_name : '',
      redirectUris: String(body.redirect_uris ?? '').split(/\s+/).filter(Boolean),
      scopes,
      confidential: body.confidential === 'on',
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return appsPage(ctx, op, notice(`Not created: ${issue?.path.join('.') || 'form'}: ${issue?.message}`, 'alert'), 400);
    }
    const app = await deps.memberClients.create(op.site.id, { clientName: parsed.data.clientName, redirectUris: parsed.data.redirectUris, scope: parsed.data.scopes.join(' '), confidential: parsed.data.confidential }, op.session.userId);
    await deps.audit.record({ kind: 'operator_action', siteId: op.site.id, clientId: app.clientId, userId: op.session.userId, detail: `OAuth application created: ${app.clientName}` });
    const secret = app.clientSecret ? ` Its secret, shown only now: <output class="secret" id="new-client-secret">${e(app.clientSecret)}</output>` : '';
    await appsPage(ctx, op, `<p class="notice" role="status">Created <strong>${e(app.clientName)}</strong>. Its client_id: <output class="secret" id="new-client-id">${e(app.clientId)}</output>${secret}</p>`, 201);
  });

  /** The application of `:client` at the operator's site, or 404. */
  const ownApp = async (op: Operator, clientId: string) => {
    const app = (await deps.memberClients.list(op.site.id)).find((a) => a.clientId === clientId);
    if (!app) throw new NotFound('No such application at this site.');
    return app;
  };
  const editPage = (ctx: Context, op: Operator, app: Awaited<ReturnType<typeof ownApp>>, extra = '', status = 200) => {
    const picked = new Set(app.scope.split(' '));
    const scopes = MEMBER_CLIENT_SCOPES.map((s) => `<label class="choice"><input type="checkbox" name="scopes" value="${e(s)}"${picked.has(s) ? ' checked' : ''}> <code>${e(s)}</code> ${e(SCOPES[s])}</label>`).join('\n');
    render(
      ctx,
      op,
      'Developers',
      `Edit ${app.clientName}`,
      `${extra}
<p>client_id <code>${e(app.clientId)}</code> · ${app.confidential ? 'Confidential (its secret stays; rotate it from the list)' : 'Public (PKCE only)'}</p>
<form method="post" action="/admin/${e(op.site.id)}/apps/${encodeURIComponent(app.clientId)}">
<input type="hidden" name="csrf" value="${e(op.csrf)}">
<label for="client_name">Name</label><input id="client_name" name="client_name" type="text" required maxlength="120" value="${e(app.clientName)}">
<label for="redirect_uris">Redirect URIs (one per line: https://… or http://127.0.0.1/…)</label>
<textarea id="redirect_uris" name="redirect_uris" rows="3" required>${e(app.redirectUris.join('\n'))}</textarea>
<fieldset><legend>Scopes</legend>${scopes}</fieldset>
<button type="submit">Save</button>
</form>
<p><a href="/admin/${e(op.site.id)}/apps">Back to OAuth applications</a></p>`,
      status,
    );
  };

  router.get('/:site/apps/:client', async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    editPage(ctx, op, await ownApp(op, ctx.params.client!));
  });

  router.post('/:site/apps/:client', form, async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    checkCsrf(sessions, op.session, ctx);
    const app = await ownApp(op, ctx.params.client!);
    const body = formBody(ctx);
    const parsed = newApplication.safeParse({
      clientName: typeof body.client_name === 'string' ? body.client_name : '',
      redirectUris: String(body.redirect_uris ?? '').split(/\s+/).filter(Boolean),
      scopes: Array.isArray(body.scopes) ? body.scopes : body.scopes === undefined ? [] : [body.scopes],
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return editPage(ctx, op, app, notice(`Not saved: ${issue?.path.join('.') || 'form'}: ${issue?.message}`, 'alert'), 400);
    }
    await deps.memberClients.update(op.site.id, app.clientId, { clientName: parsed.data.clientName, redirectUris: parsed.data.redirectUris, scope: parsed.data.scopes.join(' ') });
    await deps.audit.record({ kind: 'operator_action', siteId: op.site.id, clientId: app.clientId, userId: op.session.userId, detail: 'OAuth application edited (admin area)' });
    back(ctx, `/admin/${op.site.id}/apps?updated=1`);
  });

  router.post('/:site/apps/:client/secret', form, async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    checkCsrf(sessions, op.session, ctx);
    const app = await ownApp(op, ctx.params.client!);
    if (!app.confidential) throw new Conflict('This application is public (PKCE only): it has no secret to rotate.', 'public_client');
    const { clientSecret } = await deps.memberClients.rotateSecret(op.site.id, app.clientId);
    await deps.audit.record({ kind: 'operator_action', siteId: op.site.id, clientId: app.clientId, userId: op.session.userId, detail: 'OAuth application secret rotated (admin area)' });
    await appsPage(ctx, op, `<p class="notice" role="status">New secret of <strong>${e(app.clientName)}</strong>, shown only now (the old one no longer works): <output class="secret" id="new-client-secret">${e(clientSecret)}</output></p>`);
  });

  router.post('/:site/apps/:client/delete', form, async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    checkCsrf(sessions, op.session, ctx);
    const clientId = ctx.params.client!;
    if (!(await deps.memberClients.list(op.site.id)).some((a) => a.clientId === clientId)) throw new NotFound('No such application at this site.');
    await deps.connections.revoke({ siteId: op.site.id }, { clientId }, { userId: op.session.userId });
    await deps.memberClients.delete(op.site.id, clientId);
    await deps.audit.record({ kind: 'operator_action', siteId: op.site.id, clientId, userId: op.session.userId, detail: 'OAuth application deleted (every grant revoked)' });
    back(ctx, `/admin/${op.site.id}/apps?deleted=1`);
  });

  router.get('/:site/connections', async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    const suspended = new Set(op.site.mcpConnectionsEnabled ? [] : (await deps.memberClients.list(op.site.id)).map((a) => a.clientId));
    const list = await deps.connections.ofSite(op.site.id);
    const rows = list.map((c) => [
      `<strong>${e(c.clientName)}</strong>${suspended.has(c.clientId) ? ' <span class="badge">suspended</span>' : ''}<br><small><code>${e(c.clientId)}</code></small>`,
      e(c.kindLabel),
      e(c.userEmail),
      `<code>${e(c.scope)}</code>`,
      e(when(c.createdAt)),
      e(when(c.lastUsedAt)),
      `${button(`/admin/${op.site.id}/connections/revoke`, op.csrf, 'Revoke', { grant_id: c.grantId }, true)} ${button(`/admin/${op.site.id}/connections/revoke`, op.csrf, 'Revoke all of this app', { client_id: c.clientId }, true)}`,
    ]);
    render(
      ctx,
      op,
      'Connected apps',
      'Connected apps',
      `${ctx.query.revoked ? notice(`${Number(ctx.query.revoked)} grant(s) revoked; their tokens no longer work.`) : ''}
${table('Grants at this site', ['Application', 'Kind', 'Member', 'Scopes', 'Allowed', 'Last used', 'Actions'], rows, 'No member has connected an application yet.')}`,
    );
  });

  router.post('/:site/connections/revoke', form, async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    checkCsrf(sessions, op.session, ctx);
    const body = formBody(ctx);
    const which = { grantId: typeof body.grant_id === 'string' ? body.grant_id : undefined, clientId: typeof body.client_id === 'string' ? body.client_id : undefined };
    const n = await deps.connections.revoke({ siteId: op.site.id }, which, { userId: op.session.userId });
    if (n === 0) throw new NotFound('No such grant at this site (it may have been revoked already).');
    back(ctx, `/admin/${op.site.id}/connections?revoked=${n}`);
  });

  router.get('/:site/audit', async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    const q = ctx.query;
    const str = (v: unknown) => (typeof v === 'string' && v.length <= 200 ? v.trim() : '');
    const kind = str(q.kind) in AUDIT_KINDS ? (str(q.kind) as AuditKind) : undefined;
    const day = (v: string) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? v : '');
    const from = day(str(q.from));
    const to = day(str(q.to));
    const user = str(q.user);
    const userId = user ? ((await accounts.userIdByEmail(user)) ?? '-') : undefined;
    const events = await deps.audit.list(op.site.id, {
      kind,
      clientId: str(q.client) || undefined,
      userId,
      from: from ? `${from}T00:00:00.000Z` : undefined,
      to: to ? new Date(Date.parse(`${to}T00:00:00.000Z`) + 86_400_000).toISOString() : undefined,
    });
    const emails = await accounts.emailsOf(events.map((ev) => ev.userId ?? '-'));
    const rows = events.map((ev) => [e(when(ev.at)), e(AUDIT_KINDS[ev.kind] ?? ev.kind), ev.clientId ? `<code>${e(ev.clientId)}</code>` : '', e(ev.userId ? emails.get(ev.userId) ?? ev.userId : ''), e(ev.detail)]);
    const options = Object.entries(AUDIT_KINDS)
      .map(([k, label]) => `<option value="${e(k)}"${k === kind ? ' selected' : ''}>${e(label)}</option>`)
      .join('');
    render(
      ctx,
      op,
      'Audit trail',
      'Audit trail',
      `<form method="get" action="/admin/${e(op.site.id)}/audit" class="filters">
<label for="kind">Kind</label><select id="kind" name="kind"><option value="">All kinds</option>${options}</select>
<label for="client">Client ID</label><input id="client" name="client" type="text" value="${e(str(q.client))}">
<label for="user">Member e-mail</label><input id="user" name="user" type="text" value="${e(user)}">
<label for="from">From (day)</label><input id="from" name="from" type="date" value="${e(from)}">
<label for="to">To (day, inclusive)</label><input id="to" name="to" type="date" value="${e(to)}">
<button type="submit">Filter</button>
</form>
<p><small>Kept ${deps.audit.retentionDays} days. Tokens, codes and passwords are never recorded.</small></p>
${table('Events, newest first', ['When', 'Kind', 'Client', 'Member', 'Detail'], rows, 'No event matches.')}`,
    );
  });

  mountPeople(router, { sessions, people: deps.people, invitations: deps.invitations, audit: deps.audit, baseUrl: deps.baseUrl }, { operator, render, back });

  return router;
}
