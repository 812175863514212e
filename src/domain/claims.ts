/**
 * The claims of a member (SPEC §2.2 id_token, §2.3 UserInfo; OpenID Connect Core §5.4), shared by
 * the authorization server (id_tokens, `src/oauth/provider.ts` `findAccount`) and the UserInfo
 * resource (`src/resource/userinfo.ts`).
 */
import type { Accounts, User } from '../platform/accounts.js';
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
export async function loadClaims(
  accounts: Accounts,
  userId: string,
  siteId: string,
  scope: string,
): Promise<MemberClaims | undefined> {
  const [user, roles] = await Promise.all([accounts.findUser(userId), accounts.rolesAt(userId, siteId)]);
  if (!user || roles.length === 0) return undefined;
  return claimsOf(user, siteId, roles, scope);
}

/**
 * The claims of a user read already (e.g. by the bearer step, `Accounts.liveMemberAt`) at a site
 * where they hold `roles`, filtered by granted scope (space-delimited, or parsed already):
 * `sub`, `org_id`, `roles`; `email`, `email_verified` with `email`; `name` with `profile`.
 */
export function claimsOf(
  user: User,
  siteId: string,
  roles: readonly string[],
  scope: string | ReadonlySet<string>,
): MemberClaims {
  const scopes = typeof scope === 'string' ? parseScope(scope) : scope;
  const claims: MemberClaims = { sub: user.id, org_id: siteId, roles: [...roles] };
  if (scopes.has('email')) {
    claims.email = user.email;
    claims.email_verified = true;
  }
  if (scopes.has('profile')) claims.name = user.name;
  return claims;
}
