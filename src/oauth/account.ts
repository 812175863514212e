/**
 * The OpenID Connect account model (SPEC §2.2, §2.3; DESIGN D5).
 *
 * oidc-provider's `accountId` is the user id (= `sub`). The site a client acts at is chosen per
 * authorization (site picker) and recorded per grant (`SiteChoice`, stored through the provider's
 * adapter so it lives in whichever store holds the grant); access tokens carry it as the extra
 * claim `org_id`, so the resource servers need no second lookup.
 */
import type { Adapter } from 'oidc-provider';
import type { Accounts } from '../platform/accounts.js';
import { parseScope } from './scopes.js';

/** The claims of SPEC §2.3 (UserInfo) and §2.2 (id_token). */
export interface MemberClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  org_id: string;
  roles: string[];
}

/** Scope → claims it releases (oidc-provider `claims` configuration). */
export const CLAIMS_BY_SCOPE: Readonly<Record<string, readonly string[]>> = {
  openid: ['sub', 'org_id', 'roles'],
  email: ['email', 'email_verified'],
  profile: ['name'],
};

/**
 * Loads the claims of a user at a site, filtered by granted scope (space-delimited).
 * @returns undefined when the user no longer exists or holds no role at the site
 */
export async function loadClaims(accounts: Accounts, userId: string, siteId: string, scope: string): Promise<MemberClaims | undefined> {
  const [user, roles] = await Promise.all([accounts.findUser(userId), accounts.rolesAt(userId, siteId)]);
  if (!user || roles.length === 0) return undefined;
  const scopes = parseScope(scope);
  const claims: MemberClaims = { sub: user.id, org_id: siteId, roles };
  if (scopes.has('email')) {
    claims.email = user.email;
    claims.email_verified = true;
  }
  if (scopes.has('profile')) claims.name = user.name;
  return claims;
}

/** Most grant → site answers `SiteChoices` keeps in memory (the map is emptied when it is full). */
const KEPT_SITE_CHOICES = 10_000;

/**
 * The site chosen for each grant (DESIGN D5), kept for as long as the grant (seconds).
 *
 * A grant's site never changes (every consent makes a new grant, which records its site once), so
 * found answers are also kept in process memory (issue #15: the refresh grant read it from the
 * store on every request). An answer outlives its grant only in this memory, and only grants that
 * still exist are asked about: oidc-provider refuses a token whose grant is gone before it asks.
 */
export class SiteChoices {
  private readonly adapter: Adapter;
  private readonly kept = new Map<string, string>();
  constructor(AdapterClass: new (name: string) => Adapter, private readonly ttlSeconds: number) {
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
