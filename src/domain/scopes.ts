/**
 * The scopes of SPEC §2.5 and their audiences (DESIGN D2), as data.
 *
 * - identity scopes: `openid profile email` (OpenID Connect);
 * - operator scopes: every other scope except `account:*` (admin API, SPEC §2.5 rule 2);
 * - member scopes: `account:read account:write` (the member's own data, rule 1).
 */

/** Scope → the plain-words description shown on the consent page and in docs. */
export const SCOPES: Readonly<Record<string, string>> = {
  openid: 'Sign you in and know who you are',
  profile: 'See your name',
  email: 'See your e-mail address',
  'courses:read': 'See the courses of the site',
  'courses:write': 'Create, change and delete courses',
  'students:read': 'See the students of the site',
  'students:write': 'Enroll, change and remove students',
  'members:read': 'See the members of the site and their roles',
  'members:write': 'Invite, change and remove members',
  'analytics:read': 'See sales and learning analytics',
  'curriculum:read': 'See course curricula (sections and lectures)',
  'curriculum:write': 'Change course curricula',
  'orders:read': 'See orders and payments',
  'school:read': 'See the site settings',
  'school:write': 'Change the site settings',
  'appearance:read': 'See the site appearance',
  'appearance:write': 'Change the site appearance',
  'events:read': 'See events',
  'events:write': 'Create, change and cancel events',
  'membership_plans:read': 'See membership plans',
  'membership_plans:write': 'Create and change membership plans',
  'coupons:read': 'See coupons',
  'coupons:write': 'Create, change and delete coupons',
  'posts:read': 'See posts',
  'posts:write': 'Publish, change and delete posts',
  'subscriptions:read': 'See subscriptions',
  'subscriptions:write': 'Change subscriptions',
  'digital_products:read': 'See digital products',
  'digital_products:write': 'Create, change and delete digital products',
  'comments:read': 'See comments',
  'lecturers:read': 'See lecturers',
  'lecturers:write': 'Add, change and remove lecturers',
  'storage:write': 'Upload files',
  'forms:read': 'See form submissions',
  'pages:read': 'See pages',
  'pages:write': 'Create, change and delete pages',
  'account:read': 'See your enrollments, progress, orders and event registrations',
  'account:write': 'Record your playback progress and change your display name',
};

/**
 * Scope → what granting it lets an application do, in the operator's voice (issue #30 item 8): the
 * `/admin` application forms and their creation page describe the scopes a member client may ask
 * for to the operator who sets it up, not to the member (whose consent page uses `SCOPES`).
 * Covers exactly the member-client scopes (identity + member scopes, DESIGN D2).
 */
export const OPERATOR_SCOPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  openid: 'Lets the app sign the member in and know who they are',
  profile: "Lets the app read the member's name",
  email: "Lets the app read the member's e-mail address",
  'account:read': "Lets the app read the member's enrollments, progress, orders and event registrations",
  'account:write': "Lets the app record the member's playback progress and change their display name",
};

/** Every scope, in SPEC §2.5 order (the `scopes` of oidc-provider and `scopes_supported`). */
export const ALL_SCOPES: readonly string[] = Object.keys(SCOPES);
export const IDENTITY_SCOPES: ReadonlySet<string> = new Set(['openid', 'profile', 'email']);
export const MEMBER_SCOPES: ReadonlySet<string> = new Set(['account:read', 'account:write']);
/** Scopes that reach the admin API (DESIGN D2). */
export const OPERATOR_SCOPES: ReadonlySet<string> = new Set(
  ALL_SCOPES.filter((s) => !IDENTITY_SCOPES.has(s) && !MEMBER_SCOPES.has(s)),
);
/** Scopes carried by access tokens for the protected resource (everything but identity scopes). */
export const RESOURCE_SCOPES: readonly string[] = ALL_SCOPES.filter((s) => !IDENTITY_SCOPES.has(s));

/** True for `…:read` scopes. */
export const isReadScope = (scope: string): boolean => scope.endsWith(':read');

/**
 * The scope hierarchy (DESIGN D4; MCP 2026-07-28 authorization, "scope hierarchies"): scope → the
 * scopes it implies. `X:write` implies `X:read` wherever SPEC §2.5 defines both; nothing else implies
 * anything (identity scopes stand alone; `storage:write` has no read scope; `account:write` implies
 * `account:read`).
 */
export const IMPLIES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  ALL_SCOPES.map((s) => {
    const read = s.endsWith(':write') ? `${s.slice(0, -':write'.length)}:read` : undefined;
    return [s, read && read in SCOPES ? [read] : []];
  }),
);

/**
 * True when a token carrying `granted` may do what needs `needed` (DESIGN D4): it holds `needed`
 * itself or a scope that implies it (`courses:write` satisfies `courses:read`).
 */
export function satisfies(granted: ReadonlySet<string>, needed: string): boolean {
  if (granted.has(needed)) return true;
  for (const s of granted) if (IMPLIES[s]?.includes(needed)) return true;
  return false;
}

/**
 * The narrowest scopes that suffice for `scopes` (DESIGN D4: challenges name the narrowest scope):
 * drops every scope another one of the list implies, keeps the order of the rest and removes
 * duplicates. `['courses:read', 'courses:write', 'openid']` → `['courses:write', 'openid']`.
 */
export function narrowest(scopes: Iterable<string>): string[] {
  const all = [...new Set(scopes)];
  return all.filter((s) => !all.some((other) => other !== s && IMPLIES[other]?.includes(s)));
}

/** Splits a space-delimited scope string (RFC 6749 §3.3) into a set, dropping empty items. */
export function parseScope(scope: string | undefined | null): Set<string> {
  return new Set((scope ?? '').split(' ').filter(Boolean));
}
