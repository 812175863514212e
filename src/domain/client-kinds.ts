/**
 * Client kinds and their scope ceilings (DESIGN D2, SPEC §2.5 rules 1–3), as one table.
 *
 * The kind is stored on the client as the extra metadata `x_client_kind`; member clients also
 * carry `x_org_id`, the one site they belong to.
 */
import { ALL_SCOPES, IDENTITY_SCOPES, MEMBER_SCOPES, OPERATOR_SCOPES, isReadScope, parseScope } from './scopes.js';

export type ClientKind = 'vendor' | 'loopback' | 'cimd' | 'cimd_reviewed' | 'member';

/** Extra client metadata names registered with oidc-provider (`extraClientMetadata.properties`). */
export const CLIENT_KIND_PROPERTY = 'x_client_kind';
export const CLIENT_ORG_PROPERTY = 'x_org_id';
/**
 * The registered `scope` of a self-registered client (loopback, CIMD): its default, not a cage
 * (DESIGN D2). Stored under this name so that oidc-provider does not read it as an allow-list.
 */
export const DEFAULT_SCOPE_PROPERTY = 'x_default_scope';
/**
 * Registration-response extension (RFC 7591 §3.2.1 allows extra members): the space-delimited
 * scopes the client may request at any later authorization, its kind's ceiling (DESIGN D2).
 */
export const SCOPE_CEILING_PROPERTY = 'x_scope_ceiling';

interface KindRule {
  /** Words shown on the consent page so a person can tell clients apart. */
  label: string;
  /** May the kind ever request this scope? (the integration / operator may narrow it further) */
  allows(scope: string): boolean;
  /** What an integrator can do about a scope above the ceiling that is not `account:*` (error descriptions). */
  beyond: string;
}

/** Said of `account:*` to every kind but `member` (SPEC §2.5 rule 1): the member-client refusal. */
export const MEMBER_DATA_REFUSAL =
  "account:read and account:write reach a member's own data, which only the site's member client may request: " +
  'ask the site operator for its client_id (created in the admin area under Developers, OAuth applications, once the MCP connections beta is on) ' +
  'and sign in with that client';

/** DESIGN D2, row by row. */
export const CLIENT_KINDS: Readonly<Record<ClientKind, KindRule>> = {
  vendor: {
    label: 'Verified platform',
    allows: (s) => IDENTITY_SCOPES.has(s) || OPERATOR_SCOPES.has(s),
    beyond: 'an integration may request identity scopes and the operator scopes the server operator set up for it',
  },
  loopback: {
    label: 'Application on your computer',
    allows: (s) => IDENTITY_SCOPES.has(s) || OPERATOR_SCOPES.has(s),
    beyond: 'a loopback client may request identity and operator scopes',
  },
  cimd: {
    label: 'Application described by its website (not reviewed)',
    allows: (s) => IDENTITY_SCOPES.has(s) || (OPERATOR_SCOPES.has(s) && isReadScope(s)),
    beyond: 'a client_id metadata document that the server operator has not reviewed may request identity and read scopes only: ask the operator to review it',
  },
  cimd_reviewed: {
    label: 'Application described by its website (reviewed)',
    allows: (s) => IDENTITY_SCOPES.has(s) || OPERATOR_SCOPES.has(s),
    beyond: 'a reviewed client_id metadata document may request identity and operator scopes',
  },
  member: {
    label: 'Site application',
    allows: (s) => IDENTITY_SCOPES.has(s) || MEMBER_SCOPES.has(s),
    beyond: "a member client may request identity scopes and the account scopes its operator picked; operator scopes need a loopback client signed in by the site's owner or admin",
  },
};

/** Reads the kind of a client from its metadata; unknown or missing → `loopback` (the most common self-serve kind). */
export function kindOf(metadata: Record<string, unknown>): ClientKind {
  const kind = metadata[CLIENT_KIND_PROPERTY];
  return typeof kind === 'string' && kind in CLIENT_KINDS ? (kind as ClientKind) : 'loopback';
}

/**
 * Kinds whose registered `scope` is only a default (DESIGN D2): clients that register themselves and
 * step up later (MCP clients register with the scope of their first challenge). Vendor and member
 * clients stay within the scopes their integration / operator picked.
 */
const DEFAULT_NOT_CAGE: ReadonlySet<ClientKind> = new Set(['loopback', 'cimd', 'cimd_reviewed']);

/** Every scope the kind may ever request, in SPEC §2.5 order. */
export function ceilingOf(kind: ClientKind): string[] {
  return ALL_SCOPES.filter((s) => CLIENT_KINDS[kind].allows(s));
}

/**
 * DESIGN D2 "a default, not a cage": for loopback and CIMD clients, moves the registered `scope`
 * to `x_default_scope` (oidc-provider treats a client's `scope` as an allow-list at /authorize);
 * the kind's ceiling is then the only limit, enforced in `getResourceServerInfo` (provider.ts).
 * Runs for every client instantiation (registration, storage, CIMD document), so clients stored
 * before this rule are uncaged too. Idempotent; mutates `metadata`.
 */
export function uncageRegisteredScope(metadata: Record<string, unknown>): void {
  if (!DEFAULT_NOT_CAGE.has(kindOf(metadata)) || typeof metadata.scope !== 'string') return;
  metadata[DEFAULT_SCOPE_PROPERTY] = metadata.scope;
  delete metadata.scope;
}

/** The scopes of `requested` that the kind may never have (empty when all are allowed). */
export function scopesAboveCeiling(kind: ClientKind, requested: Iterable<string>): string[] {
  return [...requested].filter((s) => !CLIENT_KINDS[kind].allows(s));
}

/**
 * Why `above` (scopes beyond the kind's ceiling, non-empty) is refused, in words an integrator can
 * act on; `memberData` tells whether the refusal is about `account:*` (the docs topic differs).
 */
export function ceilingRefusal(kind: ClientKind, above: readonly string[]): { description: string; memberData: boolean } {
  const memberData = kind !== 'member' && above.some((s) => MEMBER_SCOPES.has(s));
  const why = memberData ? MEMBER_DATA_REFUSAL : CLIENT_KINDS[kind].beyond;
  return { description: `scope ${above.join(' ')} is not allowed for this client: ${why}`, memberData };
}

/**
 * The default scope of a client (DESIGN D3).
 * @param metadata the client's metadata (`scope` or `x_default_scope`, `x_client_kind`)
 * @returns a space-delimited scope string (possibly empty)
 */
export function defaultScopeOf(metadata: Record<string, unknown>): string {
  const kind = CLIENT_KINDS[kindOf(metadata)];
  // Loopback and CIMD clients keep their registered scope as `x_default_scope` (DESIGN D2).
  const stored = metadata[DEFAULT_SCOPE_PROPERTY] ?? metadata.scope;
  const registered = typeof stored === 'string' ? [...parseScope(stored)] : ALL_SCOPES;
  return registered.filter((s) => kind.allows(s) && (IDENTITY_SCOPES.has(s) || isReadScope(s))).join(' ');
}
