/**
 * First run (DESIGN D11): production mode seeds nothing, so the first site and its owner are
 * created here (by `npm run admin`, src/cli/admin.ts). The owner gets no password: a one-time
 * link lets them set one. Knows nothing of HTTP.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { OneTimeLinks } from './one-time-links.js';
import { PlatformError } from './errors.js';
import { siteName } from './plain-text.js';
import { OPERATOR_ROLES } from './accounts.js';

/** A site id: lower-case letters, digits and dashes (it is the `org_id` claim, SPEC §2.3). */
export const SITE_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** A password hash that matches no password (the owner sets one through the link). */
const NO_PASSWORD = '!';

/** A site as `sites list` prints it. */
export interface SiteSummary {
  id: string;
  name: string;
  owners: string[];
  members: number;
}

/** Creates sites with their owner, lists sites, reissues set-password links. */
export class FirstRun {
  private readonly links: OneTimeLinks;
  constructor(private readonly db: Kysely<PlatformDatabase>) {
    this.links = new OneTimeLinks(db);
  }

  /** True when the store holds no site yet (production first start). */
  async isEmpty(): Promise<boolean> {
    return !(await this.db.selectFrom('sites').select('id').limit(1).executeTakeFirst());
  }

  /**
   * Creates a site and makes `ownerEmail` its owner: a new user (no password: the owner sets one
   * through the one-time link), or, only when `existingAccount` is true, the account that already
   * has that address (DESIGN D11, issue #25 finding 2b: adopting an account silently would make
   * whoever made it owner of the new site).
   * @returns the owner's id, whether an existing account was adopted, and, for a new user, a
   *   one-time set-password token (24 h) and its expiry (an adopted account keeps its password)
   * @throws PlatformError `invalid` for an invalid site id / name / e-mail (with its `field`),
   *   `conflict` for a site id already taken, or (reason `account_exists`, field `ownerEmail`) for
   *   an address that has an account while `existingAccount` is not set
   */
  async createSite(input: {
    id: string;
    name: string;
    ownerEmail: string;
    ownerName?: string;
    existingAccount?: boolean;
  }): Promise<{ userId: string; adopted: boolean; link?: { token: string; expiresAt: string } }> {
    const email = input.ownerEmail.trim().toLowerCase();
    if (!SITE_ID.test(input.id))
      throw new PlatformError('invalid', `site id "${input.id}": use lower-case letters, digits and dashes (max 63)`, {
        field: 'id',
      });
    if (!input.name.trim()) throw new PlatformError('invalid', 'site name: required', { field: 'name' });
    const name = siteName(input.name);
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
      throw new PlatformError('invalid', `owner e-mail "${input.ownerEmail}": not an e-mail address`, {
        field: 'ownerEmail',
      });
    const now = new Date().toISOString();
    const { userId, adopted } = await this.db.transaction().execute(async (trx) => {
      if (await trx.selectFrom('sites').select('id').where('id', '=', input.id).executeTakeFirst()) {
        throw new PlatformError('conflict', `site id "${input.id}" is already taken`, { field: 'id' });
      }
      let user = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      if (user && !input.existingAccount) {
        throw new PlatformError(
          'conflict',
          `${email} already has an account. Make it the owner only if you know whose it is: run the command again with --existing-account`,
          { reason: 'account_exists', field: 'ownerEmail' },
        );
      }
      await trx
        .insertInto('sites')
        .values({ id: input.id, name, mcp_connections_enabled: 0, created_at: now })
        .execute();
      const adopted = !!user;
      if (!user) {
        user = { id: randomUUID() };
        await trx
          .insertInto('users')
          .values({
            id: user.id,
            email,
            name: input.ownerName?.trim() || email.split('@')[0]!,
            password_hash: NO_PASSWORD,
            created_at: now,
          })
          .execute();
      }
      await trx.insertInto('memberships').values({ site_id: input.id, user_id: user.id, role: 'owner' }).execute();
      return { userId: user.id, adopted };
    });
    return adopted ? { userId, adopted } : { userId, adopted, link: await this.links.issue(userId) };
  }

  /** Every site with its owners' e-mails and member count, by id. */
  async listSites(): Promise<SiteSummary[]> {
    const sites = await this.db.selectFrom('sites').select(['id', 'name']).orderBy('id').execute();
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['memberships.site_id as site', 'memberships.role as role', 'users.email as email', 'users.id as user'])
      .execute();
    return sites.map((s) => {
      const mine = rows.filter((r) => r.site === s.id);
      return {
        id: s.id,
        name: s.name,
        owners: mine
          .filter((r) => r.role === 'owner')
          .map((r) => r.email)
          .sort(),
        members: new Set(mine.map((r) => r.user)).size,
      };
    });
  }

  /**
   * A new set-password link for an owner or admin of some site (lost or expired link).
   * @throws PlatformError `not_found` when no user with an owner/admin role has that e-mail
   */
  async resetLink(ownerEmail: string): Promise<{ token: string; expiresAt: string }> {
    const row = await this.db
      .selectFrom('users')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .select('users.id as id')
      .where('users.email', '=', ownerEmail.trim().toLowerCase())
      .where('memberships.role', 'in', OPERATOR_ROLES)
      .executeTakeFirst();
    if (!row) throw new PlatformError('not_found', `no owner or admin with e-mail ${ownerEmail}`, { field: 'email' });
    return this.links.issue(row.id);
  }
}
