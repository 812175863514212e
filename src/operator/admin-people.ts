/**
 * People in the operator area (issue 11; DESIGN D5 role hierarchy): members and their roles,
 * invitations shown and managed. Every change runs the admin operation of `/api/v1/members` and
 * `/api/v1/invitations` through the operations runner (`act`, issue #27: `grantMemberRole`,
 * `revokeMemberRole`, `createInvitation`, `revokeInvitation`), so the rules are written once:
 * only an owner grants, removes or invites `owner`; nobody gives themselves a role; the last owner
 * keeps the role. Plain forms (no JavaScript), each POST CSRF-checked.
 *
 * GET  /admin/:site/people                          members, roles, invitations, forms; each list a page of
 *                                                   ADMIN_PAGE_SIZE (`cursor` for members, `invitations_cursor`)
 * POST /admin/:site/people/roles                    `email`, `role`, `change` = grant|revoke
 * POST /admin/:site/invitations                     `email`, `role` → the one-time link, shown once
 * POST /admin/:site/invitations/:id/withdraw        a pending invitation stops working
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AdminServices } from '../operations/operation.js';
import { ROLES } from '../operations/people.js';
import { INVITABLE_ROLES } from '../operations/invitations.js';
import type { WebSessions } from './session.js';
import type { Operator } from './admin-routes.js';
import { checkCsrf } from './web-routes.js';
import { parseForm as form, formBody } from '../http/body.js';
import { button, e, notice, table, when } from './views.js';
import { act } from './act.js';
import { ADMIN_PAGE_SIZE, pageCursor, pager, readPage } from './pages.js';

/** What the people pages need from the admin router. */
export interface PeopleDeps {
  sessions: WebSessions;
  /** Lists are read from these; changes run through `act`. */
  services: AdminServices;
}

/** The admin router's helpers (admin-routes.ts). */
export interface PeopleHelpers {
  operator(ctx: Context): Promise<Operator | undefined>;
  render(ctx: Context, op: Operator, section: string, title: string, body: string, status?: number): void;
  back(ctx: Context, path: string): void;
}

const str = (v: unknown): string => (typeof v === 'string' && v.length <= 254 ? v.trim() : '');
/**
 * The `<option>`s of a role picker (issue #30 item 8): `picked` (a refused form's value) or else the
 * least privilege, `student`, is selected; roles are listed as given.
 */
const options = (values: readonly string[], picked = '') => {
  const chosen = values.includes(picked) ? picked : 'student';
  return values.map((r) => `<option value="${e(r)}"${r === chosen ? ' selected' : ''}>${e(r)}</option>`).join('');
};

/**
 * The roles the acting operator may give, take away or invite (DESIGN D5): every role for an
 * owner, every role but `owner` for an admin. The operations enforce the same rule
 * (`grantMemberRole`, `createInvitation`); the pages only stop offering what would be refused.
 */
export function assignableRoles(operatorRoles: readonly string[], roles: readonly string[]): string[] {
  return operatorRoles.includes('owner') ? [...roles] : roles.filter((r) => r !== 'owner');
}

/** What the forms of the page show again after a refusal. */
interface Kept {
  roleEmail?: string;
  role?: string;
  inviteEmail?: string;
  inviteRole?: string;
}

/** Adds the people routes to the `/admin` router. */
export function mountPeople(router: Router, deps: PeopleDeps, h: PeopleHelpers): void {
  async function peoplePage(ctx: Context, op: Operator, extra = '', status = 200, kept: Kept = {}) {
    const siteId = op.site.id;
    const mine = op.sites.find((m) => m.site.id === siteId)?.roles ?? [];
    // Issue #29: a page of members (keyset in SQL, the `/api/v1/members` read), never the whole site.
    const cursor = pageCursor(ctx);
    const invitationsCursor = pageCursor(ctx, 'invitations_cursor');
    const people = deps.services.operator.people;
    const [page, ownerPage, invitationPage] = await Promise.all([
      readPage(() => people.membersPage(siteId, { limit: ADMIN_PAGE_SIZE, cursor })),
      // Whether the site has more than one owner: two rows at most.
      people.membersPage(siteId, { limit: 2, role: 'owner' }),
      readPage(() => deps.services.invitations.page(siteId, { limit: ADMIN_PAGE_SIZE, cursor: invitationsCursor })),
    ]);
    const members = page.items;
    const owners = ownerPage.items.length;
    /** Removal offered only where it can succeed: a role this operator manages, never the last owner's. */
    const removable = (role: string) => assignableRoles(mine, [role]).length > 0 && !(role === 'owner' && owners <= 1);
    const memberRows = members.map((m) => [
      e(m.name),
      e(m.email),
      e(m.roles.join(', ')),
      m.roles
        .filter(removable)
        .map((role) =>
          button(
            `/admin/${siteId}/people/roles`,
            op.csrf,
            `Remove ${role}`,
            { email: m.email, role, change: 'revoke' },
            true,
          ),
        )
        .join(' '),
    ]);
    const invitationRows = invitationPage.items.map((i) => [
      e(i.email),
      e(i.role),
      e(i.status),
      e(when(i.createdAt)),
      e(when(i.expiresAt)),
      i.status === 'pending'
        ? button(`/admin/${siteId}/invitations/${encodeURIComponent(i.id)}/withdraw`, op.csrf, 'Withdraw', {}, true)
        : '',
    ]);
    h.render(
      ctx,
      op,
      'People',
      'People',
      `${extra}
${table(cursor ? 'Members and their roles (continued)' : 'Members and their roles', ['Name', 'E-mail', 'Roles', 'Actions'], memberRows, cursor ? 'No more members.' : 'No member.')}
${pager(`/admin/${siteId}/people`, { invitations_cursor: invitationsCursor ?? '' }, cursor, page.nextCursor)}
<h2>Give a member another role</h2>
<p><small>Only an owner gives or removes the owner role; nobody gives themselves a role; the only owner keeps the role. To add someone new, invite them.</small></p>
<form method="post" action="/admin/${e(siteId)}/people/roles">
<input type="hidden" name="csrf" value="${e(op.csrf)}"><input type="hidden" name="change" value="grant">
<label for="role_email">E-mail of the member</label><input id="role_email" name="email" type="email" required maxlength="254" value="${e(kept.roleEmail ?? '')}">
<label for="role_role">Role</label><select id="role_role" name="role">${options(assignableRoles(mine, ROLES), kept.role)}</select>
<button type="submit">Give role</button>
</form>
${table('Invitations', ['E-mail', 'Role', 'Status', 'Created', 'Expires', 'Action'], invitationRows, invitationsCursor ? 'No more invitations.' : 'No invitation yet.')}
${pager(`/admin/${siteId}/people`, { cursor: cursor ?? '' }, invitationsCursor, invitationPage.nextCursor, 'invitations_cursor')}
<h2>Invite someone</h2>
<form method="post" action="/admin/${e(siteId)}/invitations">
<input type="hidden" name="csrf" value="${e(op.csrf)}">
<label for="invite_email">E-mail</label><input id="invite_email" name="email" type="email" required maxlength="254" value="${e(kept.inviteEmail ?? '')}">
<label for="invite_role">Role</label><select id="invite_role" name="role">${options(assignableRoles(mine, INVITABLE_ROLES), kept.inviteRole)}</select>
<button type="submit">Create invitation</button>
</form>`,
      status,
    );
  }

  router.get('/:site/people', async (ctx) => {
    const op = await h.operator(ctx);
    if (!op) return;
    const done = {
      granted: 'Role given.',
      revoked: 'Role removed.',
      withdrawn: 'Invitation withdrawn; its link no longer works.',
    }[String(ctx.query.done)];
    await peoplePage(ctx, op, done ? notice(done) : '');
  });

  // Operations `grantMemberRole` / `revokeMemberRole` (field `change`).
  router.post('/:site/people/roles', form, async (ctx) => {
    const op = await h.operator(ctx);
    if (!op) return;
    checkCsrf(deps.sessions, op.session, ctx);
    const body = formBody(ctx);
    const email = str(body.email);
    const role = str(body.role);
    const change = body.change === 'revoke' ? 'revoke' : 'grant';
    // Removing a role is destructive (the member's tokens at the site stop working at once): the
    // button leads to a confirmation page, whose form adds `confirm=yes` (CSRF-protected as well).
    if (change === 'revoke' && body.confirm !== 'yes') {
      return h.render(
        ctx,
        op,
        'People',
        `Remove the ${role} role of ${email}?`,
        `<p class="lead">${e(email)} loses the <strong>${e(role)}</strong> role at ${e(op.site.name)}. With no role left there, their sign-ins to its applications end and their tokens stop working at once.</p>
${button(`/admin/${op.site.id}/people/roles`, op.csrf, `Remove ${role}`, { email, role, change: 'revoke', confirm: 'yes' })}
<p><a href="/admin/${e(op.site.id)}/people">Cancel, keep the role</a></p>`,
      );
    }
    const done = await act(
      deps.services,
      op,
      change === 'grant' ? 'grantMemberRole' : 'revokeMemberRole',
      { params: { email, role } },
      { email: 'E-mail', role: 'Role' },
    );
    if (!done.ok)
      return peoplePage(ctx, op, notice(`Not done: ${done.message}`, 'alert'), done.status, { roleEmail: email, role });
    h.back(ctx, `/admin/${op.site.id}/people?done=${change === 'grant' ? 'granted' : 'revoked'}`);
  });

  // Operation `createInvitation`.
  router.post('/:site/invitations', form, async (ctx) => {
    const op = await h.operator(ctx);
    if (!op) return;
    checkCsrf(deps.sessions, op.session, ctx);
    const body = formBody(ctx);
    const email = str(body.email);
    const role = str(body.role);
    const done = await act<{ email: string; acceptUrl: string }>(
      deps.services,
      op,
      'createInvitation',
      { body: { email, role } },
      { email: 'E-mail', role: 'Role' },
    );
    if (!done.ok) {
      // A spent mail budget is a 429 with its `Retry-After`, on this page as on /api/v1.
      for (const [name, value] of Object.entries(done.headers ?? {})) ctx.set(name, value);
      return peoplePage(ctx, op, notice(`Not invited: ${done.message}`, 'alert'), done.status, {
        inviteEmail: email,
        inviteRole: role,
      });
    }
    // The one-time link is shown once, here, to the operator who made it (never stored in clear).
    await peoplePage(
      ctx,
      op,
      `<p class="notice" role="status">Invitation created. Give this one-time link (valid 7 days) to ${e(done.result.email)}: <output class="secret" id="invitation-link">${e(done.result.acceptUrl)}</output></p>`,
      201,
    );
  });

  // Operation `revokeInvitation`.
  router.post('/:site/invitations/:id/withdraw', form, async (ctx) => {
    const op = await h.operator(ctx);
    if (!op) return;
    checkCsrf(deps.sessions, op.session, ctx);
    const done = await act(deps.services, op, 'revokeInvitation', { params: { invitationId: ctx.params.id! } });
    if (!done.ok) return peoplePage(ctx, op, notice(`Not withdrawn: ${done.message}`, 'alert'), done.status);
    h.back(ctx, `/admin/${op.site.id}/people?done=withdrawn`);
  });
}
