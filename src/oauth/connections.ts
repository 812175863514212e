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
import type { ConnectedGrant, ConnectedGrants, GrantKey } from '../platform/connected-grants.js';
import { CLIENT_KINDS, kindOf } from '../domain/client-kinds.js';
import { clientMetadata } from '../domain/client-metadata.js';
import type { Connection, ConnectionService } from '../domain/applications.js';
import type { KeysetPage, KeysetRequest } from '../platform/paging.js';

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

  /** Destroys a grant and every token and code of it, then forgets it. */
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
   * Revokes every indexed grant matching `filter`, with no cap on their number: batches of
   * {@link REVOKE_BATCH} rows read from the index, each batch revoked {@link REVOKE_PARALLEL} grants
   * at a time (their tokens and codes first, then the grant, then its index row), one audit row per
   * grant from `detail`. A revoked grant leaves the index, so the next batch is the next grants;
   * a grant that could not be forgotten ends the loop (never an endless one).
   * @returns how many grants were revoked
   * @throws what the stores throw (grants revoked by earlier batches stay revoked)
   */
  private async revokeEvery(
    filter: { userId?: string; siteId?: string; clientId?: string },
    detail: (g: GrantKey) => string,
  ): Promise<number> {
    const seen = new Set<string>();
    let revoked = 0;
    for (;;) {
      const batch = (await this.grants.batchOf(filter, REVOKE_BATCH)).filter((g) => !seen.has(g.grantId));
      if (batch.length === 0) return revoked;
      for (let i = 0; i < batch.length; i += REVOKE_PARALLEL) {
        await Promise.all(
          batch.slice(i, i + REVOKE_PARALLEL).map(async (g) => {
            seen.add(g.grantId);
            await this.revokeGrant(g.grantId);
            await this.audit?.record({
              kind: 'revocation',
              siteId: g.siteId,
              clientId: g.clientId,
              userId: g.userId,
              detail: detail(g),
            });
          }),
        );
      }
      revoked += batch.length;
    }
  }

  /**
   * DESIGN D5 (issue #25 finding 2c): revokes every grant of a user, at every site, with every token
   * and code of each (a password was set or reset). Their access and refresh tokens are refused at
   * once on every surface; each revocation is one audit row of the grant's site. No cap on their number.
   * @returns how many grants were revoked
   */
  async revokeAllOf(userId: string, reason: string): Promise<number> {
    return this.revokeEvery({ userId }, () => `grant revoked: ${reason}`);
  }

  /**
   * Revokes grants matching `which` among those of `scope` (a site's, or a user's own): one grant
   * by id, or every grant of a client, whatever their number (in bounded batches).
   * @returns how many grants were revoked (0 when none matched: the caller answers 404)
   */
  async revoke(
    scope: { siteId: string } | { userId: string },
    which: { grantId?: string; clientId?: string },
    by: { userId: string; siteIdForAudit?: string },
  ): Promise<number> {
    const detail =
      'siteId' in scope
        ? `grant revoked by an operator (${by.userId})`
        : 'grant revoked by the member (connected apps)';
    if (which.grantId) {
      const g = await this.grants.one(which.grantId);
      const ours = g && ('siteId' in scope ? g.siteId === scope.siteId : g.userId === scope.userId);
      if (!g || !ours || (which.clientId && g.clientId !== which.clientId)) return 0;
      await this.revokeGrant(g.grantId);
      await this.audit?.record({
        kind: 'revocation',
        siteId: g.siteId,
        clientId: g.clientId,
        userId: g.userId,
        detail,
      });
      return 1;
    }
    if (!which.clientId) return 0;
    return this.revokeEvery({ ...scope, clientId: which.clientId }, () => detail);
  }
}

/** Grants read from the index per batch of a revocation. */
export const REVOKE_BATCH = 200;
/** Grants of a batch revoked at once (each is a few store round trips). */
export const REVOKE_PARALLEL = 8;

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
