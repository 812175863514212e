/**
 * Feeds the audit trail (DESIGN D10, src/platform/audit.ts) from oidc-provider's events: token
 * issuance and refreshes (`grant.success`), refused token and authorization requests
 * (`grant.error`, `authorization.error`), revocations (`grant.revoked`) and registrations
 * (`registration_create.success`). Each event names the client, the user and the site of the
 * grant; never a token or code. Recording happens after the response is decided and never fails
 * a request: a store error is logged.
 */
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import type { AuditInput, AuditTrail } from '../platform/audit.js';
import type { SiteChoices } from './account.js';
import { CLIENT_KIND_PROPERTY, CLIENT_ORG_PROPERTY, kindOf } from '../domain/client-kinds.js';
import { clientMetadata } from '../domain/client-metadata.js';

type Entities = Record<string, { accountId?: string; grantId?: string; scope?: string; extra?: Record<string, unknown> } | undefined>;

/** Installs the listeners. */
export function installAuditEvents(provider: Provider, audit: AuditTrail, siteChoices: SiteChoices, logger: Logger): void {
  const save = (input: Promise<AuditInput | undefined>) =>
    input
      .then((event) => (event ? audit.record(event) : undefined))
      .catch((err: unknown) => logger.error({ event: 'audit_failed', err: { message: (err as Error)?.message } }, 'audit event not recorded'));

  const entities = (ctx: KoaContextWithOIDC): Entities => (ctx.oidc?.entities ?? {}) as unknown as Entities;
  /** The member client's own site, else the site recorded for the grant (DESIGN D5). */
  const siteOf = async (ctx: KoaContextWithOIDC, grantId?: string): Promise<string | null> => {
    const client = ctx.oidc?.client;
    const metadata = client ? clientMetadata(client) : undefined;
    if (metadata && kindOf(metadata) === 'member' && typeof metadata[CLIENT_ORG_PROPERTY] === 'string') return metadata[CLIENT_ORG_PROPERTY] as string;
    return (await siteChoices.siteOf(grantId)) ?? null;
  };
  const grantIdOf = (e: Entities) => e.AccessToken?.grantId ?? e.RefreshToken?.grantId ?? e.AuthorizationCode?.grantId ?? e.Grant?.grantId;
  const userOf = (e: Entities) => e.AccessToken?.accountId ?? e.RefreshToken?.accountId ?? e.AuthorizationCode?.accountId ?? e.Account?.accountId ?? null;

  provider.on('grant.success', (ctx: KoaContextWithOIDC) =>
    save(
      (async () => {
        const e = entities(ctx);
        const grantType = String(ctx.oidc.params?.grant_type ?? '');
        const org = e.AccessToken?.extra?.org_id;
        return {
          kind: grantType === 'refresh_token' ? 'refresh' : 'token_issued',
          siteId: typeof org === 'string' ? org : await siteOf(ctx, grantIdOf(e)),
          clientId: ctx.oidc.client?.clientId ?? null,
          userId: userOf(e),
          detail: `grant_type=${grantType}; scope=${e.AccessToken?.scope ?? ''}`,
        } satisfies AuditInput;
      })(),
    ),
  );

  const refused = (where: string) => (ctx: KoaContextWithOIDC, err: { error?: string; error_description?: string }) =>
    save(
      (async () => {
        const e = entities(ctx);
        const siteId = await siteOf(ctx, grantIdOf(e));
        if (!siteId) return undefined; // not attributable to a site: the request log has it
        return { kind: 'refused', siteId, clientId: ctx.oidc?.client?.clientId ?? null, userId: userOf(e), detail: `${where}: ${err.error ?? 'error'}: ${err.error_description ?? ''}` } satisfies AuditInput;
      })(),
    );
  provider.on('grant.error', refused('token endpoint'));
  provider.on('authorization.error', refused('authorization'));

  provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) =>
    save(
      (async () => ({
        kind: 'revocation',
        siteId: await siteOf(ctx, grantId),
        clientId: ctx.oidc?.client?.clientId ?? null,
        userId: userOf(entities(ctx)),
        detail: ctx.oidc?.route === 'revocation' ? 'grant revoked by the client (RFC 7009)' : 'grant revoked: a used refresh token was presented again',
      }) satisfies AuditInput)(),
    ),
  );

  provider.on('registration_create.success', (ctx: KoaContextWithOIDC, client: { clientId: string; metadata(): Record<string, unknown> }) =>
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
