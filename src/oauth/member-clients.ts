/**
 * Member clients, the OAuth applications an operator creates in the site's admin area
 * (SPEC §5.4 "Member client", DESIGN D2): public or confidential (a secret shown once at creation
 * and at each rotation), PKCE always, scopes among identity + `account:*`, authorized by anyone
 * with a role at the site. Creation needs the site's "MCP connections" beta.
 *
 * The client metadata lives in the oidc-provider adapter (so any process resolves it); the
 * platform table `oauth_applications` records which site owns which client, for listing.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Adapter } from 'oidc-provider';
import type { PlatformDatabase } from '../platform/schema.js';
import { saveMemberClient } from './clients.js';
import { PlatformError, notFound } from '../platform/errors.js';
import type { MemberClientService, OAuthApplication } from '../domain/applications.js';

/** A confidential client's secret: 32 random bytes, base64url (43 characters). */
const newSecret = (): string => randomBytes(32).toString('base64url');

/** Creates, lists and deletes a site's member clients (SPEC §5.4); the client metadata goes through the OIDC adapter. */
export class MemberClients implements MemberClientService {
  private readonly clients: Adapter;
  constructor(
    private readonly db: Kysely<PlatformDatabase>,
    private readonly AdapterClass: new (name: string) => Adapter,
  ) {
    this.clients = new AdapterClass('Client');
  }

  /** The site's applications, newest first. */
  async list(siteId: string): Promise<OAuthApplication[]> {
    const rows = await this.db
      .selectFrom('oauth_applications')
      .selectAll()
      .where('site_id', '=', siteId)
      .orderBy('created_at', 'desc')
      .execute();
    return Promise.all(
      rows.map(async (r) => {
        const stored = await this.storedOf(r.client_id);
        return {
          clientId: r.client_id,
          clientName: r.client_name,
          redirectUris: JSON.parse(r.redirect_uris) as string[],
          scope: r.scope,
          createdAt: r.created_at,
          confidential: stored.secret !== undefined,
          dpopRequired: stored.dpopRequired,
        };
      }),
    );
  }

  /** What only the stored client metadata says: its secret (undefined for a public client) and whether DPoP is required. */
  private async storedOf(clientId: string): Promise<{ secret?: string; dpopRequired: boolean }> {
    const metadata = (await this.clients.find(clientId)) as
      | { client_secret?: unknown; dpop_bound_access_tokens?: unknown }
      | undefined;
    return {
      secret: typeof metadata?.client_secret === 'string' ? metadata.client_secret : undefined,
      dpopRequired: metadata?.dpop_bound_access_tokens === true,
    };
  }

  /** The stored secret of a client (undefined for a public one). */
  private async secretOf(clientId: string): Promise<string | undefined> {
    return (await this.storedOf(clientId)).secret;
  }

  /** One application of the site. @throws PlatformError `not_found` (also for another site's client) */
  async get(siteId: string, clientId: string): Promise<OAuthApplication> {
    const app = (await this.list(siteId)).find((a) => a.clientId === clientId);
    if (!app) throw notFound('application', clientId);
    return app;
  }

  /**
   * Changes name, redirect URIs and/or scopes (validated by the caller); the secret, if any, stays.
   * Grants already given keep their scopes until revoked.
   * @throws PlatformError `not_found`
   */
  async update(
    siteId: string,
    clientId: string,
    change: { clientName?: string; redirectUris?: string[]; scope?: string; dpopRequired?: boolean },
  ): Promise<OAuthApplication> {
    const app = await this.get(siteId, clientId);
    const next = {
      ...app,
      ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)),
    } as OAuthApplication;
    const secret = await this.secretOf(clientId);
    await saveMemberClient(this.AdapterClass, {
      client_id: clientId,
      client_name: next.clientName,
      site: siteId,
      redirect_uris: next.redirectUris,
      scope: next.scope,
      client_secret: secret,
      dpop_bound_access_tokens: next.dpopRequired,
    });
    await this.db
      .updateTable('oauth_applications')
      .set({ client_name: next.clientName, redirect_uris: JSON.stringify(next.redirectUris), scope: next.scope })
      .where('site_id', '=', siteId)
      .where('client_id', '=', clientId)
      .execute();
    return next;
  }

  /**
   * Replaces a confidential client's secret; the old one stops working at once.
   * @returns the new secret (shown once: it is not shown again)
   * @throws PlatformError `not_found`, `conflict` (a public client has no secret)
   */
  async rotateSecret(
    siteId: string,
    clientId: string,
  ): Promise<{ application: OAuthApplication; clientSecret: string }> {
    const app = await this.get(siteId, clientId);
    if (!app.confidential)
      throw new PlatformError('conflict', 'this application is public (PKCE only): it has no secret to rotate', {
        reason: 'public_client',
      });
    const clientSecret = newSecret();
    await saveMemberClient(this.AdapterClass, {
      client_id: clientId,
      client_name: app.clientName,
      site: siteId,
      redirect_uris: app.redirectUris,
      scope: app.scope,
      client_secret: clientSecret,
      dpop_bound_access_tokens: app.dpopRequired,
    });
    return { application: app, clientSecret };
  }

  /**
   * Creates (or, with an explicit `clientId`, stores) a member client of a site.
   * @param input.scope subset of `MEMBER_CLIENT_SCOPES` (validated by the caller)
   * @param input.confidential true: the client gets a secret (`client_secret_post`)
   * @returns the stored application with its `client_id`, and for a confidential client its
   *   `clientSecret` (shown once: only a rotation gives a new one)
   */
  async create(
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
  ): Promise<OAuthApplication & { clientSecret?: string }> {
    const clientId = input.clientId ?? `mc_${randomBytes(12).toString('base64url')}`;
    const createdAt = new Date().toISOString();
    const clientSecret = input.confidential ? newSecret() : undefined;
    await saveMemberClient(this.AdapterClass, {
      client_id: clientId,
      client_name: input.clientName,
      site: siteId,
      redirect_uris: input.redirectUris,
      scope: input.scope,
      client_secret: clientSecret,
      dpop_bound_access_tokens: input.dpopRequired,
    });
    await this.db
      .insertInto('oauth_applications')
      .values({
        client_id: clientId,
        site_id: siteId,
        client_name: input.clientName,
        redirect_uris: JSON.stringify(input.redirectUris),
        scope: input.scope,
        created_by: createdBy ?? null,
        created_at: createdAt,
      })
      .onConflict((oc) =>
        oc.column('client_id').doUpdateSet({
          client_name: input.clientName,
          redirect_uris: JSON.stringify(input.redirectUris),
          scope: input.scope,
        }),
      )
      .execute();
    return {
      clientId,
      clientName: input.clientName,
      redirectUris: input.redirectUris,
      scope: input.scope,
      createdAt,
      confidential: clientSecret !== undefined,
      dpopRequired: input.dpopRequired === true,
      ...(clientSecret ? { clientSecret } : {}),
    };
  }

  /**
   * Deletes a site's application. Its refresh tokens stop working at once (the client no longer
   * authenticates); access tokens already issued expire within their TTL.
   * @returns false when the site has no such application
   */
  async delete(siteId: string, clientId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('oauth_applications')
      .where('site_id', '=', siteId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await this.clients.destroy(clientId);
    return true;
  }
}
