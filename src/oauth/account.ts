/**
 * The OpenID Connect account model (SPEC §2.2, §2.3; DESIGN D5).
 *
 * oidc-provider's `accountId` is the user id (= `sub`). The site a client acts at is chosen per
 * authorization (site picker) and recorded per grant (`SiteChoice`, stored through the provider's
 * adapter so it lives in whichever store holds the grant); access tokens carry it as the extra
 * claim `org_id`, so the resource servers need no second lookup. The claims themselves are
 * `src/domain/claims.ts` (shared with UserInfo).
 */
import type { Adapter } from 'oidc-provider';

/** Most grant → site answers `SiteChoices` keeps in memory (the map is emptied when it is full). */
const KEPT_SITE_CHOICES = 10_000;

/**
 * The site chosen for each grant (DESIGN D5), kept for as long as the grant (seconds).
 *
 * A grant's site never changes (a consent extends only the grant of the same user, client and
 * site; any other makes a new grant, which records its site), so
 * found answers are also kept in process memory (issue #15: the refresh grant read it from the
 * store on every request). An answer outlives its grant only in this memory, and only grants that
 * still exist are asked about: oidc-provider refuses a token whose grant is gone before it asks.
 */
export class SiteChoices {
  private readonly adapter: Adapter;
  private readonly kept = new Map<string, string>();
  constructor(
    AdapterClass: new (name: string) => Adapter,
    private readonly ttlSeconds: number,
  ) {
    this.adapter = new AdapterClass('SiteChoice');
  }

  async record(grantId: string, siteId: string): Promise<void> {
    await this.adapter.upsert(grantId, { siteId } as never, this.ttlSeconds);
  }

  /**
   * The site of a grant, or undefined for unknown/expired grants (not kept: asked again next time).
   * @throws what the OIDC store throws (an outage)
   */
  async siteOf(grantId: string | undefined): Promise<string | undefined> {
    if (!grantId) return undefined;
    const hit = this.kept.get(grantId);
    if (hit !== undefined) return hit;
    const found = (await this.adapter.find(grantId)) as { siteId?: unknown } | undefined;
    if (typeof found?.siteId !== 'string') return undefined;
    if (this.kept.size >= KEPT_SITE_CHOICES) this.kept.clear();
    this.kept.set(grantId, found.siteId);
    return found.siteId;
  }
}
