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

/** The site chosen for each grant (DESIGN D5), kept for as long as the grant (seconds). */
export class SiteChoices {
  private readonly adapter: Adapter;
  constructor(AdapterClass: new (name: string) => Adapter, private readonly ttlSeconds: number) {
    this.adapter = new AdapterClass('SiteChoice');
  }

  async record(grantId: string, siteId: string): Promise<void> {
    await this.adapter.upsert(grantId, { siteId } as never, this.ttlSeconds);
  }

  /** The site of a grant, or undefined for unknown/expired grants. */
  async siteOf(grantId: string | undefined): Promise<string | undefined> {
    if (!grantId) return undefined;
    const found = (await this.adapter.find(grantId)) as { siteId?: unknown } | undefined;
    return typeof found?.siteId === 'string' ? found.siteId : undefined;
  }
}
