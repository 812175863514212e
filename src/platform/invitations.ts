/**
 * Invitations to a site (DESIGN D5): an operator adds someone to their site by inviting an e-mail
 * address with a role; the invited person opens the one-time link and signs in and accepts, or,
 * without an account, proves the address through a link mailed to it (src/platform/address-links.ts,
 * issue #25 finding 2a: holding the invitation link proves nothing) and chooses a password there;
 * only then do they get the role. The operator never learns
 * whether the address belongs to a platform user, and nobody gets a role without asking.
 *
 * Tokens are 32 random bytes (base64url) shown once; the store keeps their SHA-256 only. A link
 * works once, for 7 days, and only for a user whose e-mail is the invited one.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { PlatformError, notFound } from './errors.js';
import { lockSite } from './locks.js';
import {
  afterNewestFirst,
  clampPageSize,
  keysetPage,
  MAX_ADMIN_PAGE_SIZE,
  type KeysetPage,
  type KeysetRequest,
} from './paging.js';

/** Table `invitations` (migration `0004_admin_api`). */
export interface InvitationsTable {
  id: string;
  site_id: string;
  /** Lower-case. */
  email: string;
  role: string;
  token_hash: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  revoked_at: string | null;
}

export type InvitationDatabase = PlatformDatabase & { invitations: InvitationsTable };

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

/** An invitation as operators see it (never its token). */
export interface Invitation {
  id: string;
  email: string;
  role: string;
  status: InvitationStatus;
  /** ISO 8601 UTC. */
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
}

/** Roles an invitation may carry (DESIGN D5). */
export const INVITABLE_ROLES = ['owner', 'admin', 'instructor', 'student'] as const;

/**
 * May someone holding `inviterRoles` at a site give `role` there (DESIGN D5)? Owners and admins
 * invite; only an owner invites an owner. Checked when an invitation is made and again when it is
 * previewed or accepted (issue #25 finding 14: a link stops working once its creator lost the role
 * that allowed it).
 */
export function mayInvite(inviterRoles: readonly string[], role: string): boolean {
  if (role === 'owner') return inviterRoles.includes('owner');
  return inviterRoles.includes('owner') || inviterRoles.includes('admin');
}

/** How long a link works. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

function statusOf(row: InvitationsTable, now: Date): InvitationStatus {
  if (row.accepted_at) return 'accepted';
  if (row.revoked_at) return 'revoked';
  return Date.parse(row.expires_at) <= now.getTime() ? 'expired' : 'pending';
}

const view = (row: InvitationsTable, now: Date): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  status: statusOf(row, now),
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  acceptedAt: row.accepted_at,
});

/**
 * Called after an invitation is stored, with its one-time token (e.g. to e-mail the link; wired
 * in the composition root). Its failure does not undo the invitation.
 */
export type InvitationCreated = (siteId: string, invitation: Invitation, token: string) => Promise<void>;

/**
 * Called before an invitation is stored, with the invited address (lower case): the mail budget of
 * the composition root. Throws to refuse the invitation (e.g. PlatformError `conflict`, reason
 * `too_many_requests`, when no more mail may go to that address now); nothing is stored then.
 */
export type InvitationAdmission = (email: string) => Promise<void>;

export class Invitations {
  private readonly db: Kysely<InvitationDatabase>;
  /**
   * @param onCreated optional hook after each create (see InvitationCreated)
   * @param admit optional check before each create (see InvitationAdmission)
   */
  constructor(
    db: Kysely<PlatformDatabase>,
    private readonly onCreated?: InvitationCreated,
    private readonly admit?: InvitationAdmission,
  ) {
    this.db = db as unknown as Kysely<InvitationDatabase>;
  }

  /**
   * Invites `email` to the site with `role`. Only an owner invites an owner (DESIGN D5).
   * @returns the invitation and its one-time token (shown once: build the link from it)
   * @throws PlatformError `forbidden` (hierarchy), `invalid` (role), or what the admission hook
   *   throws (`conflict` reason `too_many_requests` when the mail budget is spent)
   */
  async create(
    siteId: string,
    input: { email: string; role: string; invitedBy: string },
    now = new Date(),
  ): Promise<{ invitation: Invitation; token: string }> {
    if (!(INVITABLE_ROLES as readonly string[]).includes(input.role))
      throw new PlatformError('invalid', `role must be one of ${INVITABLE_ROLES.join(', ')}`, { field: 'role' });
    const roles = (
      await this.db
        .selectFrom('memberships')
        .select('role')
        .where('site_id', '=', siteId)
        .where('user_id', '=', input.invitedBy)
        .execute()
    ).map((r) => r.role);
    if (input.role === 'owner' && !roles.includes('owner'))
      throw new PlatformError('forbidden', 'only an owner can invite an owner', {
        reason: 'role_hierarchy',
        field: 'role',
      });
    // Issue #25 finding 15: inviting one's own address is giving oneself a role; refused as the
    // direct grant refuses it (src/platform/operator/people.ts, same message and reason).
    const inviter = await this.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', input.invitedBy)
      .executeTakeFirst();
    if (inviter && inviter.email.toLowerCase() === input.email.trim().toLowerCase() && !roles.includes(input.role)) {
      throw new PlatformError('forbidden', 'you cannot give yourself a role; ask another operator', {
        reason: 'role_hierarchy',
        field: 'email',
      });
    }
    // Every invitation is mailed: it spends the mail budget before anything is stored.
    await this.admit?.(input.email.trim().toLowerCase());
    const token = randomBytes(32).toString('base64url');
    const row: InvitationsTable = {
      id: `inv_${randomUUID()}`,
      site_id: siteId,
      email: input.email.trim().toLowerCase(),
      role: input.role,
      token_hash: hashToken(token),
      invited_by: input.invitedBy,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
      accepted_at: null,
      accepted_by: null,
      revoked_at: null,
    };
    await this.db.insertInto('invitations').values(row).execute();
    const invitation = view(row, now);
    if (this.onCreated) await this.onCreated(siteId, invitation, token);
    return { invitation, token };
  }

  /**
   * One page of the site's invitations, newest first (`createdAt` desc, then id ascending),
   * optionally of one status (issue #29: "Keyset pagination in SQL for every list (no in-memory
   * paging, no row cap: every row reachable by cursor)"). The status is derived (see `statusOf`)
   * and filtered in SQL, each on its own index (migration 0028): `accepted` and `revoked` on the
   * partial indexes of settled invitations; `pending` (`expires_at` after `now`) and `expired`
   * on the partial index of open ones, which holds `expires_at`; none on
   * `invitations_site_created`. Used by `GET /api/v1/invitations` and the operator area's people page.
   * @param options `limit` 1…MAX_ADMIN_PAGE_SIZE (clamped), `cursor` of an earlier page, `status`
   * @param now the instant pending and expired are told apart at (ISO strings compare as times)
   * @throws PlatformError `invalid` (field `cursor`) for a cursor of another list
   */
  async page(
    siteId: string,
    options: KeysetRequest & { status?: InvitationStatus },
    now = new Date(),
  ): Promise<KeysetPage<Invitation>> {
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    let q = this.db
      .selectFrom('invitations')
      .selectAll()
      .where('site_id', '=', siteId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit + 1);
    switch (options.status) {
      case 'accepted':
        q = q.where('accepted_at', 'is not', null);
        break;
      case 'revoked':
        q = q.where('accepted_at', 'is', null).where('revoked_at', 'is not', null);
        break;
      case 'pending':
      case 'expired':
        q = q
          .where('accepted_at', 'is', null)
          .where('revoked_at', 'is', null)
          .where('expires_at', options.status === 'pending' ? '>' : '<=', now.toISOString());
        break;
    }
    if (options.cursor !== undefined) q = q.where(afterNewestFirst('created_at', 'id', options.cursor));
    return keysetPage(
      await q.execute(),
      limit,
      (r) => [r.created_at, r.id],
      (r) => view(r, now),
    );
  }

  /** One invitation of the site. @throws PlatformError `not_found` */
  async get(siteId: string, id: string, now = new Date()): Promise<Invitation> {
    const row = await this.db
      .selectFrom('invitations')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('invitation', id);
    return view(row, now);
  }

  /** Withdraws a pending invitation. @throws PlatformError `not_found`, `conflict` (already accepted) */
  async revoke(siteId: string, id: string, now = new Date()): Promise<void> {
    const current = await this.get(siteId, id, now);
    if (current.status === 'accepted')
      throw new PlatformError('conflict', 'this invitation was already accepted; take the role away instead', {
        reason: 'already_accepted',
      });
    await this.db
      .updateTable('invitations')
      .set({ revoked_at: now.toISOString() })
      .where('site_id', '=', siteId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /**
   * What the link shows before accepting: the site's name, the role and the invited address.
   * @param token the link's token, or `{ id }`: the invitation an address link names (src/platform/address-links.ts)
   * @throws PlatformError `not_found` (unknown token), `conflict` (used, withdrawn or expired)
   */
  async preview(
    token: string | { id: string },
    now = new Date(),
  ): Promise<{ id: string; siteId: string; siteName: string; email: string; role: string }> {
    const row = await this.db
      .selectFrom('invitations')
      .innerJoin('sites', 'sites.id', 'invitations.site_id')
      .selectAll('invitations')
      .select('sites.name as site_name')
      .where(
        typeof token === 'string' ? 'invitations.token_hash' : 'invitations.id',
        '=',
        typeof token === 'string' ? hashToken(token) : token.id,
      )
      .executeTakeFirst();
    if (!row) throw new PlatformError('not_found', 'this invitation link is not valid');
    const status = statusOf(row, now);
    if (status !== 'pending')
      throw new PlatformError(
        'conflict',
        `this invitation was ${status === 'accepted' ? 'already used' : status === 'revoked' ? 'withdrawn' : 'not accepted in time'}`,
        { reason: `invitation_${status}` },
      );
    await this.checkInviter(this.db, row.site_id, row.invited_by, row.role);
    return { id: row.id, siteId: row.site_id, siteName: row.site_name, email: row.email, role: row.role };
  }

  /**
   * Issue #25 finding 14: an invitation works only while its creator still holds a role that may
   * give the invited role (`mayInvite`).
   * @throws PlatformError `conflict` (reason `invitation_revoked`) when they no longer do
   */
  private async checkInviter(
    db: Kysely<InvitationDatabase>,
    siteId: string,
    invitedBy: string,
    role: string,
  ): Promise<void> {
    const roles = (
      await db
        .selectFrom('memberships')
        .select('role')
        .where('site_id', '=', siteId)
        .where('user_id', '=', invitedBy)
        .execute()
    ).map((r) => r.role);
    if (!mayInvite(roles, role))
      throw new PlatformError(
        'conflict',
        'this invitation was withdrawn: the person who made it can no longer give this role',
        { reason: 'invitation_revoked' },
      );
  }

  /**
   * Accepts: gives `user` the invited role at the site, once. The user's e-mail must be the invited one.
   * @param token the link's token (the person signed in on the invitation page), or `{ id }` (the
   *   person proved the address through a link mailed to it, src/platform/address-links.ts)
   * @throws PlatformError as `preview`, and `forbidden` when the e-mail differs
   */
  async accept(
    token: string | { id: string },
    user: { id: string; email: string },
    now = new Date(),
  ): Promise<{ siteId: string; role: string }> {
    const invitation = await this.preview(token, now);
    if (user.email.toLowerCase() !== invitation.email)
      throw new PlatformError('forbidden', `this invitation is for ${invitation.email}; sign in with that address`, {
        reason: 'wrong_account',
      });
    await this.db.transaction().execute(async (trx) => {
      // Issue #25 finding 6/14: the inviter's roles are read again with the site locked
      // (src/platform/locks.ts), so a concurrent removal of their role cannot slip in between.
      await lockSite(trx, invitation.siteId);
      const row = await trx
        .selectFrom('invitations')
        .select(['invited_by', 'role'])
        .where('id', '=', invitation.id)
        .executeTakeFirstOrThrow();
      await this.checkInviter(trx, invitation.siteId, row.invited_by, row.role);
      // One use: only the request that flips accepted_at from null gives the role.
      const claimed = await trx
        .updateTable('invitations')
        .set({ accepted_at: now.toISOString(), accepted_by: user.id })
        .where('id', '=', invitation.id)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1)
        throw new PlatformError('conflict', 'this invitation was already used', { reason: 'invitation_accepted' });
      await trx
        .insertInto('memberships')
        .values({ site_id: invitation.siteId, user_id: user.id, role: invitation.role })
        .onConflict((oc) => oc.doNothing())
        .execute();
    });
    return { siteId: invitation.siteId, role: invitation.role };
  }
}
