/**
 * What UserInfo reads of a grant (SPEC §2.3: the claims of the grant's OpenID scopes), kept per
 * process once read. Issue #15: the grant was a store read (a SQLite read transaction or a Redis
 * round trip) and an oidc-provider model at every UserInfo request.
 *
 * Keeping it changes no answer, because:
 * - a grant's client, account and identity scopes (`openid profile email`: the claims released)
 *   never change once saved: a consent extends only a grant of the user, client and site with
 *   exactly the identity scopes asked for, adding resource scopes and a later expiry, and otherwise
 *   saves a new grant (src/interaction/routes.ts); oidc-provider's only other writer of grants, its
 *   development interactions, is off (src/oauth/provider.ts). A kept expiry is therefore never later
 *   than the stored one (see the last point), and a kept scope may lack resource scopes added
 *   since, which UserInfo does not read.
 * - every way a grant ends before its expiry destroys its access tokens too: oidc-provider's
 *   revocation endpoint (RFC 7009, `revokeGrantPolicy`), refresh token reuse (RFC 9700 §4.14.2)
 *   and logout go through its `revoke` helper (`AccessToken.revokeByGrantId`, then the grant), and
 *   the connected-apps revocation (src/oauth/connections.ts) revokes the tokens before the grant.
 *   UserInfo reads the access token at every request (src/resource/bearer.ts), so a token of a
 *   revoked grant is refused at once, in every process, as before: the token is not found.
 * - a grant's expiry does not destroy its tokens (an access token issued by a refresh shortly
 *   before the grant ends outlives it), so a kept grant is used only while its expiry is more than
 *   {@link GRANT_EXPIRY_MARGIN_S} away. Closer to it, the grant is read from the store at every
 *   request, which answers it until it expires (SQLite `expires_at`, Redis key TTL), as before.
 */
import type Provider from 'oidc-provider';
import { parseScope } from '../domain/scopes.js';

/** A kept grant closer than this to its expiry is read again at every request (seconds). */
export const GRANT_EXPIRY_MARGIN_S = 60;
/** Most grants kept at once (the map is emptied when it is full, as `SiteChoices` does). */
const KEPT_GRANTS = 10_000;

/** The fixed part of a grant that UserInfo reads. */
export interface GrantFacts {
  clientId: string | undefined;
  accountId: string | undefined;
  /** The OpenID scope granted (`Grant#getOIDCScope`), space-delimited. */
  scope: string;
  /** `scope` as a set. */
  scopes: ReadonlySet<string>;
  /** Expiry, epoch seconds (`Infinity` for a grant saved without one). */
  exp: number;
}

/** Grants read by this process, by grant id (see the module docstring for why this is safe). */
export class KeptGrants {
  private readonly kept = new Map<string, GrantFacts>();

  /**
   * @param provider whose `Grant.find` reads the store
   * @param now the clock, epoch milliseconds (tests)
   */
  constructor(
    private readonly provider: Provider,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The facts of a grant read before, when its expiry is more than {@link GRANT_EXPIRY_MARGIN_S}
   * away; otherwise undefined, and the caller {@link read}s it. Synchronous: no microtask on the
   * common path.
   */
  known(grantId: string): GrantFacts | undefined {
    const facts = this.kept.get(grantId);
    return facts && facts.exp - this.now() / 1000 > GRANT_EXPIRY_MARGIN_S ? facts : undefined;
  }

  /**
   * Reads a grant from the store (oidc-provider `Grant.find`: undefined when unknown or expired)
   * and keeps its facts.
   * @throws what the OIDC store throws (an outage: the edge answers 503)
   */
  async read(grantId: string): Promise<GrantFacts | undefined> {
    const grant = await this.provider.Grant.find(grantId);
    if (!grant) {
      this.kept.delete(grantId);
      return undefined;
    }
    const scope = grant.getOIDCScope();
    const facts: GrantFacts = {
      clientId: grant.clientId,
      accountId: grant.accountId,
      scope,
      scopes: parseScope(scope),
      exp: grant.exp ?? Infinity,
    };
    if (this.kept.size >= KEPT_GRANTS) this.kept.clear();
    this.kept.set(grantId, facts);
    return facts;
  }
}
