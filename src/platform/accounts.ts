/**
 * Sites, users and their roles (DESIGN D5). Knows nothing of HTTP or OAuth.
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { PreparedQuery } from './prepared.js';
import { hashPassword, needsRehash, verifyPassword } from './passwords.js';

/** Roles a member can hold at a site. `owner` and `admin` are operator roles (DESIGN D2). */
export type Role = 'owner' | 'admin' | 'instructor' | 'student';
/** The operator roles (DESIGN D2, D5): what {@link isOperator} looks for. */
export const OPERATOR_ROLES: readonly Role[] = ['owner', 'admin'];

/**
 * The one operator-role check (DESIGN D2 "operator scopes need an owner or admin role at the
 * site", D5 roles, D11 operator area; issue #9): true when `roles` (a person's roles at one site,
 * read at request time) hold `owner` or `admin`. Used by the admin API, the MCP operator tools,
 * the consent step for operator scopes, the `/admin` pages and the home page.
 */
export function isOperator(roles: readonly string[]): boolean {
  return roles.some((r) => (OPERATOR_ROLES as readonly string[]).includes(r));
}

/** The member a request acts for: one user at one site (DESIGN D5). */
export interface MemberRef {
  siteId: string;
  userId: string;
}

export interface Site {
  id: string;
  name: string;
  mcpConnectionsEnabled: boolean;
}

export interface User {
  id: string;
  email: string;
  name: string;
}

/** A user's roles at one site. */
export interface SiteMembership {
  site: Site;
  roles: string[];
}

/** A member as the bearer step reads it (`Accounts.liveMemberAt`): user, site and roles at this request. */
export interface LiveMember extends SiteMembership {
  user: User;
  /** Epoch milliseconds of the user's last password set or reset (0: never): what began before it has ended (DESIGN D5). */
  sessionsValidAfter: number;
}

/** Read access to sites, users and memberships, plus credential checks. */
export class Accounts {
  constructor(private readonly db: Kysely<PlatformDatabase>) {}

  /**
   * `liveMemberAt`'s query, compiled once: it runs on every request of every resource surface.
   * The member's roles joined with the user and the site on their primary keys; no ORDER BY (roles
   * are sorted here). Issue #15: on SQLite a join once made the planner weigh the bound values, and
   * better-sqlite3 clears the bindings after every run, so SQLite re-prepared such a statement at
   * each execution (~14 µs); the embedded store now binds every parameter behind a unary plus
   * (src/store/database.ts, adapters/sqlite-plans.ts), which leaves the plan nothing to weigh. Three
   * index seeks (membership, user, site) instead of the five of scalar subqueries per column:
   * ~1 µs less per request. One statement, so PostgreSQL keeps one round trip.
   */
  private readonly liveMember = new PreparedQuery(2, (userId: string, siteId: string) =>
    this.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .innerJoin('sites', 'sites.id', 'memberships.site_id')
      .select([
        'memberships.role as role',
        'users.email as email',
        'users.name as name',
        'users.sessions_valid_after as valid_after',
        'sites.name as site_name',
        'sites.mcp_connections_enabled as mcp',
      ])
      .where('memberships.user_id', '=', userId)
      .where('memberships.site_id', '=', siteId),
  );

  /** The user with this e-mail (case-insensitive) when the password matches; otherwise undefined. Constant-cost. */
  async authenticate(email: string, password: string): Promise<User | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    const ok = await verifyPassword(password, row?.password_hash);
    if (!ok || !row) return undefined;
    // Transparent upgrade to the current hashing parameters (issue #13 finding 7).
    if (row.password_hash && needsRehash(row.password_hash)) {
      const fresh = await hashPassword(password);
      await this.db
        .updateTable('users')
        .set({ password_hash: fresh })
        .where('id', '=', row.id)
        .where('password_hash', '=', row.password_hash)
        .execute();
    }
    return { id: row.id, email: row.email, name: row.name };
  }

  /**
   * DESIGN D5 (issue #25 finding 2c): epoch milliseconds before which every session, web session, code
   * and refresh token of the user has ended (the last password set or reset; 0 when never), or
   * undefined when the user is gone.
   */
  async sessionsValidAfter(userId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select('sessions_valid_after')
      .where('id', '=', userId)
      .executeTakeFirst();
    return row ? Number(row.sessions_valid_after ?? 0) : undefined;
  }

  async findUser(userId: string): Promise<User | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'email', 'name'])
      .where('id', '=', userId)
      .executeTakeFirst();
    return row ?? undefined;
  }

  /** The id of the user with this e-mail (compared in lower case), or undefined. */
  async userIdByEmail(email: string): Promise<string | undefined> {
    return (await this.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst())
      ?.id;
  }

  /** The e-mail of each of these users that exists, by user id. */
  async emailsOf(userIds: readonly string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('id', 'in', [...new Set(userIds)])
      .execute();
    return new Map(rows.map((u) => [u.id, u.email]));
  }

  async findSite(siteId: string): Promise<Site | undefined> {
    const row = await this.db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
    return row ? { id: row.id, name: row.name, mcpConnectionsEnabled: row.mcp_connections_enabled === 1 } : undefined;
  }

  /** Every site where the user holds at least one role, with those roles, ordered by site name. */
  async membershipsOf(userId: string): Promise<SiteMembership[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('sites', 'sites.id', 'memberships.site_id')
      .select([
        'sites.id as id',
        'sites.name as name',
        'sites.mcp_connections_enabled as mcp',
        'memberships.role as role',
      ])
      .where('memberships.user_id', '=', userId)
      .orderBy('sites.name')
      .orderBy('memberships.role')
      .execute();
    const bySite = new Map<string, SiteMembership>();
    for (const r of rows) {
      const entry = bySite.get(r.id) ?? {
        site: { id: r.id, name: r.name, mcpConnectionsEnabled: r.mcp === 1 },
        roles: [],
      };
      entry.roles.push(r.role);
      bySite.set(r.id, entry);
    }
    return [...bySite.values()];
  }

  /** The user's roles at one site (empty when not a member). */
  async rolesAt(userId: string, siteId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .select('role')
      .where('user_id', '=', userId)
      .where('site_id', '=', siteId)
      .orderBy('role')
      .execute();
    return rows.map((r) => r.role);
  }

  /**
   * The one home of "the user still has a role at this site" (issue #9): the member read now, in one
   * query (issue #15: the bearer step of every request runs it), or undefined when the user holds no
   * role at the site (or either is gone). Checked by the shared bearer step of every resource surface
   * (`/account/graphql`, `/mcp`, UserInfo, `/api/v1`) and, through `liveRolesAt`, by the refresh grant.
   * @returns the user, the site and the user's roles there (sorted, never empty)
   */
  async liveMemberAt(userId: string, siteId: string): Promise<LiveMember | undefined> {
    const rows = await this.liveMember.rows(this.db, userId, siteId);
    const first = rows[0];
    // No row: no role at the site, or the user or the site is gone (a membership outlives neither:
    // ON DELETE CASCADE; the inner joins answer no row for either).
    if (!first) return undefined;
    return {
      user: { id: userId, email: first.email, name: first.name },
      site: { id: siteId, name: first.site_name, mcpConnectionsEnabled: Number(first.mcp) === 1 },
      roles: rows.map((r) => r.role).sort(),
      sessionsValidAfter: Number(first.valid_after ?? 0),
    };
  }

  /** The user's roles at the site, read now, or undefined when there is none (`liveMemberAt`'s rule). */
  async liveRolesAt(userId: string, siteId: string): Promise<string[] | undefined> {
    return (await this.liveMemberAt(userId, siteId))?.roles;
  }
}
