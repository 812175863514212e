/**
 * Member clients, the OAuth applications an operator creates in the site's admin area
 * (SPEC §5.4 "Member client", DESIGN D2): public, PKCE, scopes among identity + `account:*`,
 * authorized by anyone with a role at the site. Creation needs the site's "MCP connections" beta.
 *
 * The client metadata lives in the oidc-provider adapter (so any process resolves it); the
 * platform table `oauth_applications` records which site owns which client, for listing.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Adapter } from 'oidc-provider';
import type { PlatformDatabase } from '../platform/schema.js';
import { saveMemberClient } from './clients.js';
import { IDENTITY_SCOPES, MEMBER_SCOPES } from './scopes.js';

/** An OAuth application as the admin API shows it. */
export interface OAuthApplication {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  /** Space-delimited. */
  scope: string;
  /** ISO 8601 UTC. */
  createdAt: string;
}

/** Scopes a member client may be given (DESIGN D2, row `member`). */
export const MEMBER_CLIENT_SCOPES: readonly string[] = [...IDENTITY_SCOPES, ...MEMBER_SCOPES];

/** Creates, lists and deletes a site's member clients (SPEC §5.4); the client metadata goes through the OIDC adapter. */
export class MemberClients {
  private readonly clients: Adapter;
  constructor(
    private readonly db: Kysely<PlatformDatabase>,
    private readonly AdapterClass: new (name: string) => Adapter,
  ) {
    this.clients = new AdapterClass('Client');
  }

  /** The site's applications, newest first. */
  async list(siteId: string): Promise<OAuthApplication[]> {
    const rows = await this.db.selectFrom('oauth_applications').selectAll().where('site_id', '=', siteId).orderBy('created_at', 'desc').execute();
    return rows.map((r) => ({
      clientId: r.client_id,
      clientName: r.client_name,
      redirectUris: JSON.parse(r.redirect_uris) as string[],
      scope: r.scope,
      createdAt: r.created_at,
    }));
  }

  /**
   * Creates (or, with an explicit `clientId`, stores) a member client of a site.
   * @param input.scope subset of `MEMBER_CLIENT_SCOPES` (validated by the caller)
   * @returns the stored application with its `client_id`
   */
  async create(
    siteId: string,
    input: { clientName: string; redirectUris: string[]; scope: string; clientId?: string },
    createdBy?: string,
  ): Promise<OAuthApplication> {
    const clientId = input.clientId ?? `mc_${randomBytes(12).toString('base64url')}`;
    const createdAt = new Date().toISOString();
    await saveMemberClient(this.AdapterClass, { client_id: clientId, client_name: input.clientName, site: siteId, redirect_uris: input.redirectUris, scope: input.scope });
    await this.db
      .insertInto('oauth_applications')
      .values({ client_id: clientId, site_id: siteId, client_name: input.clientName, redirect_uris: JSON.stringify(input.redirectUris), scope: input.scope, created_by: createdBy ?? null, created_at: createdAt })
      .onConflict((oc) => oc.column('client_id').doUpdateSet({ client_name: input.clientName, redirect_uris: JSON.stringify(input.redirectUris), scope: input.scope }))
      .execute();
    return { clientId, clientName: input.clientName, redirectUris: input.redirectUris, scope: input.scope, createdAt };
  }

  /**
   * Deletes a site's application. Its refresh tokens stop working at once (the client no longer
   * authenticates); access tokens already issued expire within their TTL.
   * @returns false when the site has no such application
   */
  async delete(siteId: string, clientId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('oauth_applications').where('site_id', '=', siteId).where('client_id', '=', clientId).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await this.clients.destroy(clientId);
    return true;
  }
}
