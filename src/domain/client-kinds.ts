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
 * The scopes an operator picked for a member client, or the integration lists for a vendor, plus
 * the identity scopes every kind may request (DESIGN D2). Stored under this name (at client
 * instantiation, `allowListOf`) instead of `scope`, so that oidc-provider does not refuse a scope
 * outside it with its generic "requested scope is not allowed": the ceiling check
 * (`scopesAboveCeiling`, run in `getResourceServerInfo`) refuses it with guidance (issue #26).
 */
export const ALLOWED_SCOPE_PROPERTY = 'x_allowed_scope';
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
    beyond:
      'a client_id metadata document that the server operator has not reviewed may request identity and read scopes only: ask the operator to review it',
  },
  cimd_reviewed: {
    label: 'Application described by its website (reviewed)',
    allows: (s) => IDENTITY_SCOPES.has(s) || OPERATOR_SCOPES.has(s),
    beyond: 'a reviewed client_id metadata document may request identity and operator scopes',
  },
  member: {
    label: 'Site application',
    allows: (s) => IDENTITY_SCOPES.has(s) || MEMBER_SCOPES.has(s),
    beyond:
      "a member client may request identity scopes and the account scopes its operator picked; operator scopes need a loopback client signed in by the site's owner or admin",
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

/**
 * Kinds whose scopes were picked for the client (DESIGN D2: the member client's by its operator, the
 * vendor's by config/integrations.yaml): their registered `scope` is an allow-list within the kind's
 * ceiling, and the identity scopes are always on it.
 */
const PICKED: ReadonlySet<ClientKind> = new Set(['member', 'vendor']);

/**
 * Issue #26: for member and vendor clients, moves the registered `scope` to `x_allowed_scope`,
 * with the identity scopes added (every kind may request `openid profile email`, the protected
 * resource's `scopes_supported`). oidc-provider then applies no allow-list of its own, whose
 * refusal says only "requested scope is not allowed"; `scopesAboveCeiling` applies this one and
 * `ceilingRefusal` says what the client may ask for. Runs at every client instantiation (the stored
 * record keeps `scope`). Idempotent; mutates `metadata`.
 */
export function allowListOf(metadata: Record<string, unknown>): void {
  if (!PICKED.has(kindOf(metadata)) || typeof metadata.scope !== 'string') return;
  metadata[ALLOWED_SCOPE_PROPERTY] = [...new Set([...IDENTITY_SCOPES, ...parseScope(metadata.scope)])].join(' ');
  delete metadata.scope;
}

/**
 * Every scope this client may request (DESIGN D2): its kind's ceiling, narrowed for member and
 * vendor clients to `x_allowed_scope` (identity scopes always included). SPEC §2.5 order.
 * @param metadata the client's metadata (`x_client_kind`, `x_allowed_scope` or `scope`)
 */
export function requestableScopes(metadata: Record<string, unknown>): string[] {
  const kind = kindOf(metadata);
  const picked = metadata[ALLOWED_SCOPE_PROPERTY] ?? (PICKED.has(kind) ? metadata.scope : undefined);
  const allow = typeof picked === 'string' ? parseScope(picked) : undefined;
  return ceilingOf(kind).filter((s) => !allow || IDENTITY_SCOPES.has(s) || allow.has(s));
}

/**
 * The scopes of `requested` this client may not have (empty when all are allowed): beyond its
 * kind's ceiling, or, for member and vendor clients, not picked for it (`requestableScopes`).
 * @param client the client's kind, or its metadata (which also applies the picked list)
 */
export function scopesAboveCeiling(
  client: ClientKind | Record<string, unknown>,
  requested: Iterable<string>,
): string[] {
  const allowed = new Set(typeof client === 'string' ? ceilingOf(client) : requestableScopes(client));
  return [...requested].filter((s) => !allowed.has(s));
}

/**
 * Why `above` (scopes this client may not have, non-empty) is refused, in words an integrator can
 * act on (issue #26: every `invalid_scope` says which scopes the client may ask for; the caller
 * appends the docs link); `memberData` tells whether the refusal is about `account:*` (the docs
 * topic differs).
 * @param may the scopes the client may request (`requestableScopes`); omitted: the kind's ceiling
 */
export function ceilingRefusal(
  kind: ClientKind,
  above: readonly string[],
  may: readonly string[] = ceilingOf(kind),
): { description: string; memberData: boolean } {
  const memberData = kind !== 'member' && above.some((s) => MEMBER_SCOPES.has(s));
  const operatorFromMember = kind === 'member' && above.some((s) => OPERATOR_SCOPES.has(s));
  const why = memberData ? MEMBER_DATA_REFUSAL : CLIENT_KINDS[kind].beyond;
  const picked =
    PICKED.has(kind) && !operatorFromMember && above.every((s) => CLIENT_KINDS[kind].allows(s))
      ? ' (the server operator picked them for this client)'
      : '';
  return {
    description: `scope ${above.join(' ')} is not allowed for this client: ${why}. This client may ask for: ${may.join(' ')}${picked}`,
    memberData,
  };
}

/**
 * The default scope of a client (DESIGN D3).
 * @param metadata the client's metadata (`scope` or `x_default_scope`, `x_client_kind`)
 * @returns a space-delimited scope string (possibly empty)
 */
export function defaultScopeOf(metadata: Record<string, unknown>): string {
  const kind = CLIENT_KINDS[kindOf(metadata)];
  // Loopback and CIMD clients keep their registered scope as `x_default_scope` (DESIGN D2).
  const stored = metadata[DEFAULT_SCOPE_PROPERTY] ?? metadata[ALLOWED_SCOPE_PROPERTY] ?? metadata.scope;
  const registered = typeof stored === 'string' ? [...parseScope(stored)] : ALL_SCOPES;
  return registered.filter((s) => kind.allows(s) && (IDENTITY_SCOPES.has(s) || isReadScope(s))).join(' ');
}
