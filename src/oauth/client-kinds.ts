/**
 * Client kinds and their scope ceilings (DESIGN D2, SPEC §2.5 rules 1–3), as one table.
 *
 * The kind is stored on the client as the extra metadata `x_client_kind`; member clients also
 * carry `x_org_id`, the one site they belong to.
 */
import { IDENTITY_SCOPES, MEMBER_SCOPES, OPERATOR_SCOPES, isReadScope } from './scopes.js';

export type ClientKind = 'vendor' | 'loopback' | 'cimd' | 'cimd_reviewed' | 'member';

/** Extra client metadata names registered with oidc-provider (`extraClientMetadata.properties`). */
export const CLIENT_KIND_PROPERTY = 'x_client_kind';
export const CLIENT_ORG_PROPERTY = 'x_org_id';

interface KindRule {
  /** Words shown on the consent page so a person can tell clients apart. */
  label: string;
  /** May the kind ever request this scope? (the integration / operator may narrow it further) */
  allows(scope: string): boolean;
}

/** DESIGN D2, row by row. */
export const CLIENT_KINDS: Readonly<Record<ClientKind, KindRule>> = {
  vendor: { label: 'Verified platform', allows: (s) => IDENTITY_SCOPES.has(s) || OPERATOR_SCOPES.has(s) },
  loopback: { label: 'Application on your computer', allows: (s) => IDENTITY_SCOPES.has(s) || OPERATOR_SCOPES.has(s) },
  cimd: {
    label: 'Application described by its website (not reviewed)',
    allows: (s) => IDENTITY_SCOPES.has(s) || (OPERATOR_SCOPES.has(s) && isReadScope(s)),
  },
  cimd_reviewed: { label: 'Application described by its website (reviewed)', allows: (s) => IDENTITY_SCOPES.has(s) || OPERATOR_SCOPES.has(s) },
  member: { label: 'Site application', allows: (s) => IDENTITY_SCOPES.has(s) || MEMBER_SCOPES.has(s) },
};

/** Reads the kind of a client from its metadata; unknown or missing → `loopback` (the most common self-serve kind). */
export function kindOf(metadata: Record<string, unknown>): ClientKind {
  const kind = metadata[CLIENT_KIND_PROPERTY];
  return typeof kind === 'string' && kind in CLIENT_KINDS ? (kind as ClientKind) : 'loopback';
}

/** The scopes of `requested` that the kind may never have (empty when all are allowed). */
export function scopesAboveCeiling(kind: ClientKind, requested: Iterable<string>): string[] {
  return [...requested].filter((s) => !CLIENT_KINDS[kind].allows(s));
}
