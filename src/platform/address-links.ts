/**
 * Links sent to an address (DESIGN D5, issue #25 findings 2a, 3, 11): the one proof that a person
 * controls an e-mail address. An account is created for an address only through one of these
 * links, and a forgotten password is reset only through one; holding an invitation link proves
 * nothing (its `acceptUrl` is handed to the operator who made it).
 *
 * A link is keyed by the address, not by an account, so that issuing one answers the same whether
 * or not the address has an account (DESIGN D5: no answer reveals it). Used, it sets the password
 * of the address's account, or creates the account with that password when there is none, and,
 * when it was sent from an invitation, accepts that invitation for it.
 *
 * Tokens are 32 random bytes (base64url, 43 characters) handed out once; the store keeps their
 * SHA-256 only (`address_links`, migration `0022_verified_accounts`). A link works once, and using
 * any link of an address (or any set-password link of its account) ends every other live link of
 * both kinds (issue #25 finding 11). Knows nothing of HTTP.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import type { InvitationsTable } from './invitations.js';
import { hashPassword } from './passwords.js';
import { PlatformError } from './errors.js';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  ONE_TIME_LINK_TTL_SECONDS,
  endEarlierSessions,
} from './one-time-links.js';

/** Table `address_links` (migration `0022_verified_accounts`). */
export interface AddressLinksTable {
  /** base64url SHA-256 of the token. */
  token_hash: string;
  /** Lower-case address the link was sent to. */
  email: string;
  /** `join` (sent from an invitation page) or `reset` (sent from "Forgot your password?"). */
  purpose: string;
  /** The invitation accepted when the link is used (`join` links). */
  invitation_id: string | null;
  /** ISO 8601 UTC. */
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

type Db = PlatformDatabase & { address_links: AddressLinksTable; invitations: InvitationsTable };

/** Why a link was sent. */
export type AddressLinkPurpose = 'join' | 'reset';

/** A password-reset link works for 1 hour (OWASP Forgot Password Cheat Sheet: short-lived). */
export const RESET_LINK_TTL_SECONDS = 3600;

/** What the page of a live link shows. */
export interface AddressLinkView {
  email: string;
  purpose: AddressLinkPurpose;
  /** True when the address has no account yet (the page asks for a name): shown only to whoever opened the mailed link. */
  newAccount: boolean;
  /** The invitation the link accepts, when it came from one and is still pending. */
  invitation?: { id: string; siteId: string; siteName: string; role: string };
}

const hashToken = (token: string): string => createHash('sha256').update(token).digest('base64url');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Issues and redeems address links. */
export class AddressLinks {
  private readonly db: Kysely<Db>;
  constructor(db: Kysely<PlatformDatabase>) {
    this.db = db as unknown as Kysely<Db>;
  }

  /**
   * Issues a link for `email` (lower-cased). Earlier live links stay valid until one is used.
   * @param invitationId the invitation to accept on use (`join`)
   * @returns the token (43 base64url characters, shown once: mail it) and its expiry (ISO 8601 UTC)
   */
  async issue(
    email: string,
    purpose: AddressLinkPurpose,
    invitationId?: string,
    now = new Date(),
  ): Promise<{ token: string; expiresAt: string }> {
    const token = randomBytes(32).toString('base64url');
    const ttl = purpose === 'reset' ? RESET_LINK_TTL_SECONDS : ONE_TIME_LINK_TTL_SECONDS;
    const expiresAt = new Date(now.getTime() + ttl * 1000).toISOString();
    await this.db
      .insertInto('address_links')
      .values({
        token_hash: hashToken(token),
        email: email.trim().toLowerCase(),
        purpose,
        invitation_id: invitationId ?? null,
        expires_at: expiresAt,
        used_at: null,
        created_at: now.toISOString(),
      })
      .execute();
    return { token, expiresAt };
  }

  /** The live (unused, unexpired) link of a token, as its page shows it; undefined otherwise. */
  async peek(token: string, now = new Date()): Promise<AddressLinkView | undefined> {
    if (typeof token !== 'string' || !TOKEN.test(token)) return undefined;
    const row = await this.live(this.db, token, now);
    if (!row) return undefined;
    const user = await this.db.selectFrom('users').select('id').where('email', '=', row.email).executeTakeFirst();
    return {
      email: row.email,
      purpose: row.purpose as AddressLinkPurpose,
      newAccount: !user,
      invitation: await this.pendingInvitation(this.db, row.invitation_id, now),
    };
  }

  /**
   * Uses a link: sets the password of the address's account, or (`join` links only) creates the
   * account (with `name`, else the address's local part) when there is none; ends every other live link of the address
   * and of the account, and every session begun before (`users.sessions_valid_after`). One
   * transaction: of two parallel uses exactly one succeeds.
   * @returns the user, whether it was created, and the pending invitation to accept (if any)
   * @throws PlatformError `invalid` reason `weak_password` (length outside 12–1024), or
   *   `not_found` reason `unknown_or_used`
   */
  async redeem(
    token: string,
    input: { password: string; name?: string },
    now = new Date(),
  ): Promise<{ user: { id: string; email: string }; created: boolean; invitationId?: string }> {
    if (input.password.length < MIN_PASSWORD_LENGTH || input.password.length > MAX_PASSWORD_LENGTH) {
      throw new PlatformError('invalid', `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`, {
        reason: 'weak_password',
        field: 'password',
      });
    }
    if (typeof token !== 'string' || !TOKEN.test(token)) throw usedUp();
    const hash = await hashPassword(input.password);
    return this.db.transaction().execute(async (trx) => {
      const row = await this.live(trx, token, now);
      if (!row) throw usedUp();
      // The account's row first (a row lock on PostgreSQL, or the unique e-mail of a new one): two
      // links of one address used at once wait for each other here, and the second then finds its
      // link ended by the first (no deadlock over each other's link rows).
      let user = await trx
        .updateTable('users')
        .set({ password_hash: hash })
        .where('email', '=', row.email)
        .returning(['id', 'email'])
        .executeTakeFirst();
      let created = false;
      if (!user) {
        // Only an invitation makes an account; a reset link of an address without one sets nothing.
        if (row.purpose !== 'join') throw usedUp();
        const name = input.name?.trim().slice(0, 120) || row.email.split('@')[0]!;
        const fresh = { id: `usr_${randomUUID()}`, email: row.email };
        const inserted = await trx
          .insertInto('users')
          .values({ ...fresh, name, password_hash: hash, created_at: now.toISOString() })
          .onConflict((oc) => oc.column('email').doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) throw usedUp();
        user = fresh;
        created = true;
      }
      const claimed = await trx
        .updateTable('address_links')
        .set({ used_at: now.toISOString() })
        .where('token_hash', '=', row.token_hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw usedUp();
      await endEarlierSessions(trx, user.id, user.email, now);
      const invitation = await this.pendingInvitation(trx, row.invitation_id, now);
      return { user, created, ...(invitation ? { invitationId: invitation.id } : {}) };
    });
  }

  private live(db: Kysely<Db> | Transaction<Db>, token: string, now: Date) {
    return db
      .selectFrom('address_links')
      .selectAll()
      .where('token_hash', '=', hashToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
  }

  private async pendingInvitation(
    db: Kysely<Db> | Transaction<Db>,
    id: string | null,
    now: Date,
  ): Promise<AddressLinkView['invitation']> {
    if (!id) return undefined;
    const inv = await db
      .selectFrom('invitations')
      .innerJoin('sites', 'sites.id', 'invitations.site_id')
      .select([
        'invitations.id as id',
        'invitations.site_id as siteId',
        'sites.name as siteName',
        'invitations.role as role',
        'invitations.expires_at as expiresAt',
      ])
      .where('invitations.id', '=', id)
      .where('invitations.accepted_at', 'is', null)
      .where('invitations.revoked_at', 'is', null)
      .executeTakeFirst();
    if (!inv || Date.parse(inv.expiresAt) <= now.getTime()) return undefined;
    return { id: inv.id, siteId: inv.siteId, siteName: inv.siteName, role: inv.role };
  }
}

const usedUp = () =>
  new PlatformError('not_found', 'This link has expired or was already used. Ask for a new one.', {
    reason: 'unknown_or_used',
  });
