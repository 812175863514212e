/**
 * OAuth applications and connected apps as the admin API, `/mcp` and the `/admin` pages see them
 * (SPEC §5.4 "Member client", DESIGN D2; issue 11): the record shapes and the service contracts.
 *
 * The authorization server implements the contracts (`MemberClients` in
 * src/oauth/member-clients.ts, `Connections` in src/oauth/connections.ts: client metadata and
 * grants live in oidc-provider's adapter); the resource servers depend on the contracts only, so
 * `src/resource` never imports `src/oauth` (docs/ARCHITECTURE.md "Layers").
 */
import type { ConnectedGrant } from '../platform/connected-grants.js';
import { IDENTITY_SCOPES, MEMBER_SCOPES } from './scopes.js';

/** Scopes a member client may be given (DESIGN D2, row `member`). */
export const MEMBER_CLIENT_SCOPES: readonly string[] = [...IDENTITY_SCOPES, ...MEMBER_SCOPES];

/** An OAuth application (member client) as the admin API shows it. */
export interface OAuthApplication {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  /** Space-delimited. */
  scope: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  /** True: authenticates at the token endpoint with its secret (`client_secret_post`). */
  confidential: boolean;
  /**
   * True: its token requests must carry a DPoP proof (RFC 9449 §5.2 `dpop_bound_access_tokens`,
   * DESIGN D15), so every token it gets is bound to its key.
   */
  dpopRequired: boolean;
}

/**
 * A site's member clients: create, list, change, rotate the secret of, delete (SPEC §5.4).
 * Every method is scoped to one site; an application of another site is "not found"
 * (`PlatformError` `not_found`), never shown.
 */
export interface MemberClientService {
  /** The site's applications, newest first. */
  list(siteId: string): Promise<OAuthApplication[]>;
  /** @throws PlatformError not_found */
  get(siteId: string, clientId: string): Promise<OAuthApplication>;
  /** @throws PlatformError not_found */
  update(
    siteId: string,
    clientId: string,
    change: { clientName?: string; redirectUris?: string[]; scope?: string; dpopRequired?: boolean },
  ): Promise<OAuthApplication>;
  /** A new secret for a confidential client, shown once. @throws PlatformError not_found / conflict */
  rotateSecret(siteId: string, clientId: string): Promise<{ application: OAuthApplication; clientSecret: string }>;
  /** @returns the application and, for a confidential client, its `clientSecret` (shown once) */
  create(
    siteId: string,
    input: {
      clientName: string;
      redirectUris: string[];
      scope: string;
      clientId?: string;
      confidential?: boolean;
      dpopRequired?: boolean;
    },
    createdBy?: string,
  ): Promise<OAuthApplication & { clientSecret?: string }>;
  /** @returns false when the site has no such application */
  delete(siteId: string, clientId: string): Promise<boolean>;
}

/** A grant (connected app) with what people need to recognise its client. */
export interface Connection extends ConnectedGrant {
  clientName: string;
  /** Label of the client kind (`CLIENT_KINDS`), e.g. "Application on your computer". */
  kindLabel: string;
}

/** Connected apps: the live grants of a site or of a user, and their revocation (issue 11). */
export interface ConnectionService {
  /** Every live grant at a site (optionally of one client). */
  ofSite(siteId: string, clientId?: string): Promise<Connection[]>;
  /** One page of the live grants at a site, newest first, optionally of one client and/or user (issue #29). */
  pageOfSite(
    siteId: string,
    options: { limit: number; cursor?: string; clientId?: string; userId?: string },
  ): Promise<{ items: Connection[]; nextCursor: string | null }>;
  /**
   * How many grants each client holds at a site, with the client's name (issue #29: counted in
   * SQL; the operator overview).
   */
  countsByClient(siteId: string): Promise<Array<{ clientId: string; clientName: string; grants: number }>>;
  /** How many grants of one client a site holds, and from how many distinct members (issue #29: counted in SQL). */
  countOfClient(siteId: string, clientId: string): Promise<{ grants: number; members: number }>;
  /** Every live grant of a user. */
  ofUser(userId: string): Promise<Connection[]>;
  /**
   * Revokes the grants matching `which` among those of `scope` (a site's, or a user's own): every
   * access token, refresh token and code of each grant dies at once.
   * @returns how many grants were revoked (0 when none matched: the caller answers 404)
   */
  revoke(
    scope: { siteId: string } | { userId: string },
    which: { grantId?: string; clientId?: string },
    by: { userId: string; siteIdForAudit?: string },
  ): Promise<number>;
}
