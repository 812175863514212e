/**
 * Connected apps as operators and members see them (issue 11): the grants given at a site or by a
 * user, with the client's name and kind, and revocation that kills a grant's tokens at once.
 *
 * Revoking a grant does what oidc-provider's own revocation does (RFC 7009 + `revokeGrantPolicy`):
 * every access token, refresh token and code of the grant is destroyed, then the grant. The next
 * request with one of its tokens answers 401 `invalid_token` on every surface.
 */
import type Provider from 'oidc-provider';
import type { AuditTrail } from '../platform/audit.js';
import type { ConnectedGrant, ConnectedGrants } from '../platform/connected-grants.js';
import { CLIENT_KINDS, kindOf } from '../domain/client-kinds.js';
import { clientMetadata } from '../domain/client-metadata.js';
import type { Connection, ConnectionService } from '../domain/applications.js';
import { MAX_ADMIN_PAGE_SIZE, type KeysetPage, type KeysetRequest } from '../platform/paging.js';

type GrantModel = { revokeByGrantId(grantId: string): Promise<void> };

/** Lists and revokes connected apps. */
export class Connections implements ConnectionService {
  constructor(
    private readonly provider: Provider,
    private readonly grants: ConnectedGrants,
    private readonly audit?: AuditTrail,
  ) {}

  /**
   * Adds client name and kind; drops (and forgets) grants that expired or were revoked elsewhere.
   * The grants, then the distinct clients, are looked up concurrently (issue #29: on Redis one
   * pipelined burst per page instead of one round trip per row).
   */
  private async describe(rows: ConnectedGrant[]): Promise<Connection[]> {
    const live = await Promise.all(rows.map((row) => this.provider.Grant.find(row.grantId)));
    const clientIds = [...new Set(rows.filter((_, i) => live[i]).map((row) => row.clientId))];
    const clients = new Map(
      await Promise.all(
        clientIds.map(async (clientId) => {
          const client = await this.provider.Client.find(clientId).catch(() => undefined);
          const shown = client
            ? { name: client.clientName ?? client.clientId, kind: CLIENT_KINDS[kindOf(clientMetadata(client))].label }
            : undefined;
          return [clientId, shown] as const;
        }),
      ),
    );
    const gone: string[] = [];
    const out: Connection[] = [];
    rows.forEach((row, i) => {
      if (!live[i]) {
        gone.push(row.grantId);
        return;
      }
      const c = clients.get(row.clientId);
      out.push({
        ...row,
        clientName: c?.name ?? `${row.clientId} (deleted)`,
        kindLabel: c?.kind ?? 'Deleted application',
      });
    });
    await this.grants.forget(gone);
    return out;
  }

  /** Every live grant at a site. */
  async ofSite(siteId: string, clientId?: string): Promise<Connection[]> {
    return this.describe(await this.grants.ofSite(siteId, clientId));
  }

  /**
   * One page of the live grants at a site, newest first (issue #29: paged in SQL; a grant found
   * gone from the OIDC store is dropped from its page and forgotten, so a page may hold fewer
   * than `limit` grants while `nextCursor` still leads on).
   * @throws PlatformError `invalid` (field `cursor`) for a cursor of another list
   */
  async pageOfSite(
    siteId: string,
    options: KeysetRequest & { clientId?: string; userId?: string },
  ): Promise<KeysetPage<Connection>> {
    const page = await this.grants.pageOfSite(siteId, options);
    return { items: await this.describe(page.items), nextCursor: page.nextCursor };
  }

  /**
   * How many grants each client holds at a site, with the client's name (`<id> (deleted)` for a
   * client gone from the store). Counted in SQL ({@link ConnectedGrants.countsByClient}); one
   * client lookup per distinct client.
   */
  async countsByClient(siteId: string): Promise<Array<{ clientId: string; clientName: string; grants: number }>> {
    const rows = await this.grants.countsByClient(siteId);
    return Promise.all(
      rows.map(async (r) => {
        const client = await this.provider.Client.find(r.clientId).catch(() => undefined);
        return { ...r, clientName: client ? (client.clientName ?? client.clientId) : `${r.clientId} (deleted)` };
      }),
    );
  }

  /** How many grants of one client a site holds, and from how many members (counted in SQL). */
  countOfClient(siteId: string, clientId: string): Promise<{ grants: number; members: number }> {
    return this.grants.countOfClient(siteId, clientId);
  }

  /** Every live grant of a user. */
  async ofUser(userId: string): Promise<Connection[]> {
    return this.describe(await this.grants.ofUser(userId));
  }

  /** Every grant at a site (of one client), page by page: revoking a client's grants reaches all of them, not the newest 500. */
  private async allOfSite(siteId: string, clientId?: string): Promise<ConnectedGrant[]> {
    const all: ConnectedGrant[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.grants.pageOfSite(siteId, { clientId, limit: MAX_ADMIN_PAGE_SIZE, cursor });
      all.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return all;
  }

  /** Destroys a grant and every token and code of it. */
  private async revokeGrant(grantId: string): Promise<void> {
    const p = this.provider as unknown as Record<'AccessToken' | 'RefreshToken' | 'AuthorizationCode', GrantModel>;
    await Promise.all([
      p.AccessToken.revokeByGrantId(grantId),
      p.RefreshToken.revokeByGrantId(grantId),
      p.AuthorizationCode.revokeByGrantId(grantId),
    ]);
    const grant = await this.provider.Grant.find(grantId);
    await grant?.destroy();
    await this.grants.forget([grantId]);
  }

  /**
   * DESIGN D5 (issue #25 finding 2c): revokes every grant of a user, at every site, with every token
   * and code of each (a password was set or reset). Their access and refresh tokens are refused at
   * once on every surface; each revocation is one audit row of the grant's site.
   * @returns how many grants were revoked
   */
  async revokeAllOf(userId: string, reason: string): Promise<number> {
    const rows = await this.grants.allOfUser(userId);
    for (const g of rows) {
      await this.revokeGrant(g.grantId);
      await this.audit?.record({
        kind: 'revocation',
        siteId: g.siteId,
        clientId: g.clientId,
        userId,
        detail: `grant revoked: ${reason}`,
      });
    }
    return rows.length;
  }

  /**
   * Revokes grants matching `which` among those of `scope` (a site's, or a user's own).
   * @returns how many grants were revoked (0 when none matched: the caller answers 404)
   */
  async revoke(
    scope: { siteId: string } | { userId: string },
    which: { grantId?: string; clientId?: string },
    by: { userId: string; siteIdForAudit?: string },
  ): Promise<number> {
    const rows =
      'siteId' in scope
        ? await this.allOfSite(scope.siteId, which.clientId)
        : (await this.grants.ofUser(scope.userId)).filter((g) => !which.clientId || g.clientId === which.clientId);
    const targets = which.grantId ? rows.filter((g) => g.grantId === which.grantId) : which.clientId ? rows : [];
    for (const g of targets) {
      await this.revokeGrant(g.grantId);
      await this.audit?.record({
        kind: 'revocation',
        siteId: g.siteId,
        clientId: g.clientId,
        userId: g.userId,
        detail:
          'siteId' in scope
            ? `grant revoked by an operator (${by.userId})`
            : 'grant revoked by the member (connected apps)',
      });
    }
    return targets.length;
  }
}

/** Keeps the grant index current: last use on each token issuance/refresh, forgotten when oidc-provider revokes a grant. */
export function trackGrantUse(provider: Provider, grants: ConnectedGrants, onError: (err: unknown) => void): void {
  provider.on('grant.success', (ctx) => {
    const e = (ctx.oidc?.entities ?? {}) as { AccessToken?: { grantId?: string; jkt?: string } };
    // DESIGN D15: the key a DPoP-bound token is bound to (`cnf.jkt`) is shown with the grant.
    if (e.AccessToken?.grantId) grants.touch(e.AccessToken.grantId, undefined, e.AccessToken.jkt).catch(onError);
  });
  provider.on('grant.revoked', (_ctx, grantId: string) => {
    grants.forget([grantId]).catch(onError);
  });
}
