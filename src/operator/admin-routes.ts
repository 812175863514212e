/**
 * The operator area `/admin` (issue 11, SPEC §5.4, DESIGN D10/D11): server-rendered pages for
 * signed-in owners and admins of a site, built on the same platform services as `/api/v1`.
 *
 * GET  /admin                           → the first site the person runs (403 page when none)
 * GET  /admin/:site                     overview: figures (analytics service) with charts + tables
 * GET  /admin/:site/settings            beta features; POST: `mcp_connections` = on|off
 * GET  /admin/:site/apps                Developers → OAuth applications (beta on; off: how to turn it on);
 *                                       POST: create → what its developer needs (client_id, secret once,
 *                                       discovery URL, `resource`, scopes, the guide)
 * GET  /admin/:site/apps/:client        edit form; POST: name, redirect URIs, scopes (a change of
 *                                       redirect URIs shows what changes and needs `confirm_redirects`)
 * POST /admin/:site/apps/:client/secret rotates a confidential client's secret (shown once)
 * GET  /admin/:site/apps/:client/delete confirmation page (how many members' sign-ins end)
 * POST /admin/:site/apps/:client/delete `confirm` = yes (a required checkbox): revokes every grant, deletes
 * GET  /admin/:site/connections         connected apps, a page at a time (`cursor`); POST …/revoke:
 *                                       `grant_id` or `client_id`
 * GET  /admin/:site/audit               audit trail; filters `kind`, `client`, `user`, `from`, `to`;
 *                                       a page at a time (`cursor`)
 * GET  /admin/:site/people              members, roles and invitations (admin-people.ts), paged
 *
 * Issue #29: no page reads a whole site. Lists show ADMIN_PAGE_SIZE rows (src/operator/pages.ts)
 * read by the keyset page functions of the `/api/v1` operations, with a "Next page" link carrying
 * their opaque cursor (a cursor the list refuses answers 400); counts are aggregates in SQL.
 *
 * Access: anonymous → /signin; no owner/admin role at `:site` → 403 (an admin of site A never sees
 * site B). Every POST checks the session's CSRF token.
 *
 * Issue #27: `/admin` is the third adapter over the operations layer (src/operations/runner.ts),
 * beside `/api/v1` and the MCP operator tools. Each form handler names its operation, maps the form
 * fields to that operation's input (validated by the same zod schemas), runs it as the session's
 * operator (audit surface `admin`) and shows the result, or the refusal on the same page with the
 * form kept. No rule, composition or audit text is written here.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Accounts, SiteMembership } from '../platform/accounts.js';
import { isOperator } from '../platform/accounts.js';
import { AUDIT_KINDS, usageDays, type AuditKind } from '../platform/audit.js';
import type { AnalyticsAdmin } from '../platform/operator/analytics.js';
import { MEMBER_CLIENT_SCOPES } from '../domain/applications.js';
import { OPERATOR_SCOPE_DESCRIPTIONS } from '../domain/scopes.js';
import type { AdminServices } from '../operations/operation.js';
import { AccessDenied, InvalidRequest, NotFound } from '../errors/catalogue.js';
import type { WebSession, WebSessions } from './session.js';
import { KEY_BOUND_BADGE, checkCsrf, requireSession, sendPage } from './web-routes.js';
import { parseForm as form, formBody } from '../http/body.js';
import { button, count, e, header, notice, page, table, when, type NavLink } from './views.js';
import { barChart, stackedDailyChart } from './charts.js';
import { mountPeople } from './admin-people.js';
import { act, checkInput, fieldList, type Outcome } from './act.js';
import { ADMIN_PAGE_SIZE, BAD_CURSOR, pageCursor, pager, readPage } from './pages.js';

export interface AdminDeps {
  accounts: Accounts;
  sessions: WebSessions;
  /** Operator analytics (overview charts), built by the composition root (src/compose.ts). */
  analytics: AnalyticsAdmin;
  /**
   * The services of the admin operations. Pages read lists from them; every change runs through
   * the operations runner (`act`, src/operator/act.ts), never through a service directly.
   */
  services: AdminServices;
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

/** How the audit page names the surface of an operator action. */
const SURFACES = { api: '/api/v1', mcp: 'MCP tool', admin: 'Admin area' } as const;

/**
 * The `[at, id]` of the last event of an audit page, from its "Next page" cursor (base64url JSON,
 * the same shape as `GET /api/v1/audit-events`' `nextCursor`).
 * @throws InvalidRequest (400) when the cursor is not one of the audit trail
 */
function auditCursor(cursor: string): { at: string; id: string } {
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && typeof key[1] === 'string')
      return { at: key[0], id: key[1] };
  } catch {
    // falls through to the error below
  }
  throw new InvalidRequest(BAD_CURSOR);
}

/** Days shown by the overview's usage chart (issue 11). */
const USAGE_DAYS = 14;

export function adminRouter(deps: AdminDeps): Router {
  const { accounts, sessions } = deps;
  const router = new Router({ prefix: '/admin' });
  const { analytics, services } = deps;

  /** Sites where the person holds an operator role. */
  const operatorSites = async (userId: string) =>
    (await accounts.membershipsOf(userId)).filter((m) => isOperator(m.roles));

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
      // Always listed (issue #30 item 8): with the beta off, the page says how to turn it on.
      { href: `${base}/apps`, label: 'Developers' },
      { href: `${base}/connections`, label: 'Connected apps' },
      { href: `${base}/audit`, label: 'Audit trail' },
      { href: `${base}/people`, label: 'People' },
    ].map((l) => ({ ...l, current: l.label === section }));
    sendPage(
      ctx,
      page({
        title: `${title} · ${op.site.name}`,
        header: header({
          email: op.email,
          csrf: op.csrf,
          sites: op.sites.map((m) => ({ id: m.site.id, name: m.site.name, current: m.site.id === op.site.id })),
        }),
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
    if (sites.length === 0)
      throw new AccessDenied('The admin area is for owners and admins of a site; you have neither role anywhere.');
    ctx.redirect(`/admin/${sites[0]!.site.id}`);
  });

  router.get('/:site', async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    // Issue #29: every figure is an aggregate in SQL (analytics, grants per client), never the rows.
    const [s, grantsByClient] = await Promise.all([
      analytics.summary(op.site.id),
      services.connections.countsByClient(op.site.id),
    ]);
    const byClient = new Map<string, number>();
    for (const c of grantsByClient) byClient.set(c.clientName, (byClient.get(c.clientName) ?? 0) + c.grants);
    const enrollments: Array<[string, number]> = [
      ['Active', s.enrollments.active],
      ['Expired', s.enrollments.expired],
      ['Lifetime', s.enrollments.lifetime],
    ];
    const members = Object.entries(s.members.byRole).sort();
    const revenue = s.revenue.map((r) => [r.currency, r.paidMinor / 100] as [string, number]);
    // MCP/API usage by client over time: token issuances + refreshes per client per UTC day (audit trail).
    const usage = (await services.audit.tokenUsage(op.site.id, USAGE_DAYS)).map((r) => ({
      day: r.day,
      series: r.clientId,
      count: r.count,
    }));
    render(
      ctx,
      op,
      'Overview',
      'Overview',
      `<p class="lead">Figures as of ${e(when(s.asOf))}: ${count(s.members.total, 'member')}, ${count(s.courses.total, 'course')}, ${count(s.activeLearners30d, 'active learner')} in the last 30 days.</p>
${barChart('Enrollments', 'Enrollments by state', enrollments)}
${barChart('Members', 'Members by role', members)}
${barChart('Revenue', 'Paid revenue by currency (major units)', revenue)}
${barChart('Apps', 'Connected apps (grants) by application', [...byClient])}
${stackedDailyChart('Usage', `MCP/API usage by client: tokens issued and refreshed per day, last ${USAGE_DAYS} days`, usageDays(USAGE_DAYS), usage)}`,
    );
  });

  const settingsPage = (ctx: Context, op: Operator, extra = '', status = 200) => {
    const on = op.site.mcpConnectionsEnabled;
    render(
      ctx,
      op,
      'Site settings',
      'Site settings',
      `${extra}
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
      status,
    );
  };

  router.get('/:site/settings', async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    settingsPage(ctx, op, ctx.query.saved === '1' ? notice('Saved.') : '');
  });

  // Operation `updateSite`.
  router.post('/:site/settings', form, async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    checkCsrf(sessions, op.session, ctx);
    const value = formBody(ctx).mcp_connections;
    const done = await act(
      services,
      op,
      'updateSite',
      { body: { mcpConnectionsEnabled: value === 'on' ? true : value === 'off' ? false : value } },
      { mcpConnectionsEnabled: 'MCP connections' },
    );
    if (!done.ok) return settingsPage(ctx, op, notice(`Not saved: ${done.message}`, 'alert'), done.status);
    back(ctx, `/admin/${op.site.id}/settings?saved=1`);
  });

  /** The fields of an application form, as the operations read them (`createOAuthApplication`, `updateOAuthApplication`). */
  const applicationFields = (body: Record<string, unknown>) => ({
    clientName: typeof body.client_name === 'string' ? body.client_name : '',
    redirectUris: String(body.redirect_uris ?? '')
      .split(/\s+/)
      .filter(Boolean),
    scopes: fieldList(body.scopes),
  });
  /** Field names people read, for refusals of the application forms. */
  const APPLICATION_LABELS = {
    clientName: 'Name',
    redirectUris: 'Redirect URIs',
    scopes: 'Scopes',
    confidential: 'Confidential',
    dpopRequired: 'Require DPoP',
  };
  /**
   * The scope checkboxes of an application form, each described to the operator (what it lets the
   * app do, `OPERATOR_SCOPE_DESCRIPTIONS`), not in the member's voice of the consent page.
   */
  const scopeChoices = (picked: ReadonlySet<string>): string =>
    MEMBER_CLIENT_SCOPES.map(
      (s) =>
        `<label class="choice"><input type="checkbox" name="scopes" value="${e(s)}"${picked.has(s) ? ' checked' : ''}> <code>${e(s)}</code> ${e(OPERATOR_SCOPE_DESCRIPTIONS[s] ?? '')}</label>`,
    ).join('\n');
  /** The switch of DESIGN D15 on an application form (RFC 9449 §5.2 `dpop_bound_access_tokens`). */
  const dpopChoice = (checked: boolean): string =>
    `<label class="choice"><input type="checkbox" name="dpop_required" value="on"${checked ? ' checked' : ''}> Require DPoP: every token request must prove possession of the app's key (RFC 9449), so a copied token is useless elsewhere. Only for apps whose developer supports DPoP.</label>`;
  /** What an application form shows: the stored application, or what was just submitted. */
  interface AppForm {
    clientName: string;
    redirectUris: string[];
    scopes: string[];
    confidential?: boolean;
    dpopRequired?: boolean;
  }

  const appsPage = async (ctx: Context, op: Operator, extra = '', status = 200, kept?: AppForm) => {
    const apps = await services.memberClients.list(op.site.id);
    const rows = apps.map((a) => [
      `<strong>${e(a.clientName)}</strong>`,
      `<code>${e(a.clientId)}</code>`,
      a.redirectUris.map((u) => `<code>${e(u)}</code>`).join('<br>'),
      `<code>${e(a.scope)}</code>`,
      `${a.confidential ? 'Confidential' : 'Public'}${a.dpopRequired ? ' · DPoP required' : ''}`,
      e(when(a.createdAt)),
      [
        `<a href="/admin/${e(op.site.id)}/apps/${encodeURIComponent(a.clientId)}" aria-label="Edit ${e(a.clientName)}">Edit</a>`,
        a.confidential
          ? button(
              `/admin/${op.site.id}/apps/${encodeURIComponent(a.clientId)}/secret`,
              op.csrf,
              'Rotate secret',
              {},
              true,
            )
          : '',
        `<a href="/admin/${e(op.site.id)}/apps/${encodeURIComponent(a.clientId)}/delete" aria-label="Delete ${e(a.clientName)}">Delete…</a>`,
      ].join(' '),
    ]);
    const scopes = scopeChoices(new Set(kept?.scopes ?? ['openid', 'account:read']));
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
<label for="client_name">Name</label><input id="client_name" name="client_name" type="text" required maxlength="120" value="${e(kept?.clientName ?? '')}">
<label for="redirect_uris">Redirect URIs (one per line: https://… or http://127.0.0.1/…)</label>
<textarea id="redirect_uris" name="redirect_uris" rows="3" required>${e((kept?.redirectUris ?? []).join('\n'))}</textarea>
<fieldset><legend>Scopes</legend>${scopes}</fieldset>
<label class="choice"><input type="checkbox" name="confidential" value="on"${kept?.confidential ? ' checked' : ''}> Confidential: the application runs on a server and keeps a secret (shown once). Leave unchecked for an app on a computer or phone (public, PKCE only).</label>
${dpopChoice(kept?.dpopRequired ?? false)}
<button type="submit">Create application</button>
</form>`,
      status,
    );
  };

  /**
   * Developers while the "MCP connections" beta is off: what it is, where to turn it on, and the
   * site's applications, each shown as suspended (they are not gone: they work again once it is on).
   */
  const betaOffPage = async (ctx: Context, op: Operator) => {
    const apps = await services.memberClients.list(op.site.id);
    const rows = apps.map((a) => [
      `<strong>${e(a.clientName)}</strong> <span class="badge">suspended</span>`,
      `<code>${e(a.clientId)}</code>`,
      a.redirectUris.map((u) => `<code>${e(u)}</code>`).join('<br>'),
      `<code>${e(a.scope)}</code>`,
      a.confidential ? 'Confidential' : 'Public',
      e(when(a.createdAt)),
    ]);
    render(
      ctx,
      op,
      'Developers',
      'OAuth applications',
      `<p class="lead">Here you create the applications members of this site connect to their account (a study helper, an AI assistant through MCP), each with its own client_id.</p>
<p class="notice" role="status">This needs the <strong>MCP connections</strong> beta feature, which is off at this site. <a href="/admin/${e(op.site.id)}/settings">Turn it on in Site settings</a>.${apps.length > 0 ? ` Until then the ${apps.length === 1 ? 'application below is' : `${count(apps.length, 'application')} below are`} <strong>suspended</strong>: sign-ins refused, tokens refused.` : ''}</p>
${apps.length > 0 ? table('Applications of this site (suspended)', ['Name', 'client_id', 'Redirect URIs', 'Scopes', 'Type', 'Created'], rows, '') : ''}`,
    );
  };

  router.get('/:site/apps', async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    if (!op.site.mcpConnectionsEnabled) return await betaOffPage(ctx, op);
    await appsPage(
      ctx,
      op,
      ctx.query.deleted === '1'
        ? notice('Application deleted; its grants and tokens were revoked.')
        : ctx.query.updated === '1'
          ? notice('Application saved.')
          : '',
    );
  });

  // Operation `createOAuthApplication`.
  router.post('/:site/apps', form, async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    checkCsrf(sessions, op.session, ctx);
    const body = formBody(ctx);
    const fields = { ...applicationFields(body), confidential: body.confidential === 'on' };
    if (body.dpop_required === 'on') Object.assign(fields, { dpopRequired: true });
    const done: Outcome<{ clientId: string; clientName: string; clientSecret?: string }> = await act(
      services,
      op,
      'createOAuthApplication',
      { body: fields },
      APPLICATION_LABELS,
    );
    if (!done.ok) return appsPage(ctx, op, notice(`Not created: ${done.message}`, 'alert'), done.status, fields);
    createdPage(ctx, op, done.result, fields);
  });

  /**
   * What the developer of a new member client needs, on the page answering its creation (issue #30
   * item 8): client_id, the secret (confidential; shown only here), the discovery URL (RFC 8414),
   * the redirect URIs, the `resource` every authorization and token request must carry (RFC 8707,
   * SPEC §2.3: member clients are refused without it), the scopes and the client developer guide.
   */
  const createdPage = (
    ctx: Context,
    op: Operator,
    app: { clientId: string; clientName: string; clientSecret?: string },
    fields: AppForm,
  ) => {
    const discovery = `${deps.baseUrl}/.well-known/oauth-authorization-server`;
    const secret = app.clientSecret
      ? `<dt>Client secret (shown only now: copy it; rotate it from the list if it is lost)</dt><dd><output class="secret" id="new-client-secret">${e(app.clientSecret)}</output><br><small>Sent at the token endpoint as <code>client_secret_post</code>, with PKCE as well.</small></dd>`
      : `<dt>Client type</dt><dd>Public: no secret; every authorization uses PKCE (S256).</dd>`;
    render(
      ctx,
      op,
      'Developers',
      `Created ${app.clientName}`,
      `<p class="notice" role="status">Created <strong>${e(app.clientName)}</strong>. Give its developer what follows.</p>
<h2>What its developer needs</h2>
<dl class="facts">
<dt>client_id</dt><dd><output class="secret" id="new-client-id">${e(app.clientId)}</output></dd>
${secret}
<dt>Discovery URL (authorization server metadata)</dt><dd><code id="discovery-url">${e(discovery)}</code></dd>
<dt>Redirect URIs</dt><dd>${fields.redirectUris.map((u) => `<code>${e(u)}</code>`).join('<br>')}</dd>
<dt>Resource</dt><dd>Every authorization request and token request must send <code id="resource">resource=${e(deps.baseUrl)}</code>; without it the server refuses them (<code>invalid_target</code>).</dd>
<dt>Scopes it may ask for</dt><dd><ul class="plain">${fields.scopes.map((s) => `<li><code>${e(s)}</code> ${e(OPERATOR_SCOPE_DESCRIPTIONS[s] ?? '')}</li>`).join('')}</ul></dd>
</dl>
<p>Step by step, with examples: <a href="/docs/client-developer-guide.md">the client developer guide</a>.</p>
<p><a href="/admin/${e(op.site.id)}/apps">Back to OAuth applications</a></p>`,
      201,
    );
  };

  /** The application of `:client` at the operator's site, or 404. */
  const ownApp = async (op: Operator, clientId: string) => {
    const app = (await services.memberClients.list(op.site.id)).find((a) => a.clientId === clientId);
    if (!app) throw new NotFound('No such application at this site.');
    return app;
  };
  const editPage = (
    ctx: Context,
    op: Operator,
    app: Awaited<ReturnType<typeof ownApp>>,
    extra = '',
    status = 200,
    kept?: AppForm,
  ) => {
    const scopes = scopeChoices(new Set(kept?.scopes ?? app.scope.split(' ')));
    render(
      ctx,
      op,
      'Developers',
      `Edit ${app.clientName}`,
      `${extra}
<p>client_id <code>${e(app.clientId)}</code> · ${app.confidential ? 'Confidential (its secret stays; rotate it from the list)' : 'Public (PKCE only)'}</p>
<form method="post" action="/admin/${e(op.site.id)}/apps/${encodeURIComponent(app.clientId)}">
<input type="hidden" name="csrf" value="${e(op.csrf)}">
<label for="client_name">Name</label><input id="client_name" name="client_name" type="text" required maxlength="120" value="${e(kept?.clientName ?? app.clientName)}">
<label for="redirect_uris">Redirect URIs (one per line: https://… or http://127.0.0.1/…)</label>
<textarea id="redirect_uris" name="redirect_uris" rows="3" required>${e((kept?.redirectUris ?? app.redirectUris).join('\n'))}</textarea>
<fieldset><legend>Scopes</legend>${scopes}</fieldset>
${dpopChoice(kept?.dpopRequired ?? app.dpopRequired)}
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

  /**
   * The confirmation of a change of redirect URIs (where members' authorization codes go): the
   * URIs removed and added, and a form posting the same fields again with a required checkbox
   * (`confirm_redirects` = yes); works without JavaScript.
   */
  const redirectChangePage = (ctx: Context, op: Operator, app: Awaited<ReturnType<typeof ownApp>>, fields: AppForm) => {
    const removed = app.redirectUris.filter((u) => !fields.redirectUris.includes(u));
    const added = fields.redirectUris.filter((u) => !app.redirectUris.includes(u));
    const list = (uris: string[]) =>
      uris.length
        ? `<ul class="plain">${uris.map((u) => `<li><code>${e(u)}</code></li>`).join('')}</ul>`
        : '<p>None.</p>';
    render(
      ctx,
      op,
      'Developers',
      `Change where ${app.clientName} sends sign-ins?`,
      `<p class="lead">Members who sign in to <strong>${e(app.clientName)}</strong> are sent back, with their authorization code, to one of its redirect URIs. After this change codes can go to the added addresses and no longer to the removed ones.</p>
<h2>Removed</h2>${list(removed)}
<h2>Added</h2>${list(added)}
<form method="post" action="/admin/${e(op.site.id)}/apps/${encodeURIComponent(app.clientId)}">
<input type="hidden" name="csrf" value="${e(op.csrf)}">
<input type="hidden" name="client_name" value="${e(fields.clientName)}">
<input type="hidden" name="redirect_uris" value="${e(fields.redirectUris.join(' '))}">
${fields.scopes.map((sc) => `<input type="hidden" name="scopes" value="${e(sc)}">`).join('\n')}
<label class="choice"><input type="checkbox" name="confirm_redirects" value="yes" required> Send members' sign-ins of ${e(app.clientName)} to these redirect URIs</label>
<button type="submit">Save</button> <a href="/admin/${e(op.site.id)}/apps/${encodeURIComponent(app.clientId)}">Cancel</a>
</form>`,
    );
  };

  // Operation `updateOAuthApplication`; a change of redirect URIs once confirmed.
  router.post('/:site/apps/:client', form, async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    checkCsrf(sessions, op.session, ctx);
    const app = await ownApp(op, ctx.params.client!);
    const body = formBody(ctx);
    const fields = { ...applicationFields(body), dpopRequired: body.dpop_required === 'on' };
    const same = (a: string[], b: string[]) => a.length === b.length && a.every((u) => b.includes(u));
    if (!same(fields.redirectUris, app.redirectUris) && body.confirm_redirects !== 'yes') {
      const checked = checkInput(
        'updateOAuthApplication',
        { params: { clientId: app.clientId }, body: fields },
        APPLICATION_LABELS,
      );
      if (!checked.ok)
        return editPage(ctx, op, app, notice(`Not saved: ${checked.message}`, 'alert'), checked.status, fields);
      return redirectChangePage(ctx, op, app, fields);
    }
    const done = await act(
      services,
      op,
      'updateOAuthApplication',
      { params: { clientId: app.clientId }, body: fields },
      APPLICATION_LABELS,
    );
    if (!done.ok) return editPage(ctx, op, app, notice(`Not saved: ${done.message}`, 'alert'), done.status, fields);
    back(ctx, `/admin/${op.site.id}/apps?updated=1`);
  });

  // Operation `rotateOAuthApplicationSecret`.
  router.post('/:site/apps/:client/secret', form, async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    checkCsrf(sessions, op.session, ctx);
    const app = await ownApp(op, ctx.params.client!);
    const done: Outcome<{ clientSecret: string }> = await act(services, op, 'rotateOAuthApplicationSecret', {
      params: { clientId: app.clientId },
    });
    if (!done.ok) return appsPage(ctx, op, notice(`Not rotated: ${done.message}`, 'alert'), done.status);
    await appsPage(
      ctx,
      op,
      `<p class="notice" role="status">New secret of <strong>${e(app.clientName)}</strong>, shown only now (the old one no longer works): <output class="secret" id="new-client-secret">${e(done.result.clientSecret)}</output></p>`,
    );
  });

  /**
   * The confirmation of a deletion (issue #30 item 8): names how many members' sign-ins end, and
   * the form needs a ticked checkbox (`confirm` = yes) saying so; works without JavaScript.
   */
  const deletePage = async (
    ctx: Context,
    op: Operator,
    app: Awaited<ReturnType<typeof ownApp>>,
    extra = '',
    status = 200,
  ) => {
    // Issue #29: counted in SQL, however many grants the application has.
    const { members } = await services.connections.countOfClient(op.site.id, app.clientId);
    const whose = members === 1 ? "its 1 member's sign-in ends" : `its ${members} members' sign-ins end`;
    render(
      ctx,
      op,
      'Developers',
      `Delete ${app.clientName}?`,
      `${extra}
<p class="lead"><strong>${e(app.clientName)}</strong> (<code>${e(app.clientId)}</code>) is deleted: every grant and token of it is revoked at once, so ${e(whose)}, and the application can no longer sign anyone in. This cannot be undone.</p>
<form method="post" action="/admin/${e(op.site.id)}/apps/${encodeURIComponent(app.clientId)}/delete">
<input type="hidden" name="csrf" value="${e(op.csrf)}">
<label class="choice"><input type="checkbox" name="confirm" value="yes" required> Delete ${e(app.clientName)}: ${e(whose)}</label>
<button type="submit">Delete application</button> <a href="/admin/${e(op.site.id)}/apps">Cancel</a>
</form>`,
      status,
    );
  };

  router.get('/:site/apps/:client/delete', async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    await deletePage(ctx, op, await ownApp(op, ctx.params.client!));
  });

  // Operation `deleteOAuthApplication` (it revokes every grant, then deletes), once confirmed.
  router.post('/:site/apps/:client/delete', form, async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    checkCsrf(sessions, op.session, ctx);
    if (formBody(ctx).confirm !== 'yes') {
      const app = await ownApp(op, ctx.params.client!);
      return deletePage(ctx, op, app, notice('Not deleted: tick the box to confirm.', 'alert'), 400);
    }
    const done = await act(services, op, 'deleteOAuthApplication', { params: { clientId: ctx.params.client! } });
    if (!done.ok) return appsPage(ctx, op, notice(`Not deleted: ${done.message}`, 'alert'), done.status);
    back(ctx, `/admin/${op.site.id}/apps?deleted=1`);
  });

  router.get('/:site/connections', async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    const suspended = new Set(
      op.site.mcpConnectionsEnabled ? [] : (await services.memberClients.list(op.site.id)).map((a) => a.clientId),
    );
    const cursor = pageCursor(ctx);
    const list = await readPage(() => services.connections.pageOfSite(op.site.id, { limit: ADMIN_PAGE_SIZE, cursor }));
    const rows = list.items.map((c) => [
      `<strong>${e(c.clientName)}</strong>${suspended.has(c.clientId) ? ' <span class="badge">suspended</span>' : ''}${c.dpopJkt ? ` ${KEY_BOUND_BADGE}` : ''}<br><small><code>${e(c.clientId)}</code></small>`,
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
      `${ctx.query.revoked ? notice(`${Number(ctx.query.revoked)} grant(s) revoked; their tokens no longer work.`) : typeof ctx.query.error === 'string' ? notice(`Not revoked: ${ctx.query.error.slice(0, 200)}`, 'alert') : ''}
${table(cursor ? 'Grants at this site (continued)' : 'Grants at this site, newest first', ['Application', 'Kind', 'Member', 'Scopes', 'Allowed', 'Last used', 'Actions'], rows, cursor ? 'No more grants.' : 'No member has connected an application yet.')}
${pager(`/admin/${op.site.id}/connections`, {}, cursor, list.nextCursor)}`,
    );
  });

  // Operations `revokeConnectedGrant` (field `grant_id`) and `revokeClientGrants` (field `client_id`).
  router.post('/:site/connections/revoke', form, async (ctx) => {
    const op = await operator(ctx);
    if (!op) return;
    checkCsrf(sessions, op.session, ctx);
    const body = formBody(ctx);
    // For the notice only: how many grants the action ends (counted in SQL, issue #29; the
    // operation revokes every one of them, in bounded batches, src/oauth/connections.ts).
    const n =
      typeof body.grant_id === 'string'
        ? 1
        : typeof body.client_id === 'string' && body.client_id.length <= 200
          ? (await services.connections.countOfClient(op.site.id, body.client_id)).grants
          : 0;
    // Revoking every grant of an application is destructive (every member must authorize it
    // again): the button leads to a confirmation page whose form adds `confirm=yes`.
    if (typeof body.grant_id !== 'string' && typeof body.client_id === 'string' && body.confirm !== 'yes') {
      return render(
        ctx,
        op,
        'Connected apps',
        'Revoke this application for every member?',
        `<p class="lead">${n} grant(s) of <code>${e(body.client_id.slice(0, 200))}</code> at ${e(op.site.name)} end with their tokens; each member must authorize the application again.</p>
${button(`/admin/${op.site.id}/connections/revoke`, op.csrf, 'Revoke all of this app', { client_id: body.client_id, confirm: 'yes' })}
<p><a href="/admin/${e(op.site.id)}/connections">Cancel, keep them</a></p>`,
      );
    }
    const done =
      typeof body.grant_id === 'string'
        ? await act(services, op, 'revokeConnectedGrant', { params: { grantId: body.grant_id } })
        : await act(
            services,
            op,
            'revokeClientGrants',
            { params: { clientId: body.client_id } },
            { clientId: 'Application' },
          );
    if (!done.ok) {
      if (done.status === 404) throw new NotFound('No such grant at this site (it may have been revoked already).');
      return back(ctx, `/admin/${op.site.id}/connections?error=${encodeURIComponent(done.message)}`);
    }
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
    const cursor = pageCursor(ctx);
    const after = cursor === undefined ? undefined : auditCursor(cursor);
    // One row more than the page tells whether a next page follows (keyset on `(at, id)`, issue #29).
    const read = await services.audit.list(op.site.id, {
      kind,
      clientId: str(q.client) || undefined,
      userId,
      from: from ? `${from}T00:00:00.000Z` : undefined,
      to: to ? new Date(Date.parse(`${to}T00:00:00.000Z`) + 86_400_000).toISOString() : undefined,
      after,
      limit: ADMIN_PAGE_SIZE + 1,
    });
    const events = read.slice(0, ADMIN_PAGE_SIZE);
    const last = events[events.length - 1];
    const next =
      read.length > ADMIN_PAGE_SIZE && last
        ? Buffer.from(JSON.stringify([last.at, last.id]), 'utf8').toString('base64url')
        : null;
    const emails = await accounts.emailsOf(events.map((ev) => ev.userId ?? '-'));
    const rows = events.map((ev) => [
      // A refresh counter (DESIGN D10) shows its first and last time.
      e(ev.count > 1 ? `${when(ev.at)} – ${when(ev.lastAt)}` : when(ev.at)),
      e(AUDIT_KINDS[ev.kind] ?? ev.kind),
      e(String(ev.count)),
      ev.clientId ? `<code>${e(ev.clientId)}</code>` : '',
      e(ev.userId ? (emails.get(ev.userId) ?? ev.userId) : ''),
      ev.target ? `<code>${e(ev.target)}</code>` : '',
      e(ev.surface ? SURFACES[ev.surface] : ''),
      e(ev.detail),
    ]);
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
<p><small>Client ID finds the requests of that client and the operator actions on it, from every surface. Refreshes are counted, one row per grant and hour (Count). Kept ${services.audit.retentionDays} days. Tokens, codes and passwords are never recorded.</small></p>
${table(cursor ? 'Events, newest first (continued)' : 'Events, newest first', ['When', 'Kind', 'Count', 'Client', 'Member', 'Target', 'Through', 'Detail'], rows, cursor ? 'No more events.' : 'No event matches.')}
${pager(`/admin/${op.site.id}/audit`, { kind: kind ?? '', client: str(q.client), user, from, to }, cursor, next)}`,
    );
  });

  mountPeople(router, { sessions, services }, { operator, render, back });

  return router;
}
