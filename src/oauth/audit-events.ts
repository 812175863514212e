/**
 * Feeds the audit trail (DESIGN D10, src/platform/audit.ts) from oidc-provider's events: token
 * issuance and refreshes (`grant.success`), refused token and authorization requests
 * (`grant.error`, `authorization.error`), revocations (`grant.revoked`, and `access_token.destroyed` at
 * the revocation endpoint, where the grant stays) and registrations
 * (`registration_create.success`). Each event names the client, the user and the site of the
 * grant; never a token or code. Refreshes carry their grant id and are counted, one row per grant
 * and hour (DESIGN D10, src/platform/audit.ts). Recording happens after the response is decided and never fails
 * a request: a store error is logged.
 */
import type Provider from 'oidc-provider';
import type { Client, KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import type { AuditInput, AuditTrail } from '../platform/audit.js';
import type { SiteChoices } from './account.js';
import { CLIENT_KIND_PROPERTY, CLIENT_ORG_PROPERTY, kindOf } from '../domain/client-kinds.js';
import { clientMetadata } from '../domain/client-metadata.js';
import { currentRequest, ROUTE, routeOf } from '../engine/oidc-provider.js';

type Entities = Record<
  string,
  { accountId?: string; grantId?: string; scope?: string; extra?: Record<string, unknown> } | undefined
>;

/** Installs the listeners. */
export function installAuditEvents(
  provider: Provider,
  audit: AuditTrail,
  siteChoices: SiteChoices,
  logger: Logger,
): void {
  const save = (input: Promise<AuditInput | undefined>) =>
    input
      .then((event) => (event ? audit.record(event) : undefined))
      .catch((err: unknown) =>
        logger.error({ event: 'audit_failed', err: { message: (err as Error)?.message } }, 'audit event not recorded'),
      );

  const entities = (ctx: KoaContextWithOIDC): Entities => (ctx.oidc?.entities ?? {}) as unknown as Entities;
  /**
   * The member client's own site, else the site recorded for the grant (DESIGN D5).
   * Takes what it needs of the request, not the request: each listener reads its request
   * synchronously, when the event fires, because the context is emptied once the answer has been
   * written (src/http/release.ts) while this may still be waiting for the store.
   */
  const siteOf = async (client: Client | undefined, grantId?: string): Promise<string | null> => {
    const metadata = client ? clientMetadata(client) : undefined;
    if (metadata && kindOf(metadata) === 'member' && typeof metadata[CLIENT_ORG_PROPERTY] === 'string')
      return metadata[CLIENT_ORG_PROPERTY] as string;
    return (await siteChoices.siteOf(grantId)) ?? null;
  };
  /** A token's site: its `org_id` claim when it carries one (member tokens), else as {@link siteOf}. */
  const tokenSite = async (org: unknown, client: Client | undefined, grantId?: string): Promise<string | null> =>
    typeof org === 'string' ? org : siteOf(client, grantId);
  const grantIdOf = (e: Entities) =>
    e.AccessToken?.grantId ?? e.RefreshToken?.grantId ?? e.AuthorizationCode?.grantId ?? e.Grant?.grantId;
  const userOf = (e: Entities) =>
    e.AccessToken?.accountId ??
    e.RefreshToken?.accountId ??
    e.AuthorizationCode?.accountId ??
    e.Account?.accountId ??
    null;

  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    const e = entities(ctx);
    const client = ctx.oidc.client;
    const grantType = String(ctx.oidc.params?.grant_type ?? '');
    const org = e.AccessToken?.extra?.org_id;
    const fixed = {
      kind: grantType === 'refresh_token' ? 'refresh' : 'token_issued',
      clientId: client?.clientId ?? null,
      userId: userOf(e),
      detail: `grant_type=${grantType}; scope=${e.AccessToken?.scope ?? ''}`,
    } as const;
    const grantId = grantIdOf(e);
    // A refresh is counted on its grant's row of the hour (DESIGN D10); an issuance is a row of its own.
    save(
      (async () =>
        ({ ...fixed, grantId: grantId ?? null, siteId: await tokenSite(org, client, grantId) }) satisfies AuditInput)(),
    );
  });

  const refused = (where: string) => (ctx: KoaContextWithOIDC, err: { error?: string; error_description?: string }) => {
    const e = entities(ctx);
    const client = ctx.oidc?.client;
    const grantId = grantIdOf(e);
    const fixed = {
      kind: 'refused',
      clientId: client?.clientId ?? null,
      userId: userOf(e),
      detail: `${where}: ${err.error ?? 'error'}: ${err.error_description ?? ''}`,
    } as const;
    save(
      (async () => {
        const siteId = await siteOf(client, grantId);
        if (!siteId) return undefined; // not attributable to a site: the request log has it
        return { ...fixed, siteId } satisfies AuditInput;
      })(),
    );
  };
  provider.on('grant.error', refused('token endpoint'));
  provider.on('authorization.error', refused('authorization'));

  provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) => {
    const client = ctx.oidc?.client;
    const fixed = {
      kind: 'revocation',
      clientId: client?.clientId ?? null,
      userId: userOf(entities(ctx)),
      detail:
        routeOf(ctx) === ROUTE.revocation
          ? 'grant revoked by the client (RFC 7009)'
          : 'grant revoked: a used refresh token was presented again',
    } as const;
    save((async () => ({ ...fixed, siteId: await siteOf(client, grantId) }) satisfies AuditInput)());
  });

  // RFC 7009 revocation of an access token: oidc-provider destroys the token and, under its
  // default `revokeGrantPolicy`, keeps the grant, so no `grant.revoked` fires; the revocation is
  // still one (DESIGN D10). Only the revocation endpoint destroys access tokens this way; the
  // request is read from the provider's async context while the event fires.
  provider.on(
    'access_token.destroyed',
    (token: { clientId?: string; accountId?: string; grantId?: string; extra?: Record<string, unknown> }) => {
      const ctx = currentRequest();
      if (!ctx || routeOf(ctx) !== ROUTE.revocation) return;
      const client = ctx.oidc.client;
      const org = token.extra?.org_id;
      const fixed = {
        kind: 'revocation',
        clientId: token.clientId ?? client?.clientId ?? null,
        userId: token.accountId ?? null,
        detail: 'access token revoked by the client (RFC 7009)',
      } as const;
      const grantId = token.grantId;
      save((async () => ({ ...fixed, siteId: await tokenSite(org, client, grantId) }) satisfies AuditInput)());
    },
  );

  provider.on(
    'registration_create.success',
    (_ctx: KoaContextWithOIDC, client: { clientId: string; metadata(): Record<string, unknown> }) =>
      save(
        Promise.resolve({
          kind: 'registration',
          siteId: null,
          clientId: client.clientId,
          detail: `dynamic registration (RFC 7591), kind ${String(clientMetadata(client)[CLIENT_KIND_PROPERTY] ?? 'unknown')}`,
        } satisfies AuditInput),
      ),
  );
}
