/**
 * People in the operator area (issue 11; DESIGN D5 role hierarchy): members and their roles,
 * invitations shown and managed. The same platform services as `/api/v1/members` and
 * `/api/v1/invitations` run every change (PeopleAdmin, Invitations), so the rules are written once:
 * only an owner grants, removes or invites `owner`; nobody gives themselves a role; the last owner
 * keeps the role. Plain forms (no JavaScript), each POST CSRF-checked.
 *
 * GET  /admin/:site/people                          members, roles, invitations, forms
 * POST /admin/:site/people/roles                    `email`, `role`, `change` = grant|revoke
 * POST /admin/:site/invitations                     `email`, `role` → the one-time link, shown once
 * POST /admin/:site/invitations/:id/withdraw        a pending invitation stops working
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { PeopleAdmin } from '../platform/operator/people.js';
import { ROLES } from '../platform/operator/people.js';
import { INVITABLE_ROLES, type Invitations } from '../platform/invitations.js';
import type { AuditTrail } from '../platform/audit.js';
import { PlatformError } from '../platform/errors.js';
import { DOMAIN_STATUS } from '../errors/catalogue.js';
import type { WebSessions } from './session.js';
import type { Operator } from './admin-routes.js';
import { checkCsrf } from './web-routes.js';
import { parseForm as form, formBody } from '../http/body.js';
import { button, e, notice, table, when } from './views.js';

/** What the people pages need from the admin router. */
export interface PeopleDeps {
  sessions: WebSessions;
  people: PeopleAdmin;
  invitations: Invitations;
  audit: AuditTrail;
  /** BASE_URL, for the invitation link. */
  baseUrl: string;
}

/** The admin router's helpers (admin-routes.ts). */
export interface PeopleHelpers {
  operator(ctx: Context): Promise<Operator | undefined>;
  render(ctx: Context, op: Operator, section: string, title: string, body: string, status?: number): void;
  back(ctx: Context, path: string): void;
}


const str = (v: unknown): string => (typeof v === 'string' && v.length <= 254 ? v.trim() : '');
const options = (values: readonly string[]) => values.map((r) => `<option value="${e(r)}">${e(r)}</option>`).join('');

/** Adds the people routes to the `/admin` router. */
export function mountPeople(router: Router, deps: PeopleDeps, h: PeopleHelpers): void {
  async function peoplePage(ctx: Context, op: Operator, extra = '', status = 200) {
    const siteId = op.site.id;
    const members = await deps.people.members(siteId);
    const memberRows = members.map((m) => [
      e(m.name),
      e(m.email),
      e(m.roles.join(', ')),
      m.roles.map((role) => button(`/admin/${siteId}/people/roles`, op.csrf, `Remove ${role}`, { email: m.email, role, change: 'revoke' }, true)).join(' '),
    ]);
    const invitations = await deps.invitations.list(siteId);
    const invitationRows = invitations.map((i) => [
      e(i.email),
      e(i.role),
      e(i.status),
      e(when(i.createdAt)),
      e(when(i.expiresAt)),
      i.status === 'pending' ? button(`/admin/${siteId}/invitations/${encodeURIComponent(i.id)}/withdraw`, op.csrf, 'Withdraw', {}, true) : '',
    ]);
    h.render(
      ctx,
      op,
      'People',
      'People',
      `${extra}
${table('Members and their roles', ['Name', 'E-mail', 'Roles', 'Actions'], memberRows, 'No member.')}
<h2>Give a member another role</h2>
<p><small>Only an owner gives or removes the owner role; nobody gives themselves a role. To add someone new, invite them.</small></p>
<form method="post" action="/admin/${e(siteId)}/people/roles">
<input type="hidden" name="csrf" value="${e(op.csrf)}"><input type="hidden" name="change" value="grant">
<label for="role_email">E-mail of the member</label><input id="role_email" name="email" type="email" required maxlength="254">
<label for="role_role">Role</label><select id="role_role" name="role">${options(ROLES)}</select>
<button type="submit">Give role</button>
</form>
${table('Invitations', ['E-mail', 'Role', 'Status', 'Created', 'Expires', 'Action'], invitationRows, 'No invitation yet.')}
<h2>Invite someone</h2>
<form method="post" action="/admin/${e(siteId)}/invitations">
<input type="hidden" name="csrf" value="${e(op.csrf)}">
<label for="invite_email">E-mail</label><input id="invite_email" name="email" type="email" required maxlength="254">
<label for="invite_role">Role</label><select id="invite_role" name="role">${options(INVITABLE_ROLES)}</select>
<button type="submit">Create invitation</button>
</form>`,
      status,
    );
  }

  /** Runs a change; a platform refusal is shown on the people page with its status. */
  async function attempt(ctx: Context, op: Operator, change: () => Promise<void>): Promise<boolean> {
    try {
      await change();
      return true;
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      await peoplePage(ctx, op, notice(`Not done: ${err.message}`, 'alert'), DOMAIN_STATUS[err.code] ?? 400);
      return false;
    }
  }

  router.get('/:site/people', async (ctx) => {
    const op = await h.operator(ctx);
    if (!op) return;
    const done = { granted: 'Role given.', revoked: 'Role removed.', withdrawn: 'Invitation withdrawn; its link no longer works.' }[String(ctx.query.done)];
    await peoplePage(ctx, op, done ? notice(done) : '');
  });

  router.post('/:site/people/roles', form, async (ctx) => {
    const op = await h.operator(ctx);
    if (!op) return;
    checkCsrf(deps.sessions, op.session, ctx);
    const body = formBody(ctx);
    const email = str(body.email);
    const role = str(body.role);
    const change = body.change === 'revoke' ? 'revoke' : 'grant';
    const ok = await attempt(ctx, op, async () => {
      if (change === 'grant') await deps.people.grantRole(op.site.id, email, role, op.session.userId);
      else await deps.people.revokeRole(op.site.id, email, role, op.session.userId);
    });
    if (!ok) return;
    await deps.audit.record({ kind: 'operator_action', siteId: op.site.id, userId: op.session.userId, detail: `role ${role} ${change === 'grant' ? 'given to' : 'removed from'} ${email} (admin area)` });
    h.back(ctx, `/admin/${op.site.id}/people?done=${change === 'grant' ? 'granted' : 'revoked'}`);
  });

  router.post('/:site/invitations', form, async (ctx) => {
    const op = await h.operator(ctx);
    if (!op) return;
    checkCsrf(deps.sessions, op.session, ctx);
    const body = formBody(ctx);
    const email = str(body.email);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return peoplePage(ctx, op, notice('Not invited: email: enter an e-mail address.', 'alert'), 400);
    let link = '';
    const ok = await attempt(ctx, op, async () => {
      const { invitation, token } = await deps.invitations.create(op.site.id, { email, role: str(body.role), invitedBy: op.session.userId });
      link = `${deps.baseUrl}/invitations/${token}`;
      await deps.audit.record({ kind: 'operator_action', siteId: op.site.id, userId: op.session.userId, detail: `invitation created for ${invitation.email} as ${invitation.role} (admin area)` });
    });
    if (!ok) return;
    // The one-time link is shown once, here, to the operator who made it (never stored in clear).
    await peoplePage(
      ctx,
      op,
      `<p class="notice" role="status">Invitation created. Give this one-time link (valid 7 days) to ${e(email)}: <output class="secret" id="invitation-link">${e(link)}</output></p>`,
      201,
    );
  });

  router.post('/:site/invitations/:id/withdraw', form, async (ctx) => {
    const op = await h.operator(ctx);
    if (!op) return;
    checkCsrf(deps.sessions, op.session, ctx);
    const id = ctx.params.id!;
    const ok = await attempt(ctx, op, () => deps.invitations.revoke(op.site.id, id));
    if (!ok) return;
    await deps.audit.record({ kind: 'operator_action', siteId: op.site.id, userId: op.session.userId, detail: 'invitation withdrawn (admin area)' });
    h.back(ctx, `/admin/${op.site.id}/people?done=withdrawn`);
  });
}
