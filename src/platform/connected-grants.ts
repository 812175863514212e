/**
 * Connected apps (issue 11): which grant was given at which site, for whom, to which client.
 * The grant itself (and its tokens) lives in the OIDC store; this index lets an operator list a
 * site's grants and a member list theirs. Knows nothing of HTTP or OAuth.
 */
import { sql, type Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import {
  clampPageSize,
  decodeCursor,
  keysetPage,
  MAX_ADMIN_PAGE_SIZE,
  type KeysetPage,
  type KeysetRequest,
} from './paging.js';

/** What names a grant and whose it is: what a revocation needs of its index row. */
export interface GrantKey {
  grantId: string;
  siteId: string;
  clientId: string;
  userId: string;
}

/** One connected app row. Times are ISO 8601 UTC. */
export interface ConnectedGrant {
  grantId: string;
  siteId: string;
  siteName: string;
  clientId: string;
  userId: string;
  userEmail: string;
  scope: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Thumbprint of the key its latest tokens are DPoP-bound to (RFC 9449); null for bearer tokens. */
  dpopJkt: string | null;
}

/**
 * `lastUsedAt` is kept to this resolution (ms): a grant used again within it is not written again by
 * the same process (issue #15: the refresh grant wrote the platform store on every request).
 */
export const LAST_USE_RESOLUTION_MS = 60_000;
/** Most grants whose last write `touch` remembers (the map is emptied when it is full). */
const REMEMBERED_TOUCHES = 10_000;

/** The grant index of the platform store. */
export class ConnectedGrants {
  /** grant id → when this process last wrote its `last_used_at` (epoch ms). */
  private readonly touched = new Map<string, number>();
  /** grant id → the key binding this process last wrote for it (DESIGN D15), null = bearer. */
  private readonly bindings = new Map<string, string | null>();

  /**
   * @param db the platform store
   * @param counts where the per-site counts run ({@link countsByClient}, {@link membersOfClient}):
   *   on the embedded store the long-read worker (`Stores.longReads`, issue #29), so counting a big
   *   site's grants never holds the event loop; the store itself by default
   */
  constructor(
    private readonly db: Kysely<PlatformDatabase>,
    private readonly counts: Kysely<PlatformDatabase> = db,
  ) {}

  /** Records a grant given at consent. */
  async record(
    g: { grantId: string; siteId: string; clientId: string; userId: string; scope: string },
    now = new Date(),
  ): Promise<void> {
    await this.db
      .insertInto('connected_grants')
      .values({
        grant_id: g.grantId,
        site_id: g.siteId,
        client_id: g.clientId,
        user_id: g.userId,
        scope: g.scope,
        created_at: now.toISOString(),
        last_used_at: null,
      })
      .onConflict((oc) => oc.column('grant_id').doNothing())
      .execute();
  }

  /**
   * Notes a use (token issued or refreshed) of a grant, to {@link LAST_USE_RESOLUTION_MS}: a use
   * within that time of this process's last write for the grant writes nothing, unless the key
   * its tokens are bound to changed (DESIGN D15: the pages show the binding at once).
   * @param dpopJkt the issued access token's `cnf.jkt` (RFC 9449 §6.1); undefined for a bearer token
   * @throws what the platform store throws (the next use writes again)
   */
  async touch(grantId: string, now = new Date(), dpopJkt?: string): Promise<void> {
    const at = now.getTime();
    const last = this.touched.get(grantId);
    const binding = dpopJkt ?? null;
    const bindingKnown = this.bindings.has(grantId) && this.bindings.get(grantId) === binding;
    if (bindingKnown && last !== undefined && at - last >= 0 && at - last < LAST_USE_RESOLUTION_MS) return;
    if (this.touched.size >= REMEMBERED_TOUCHES) {
      this.touched.clear();
      this.bindings.clear();
    }
    this.touched.set(grantId, at);
    this.bindings.set(grantId, binding);
    try {
      await this.db
        .updateTable('connected_grants')
        .set({ last_used_at: now.toISOString(), dpop_jkt: binding })
        .where('grant_id', '=', grantId)
        .execute();
    } catch (err) {
      this.touched.delete(grantId);
      this.bindings.delete(grantId);
      throw err;
    }
  }

  /** Forgets grants (revoked or expired). */
  async forget(grantIds: readonly string[]): Promise<void> {
    for (const id of grantIds) {
      this.touched.delete(id);
      this.bindings.delete(id);
    }
    if (grantIds.length > 0)
      await this.db
        .deleteFrom('connected_grants')
        .where('grant_id', 'in', [...grantIds])
        .execute();
  }

  private query() {
    return this.db
      .selectFrom('connected_grants')
      .innerJoin('users', 'users.id', 'connected_grants.user_id')
      .innerJoin('sites', 'sites.id', 'connected_grants.site_id')
      .select([
        'connected_grants.grant_id as grantId',
        'connected_grants.site_id as siteId',
        'sites.name as siteName',
        'connected_grants.client_id as clientId',
        'connected_grants.user_id as userId',
        'users.email as userEmail',
        'connected_grants.scope as scope',
        'connected_grants.created_at as createdAt',
        'connected_grants.last_used_at as lastUsedAt',
        'connected_grants.dpop_jkt as dpopJkt',
      ])
      .orderBy('connected_grants.created_at', 'desc')
      .orderBy('connected_grants.grant_id', 'desc');
  }

  /** A site's grants, newest first (at most {@link LIST_CAP}), optionally of one client. */
  async ofSite(siteId: string, clientId?: string): Promise<ConnectedGrant[]> {
    let q = this.query().where('connected_grants.site_id', '=', siteId).limit(LIST_CAP);
    if (clientId) q = q.where('connected_grants.client_id', '=', clientId);
    return q.execute();
  }

  /**
   * One page of a site's grants, newest first (`createdAt` desc, then grant id desc), optionally
   * of one client and/or one user (issue #29: keyset in SQL on `connected_grants_site_created` /
   * `connected_grants_site_client`; every grant of the site is reachable).
   * @throws PlatformError `invalid` (field `cursor`) for a cursor of another list
   */
  async pageOfSite(
    siteId: string,
    options: KeysetRequest & { clientId?: string; userId?: string },
  ): Promise<KeysetPage<ConnectedGrant>> {
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    let q = this.query()
      .where('connected_grants.site_id', '=', siteId)
      .limit(limit + 1);
    if (options.clientId) q = q.where('connected_grants.client_id', '=', options.clientId);
    if (options.userId) q = q.where('connected_grants.user_id', '=', options.userId);
    if (options.cursor !== undefined) {
      const [createdAt, grantId] = decodeCursor(options.cursor, 2) as [string, string];
      q = q.where((eb) =>
        eb(eb.refTuple('connected_grants.created_at', 'connected_grants.grant_id'), '<', eb.tuple(createdAt, grantId)),
      );
    }
    return keysetPage(
      await q.execute(),
      limit,
      (g) => [g.createdAt, g.grantId],
      (g) => g,
    );
  }

  /**
   * How many grants each client holds at a site (issue #29: the site's `client_grants` tallies,
   * kept by a trigger in the same transaction as the grant rows; the operator overview's chart). Rows of grants that expired in the OIDC store but were not yet forgotten are counted.
   * @returns `{ clientId, grants }` per client with at least one grant, by client id
   */
  async countsByClient(siteId: string): Promise<Array<{ clientId: string; grants: number }>> {
    // The site's maintained tallies (migration 0026: a trigger on connected_grants keeps
    // `client_grants/<client_id>`), one primary-key range: the cost does not grow with the grants.
    const { rows } = await sql<{ client_id: string; n: number | string }>`
      SELECT "key" AS client_id, n FROM "site_tallies"
      WHERE site_id = ${siteId} AND metric = 'client_grants' AND n > 0`.execute(this.counts);
    return rows
      .map((r) => ({ clientId: r.client_id, grants: Number(r.n) }))
      .sort((a, b) => (a.clientId < b.clientId ? -1 : a.clientId > b.clientId ? 1 : 0));
  }

  /**
   * How many grants of one client there are at a site, and how many distinct members gave them
   * (issue #29: counted in SQL on `connected_grants_site_client_user`, whatever their number; the
   * application's delete confirmation and the revoke notice of the operator area).
   */
  async countOfClient(siteId: string, clientId: string): Promise<{ grants: number; members: number }> {
    // Grouped by member in the order of `connected_grants_site_client_user` (one index walk, no
    // temporary B-tree as COUNT(DISTINCT) takes on SQLite), then counted.
    const row = await this.counts
      .selectFrom((eb) =>
        eb
          .selectFrom('connected_grants')
          .select((g) => ['user_id', g.fn.countAll().as('n')])
          .where('site_id', '=', siteId)
          .where('client_id', '=', clientId)
          .groupBy('user_id')
          .as('per_member'),
      )
      .select((eb) => [eb.fn.sum<number>('n').as('grants'), eb.fn.countAll().as('members')])
      .executeTakeFirstOrThrow();
    return { grants: Number(row.grants ?? 0), members: Number(row.members ?? 0) };
  }

  /**
   * The grants a user gave a client at a site, newest first, at most `limit` (on
   * `connected_grants_site_client_user`): the ones a new consent for the same client and site may
   * extend instead of adding another.
   */
  async ofUserAt(
    userId: string,
    clientId: string,
    siteId: string,
    limit = 16,
  ): Promise<Array<{ grantId: string; scope: string }>> {
    return this.db
      .selectFrom('connected_grants')
      .select(['grant_id as grantId', 'scope'])
      .where('site_id', '=', siteId)
      .where('client_id', '=', clientId)
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('grant_id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Sets the scope recorded for a grant (space-separated; a consent extended it). */
  async setScope(grantId: string, scope: string): Promise<void> {
    await this.db.updateTable('connected_grants').set({ scope }).where('grant_id', '=', grantId).execute();
  }

  /** One grant by id, as a revocation needs it; undefined when it is not indexed. */
  async one(grantId: string): Promise<GrantKey | undefined> {
    return this.db
      .selectFrom('connected_grants')
      .select(['grant_id as grantId', 'site_id as siteId', 'client_id as clientId', 'user_id as userId'])
      .where('grant_id', '=', grantId)
      .executeTakeFirst();
  }

  /**
   * At most `limit` grants matching every given filter (a user's, a site's, a client's, or a
   * combination), in no promised order: the next batch of a revocation, which forgets each grant
   * it revokes, so asking again yields the next ones until none is left. Each filter set is served
   * by an index (`connected_grants_user`, `connected_grants_site_client_user`, …).
   * @param limit rows, 1…{@link MAX_ADMIN_PAGE_SIZE}
   */
  async batchOf(filter: { userId?: string; siteId?: string; clientId?: string }, limit: number): Promise<GrantKey[]> {
    let q = this.db
      .selectFrom('connected_grants')
      .select(['grant_id as grantId', 'site_id as siteId', 'client_id as clientId', 'user_id as userId'])
      .limit(clampPageSize(limit, MAX_ADMIN_PAGE_SIZE));
    if (filter.siteId !== undefined) q = q.where('site_id', '=', filter.siteId);
    if (filter.clientId !== undefined) q = q.where('client_id', '=', filter.clientId);
    if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId);
    return q.execute();
  }

  /** A user's grants at every site, newest first (at most {@link LIST_CAP}). */
  async ofUser(userId: string): Promise<ConnectedGrant[]> {
    return this.query().where('connected_grants.user_id', '=', userId).limit(LIST_CAP).execute();
  }
}

/**
 * Most grants `ofSite` / `ofUser` answer (the operator page and a member's connected apps); the
 * admin API pages with `pageOfSite`, and revocations go through every grant with `batchOf`.
 */
export const LIST_CAP = 500;
