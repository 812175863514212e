/**
 * Everything coursegate hangs on oidc-provider, declared in one file (issue #9):
 *
 * 1. `declareProviderHooks`: the provider-wide hooks, installed once by the composition root
 *    (src/compose.ts): event listeners (audit trail, connected-app use, loopback clients kept,
 *    metrics, server errors, store outages) and the model wrapper that hides suspended clients'
 *    tokens. (The id_token rule of SPEC §2.2 is `src/oauth/id-token-policy.ts`, applied where the
 *    provider is built.)
 * 2. Named pipeline steps that run around `handToProvider` on the endpoints that need them,
 *    listed by the endpoint pipelines of `src/pipelines/oauth.ts`:
 *    - `completeDiscovery`: discovery names our UserInfo endpoint and, before signing starts
 *      (DESIGN D6 `published`), no id_token signing algorithm;
 *    - `nameIdentityScopes`: RFC 6749 §5.1, the token response's `scope` names the identity scopes
 *      granted too;
 *    (`answerOutageAs503`, src/ops/store-outage.ts: a store outage inside the provider is 503 +
 *    Retry-After, not 500.)
 */
import type Provider from 'oidc-provider';
import type { Adapter, KoaContextWithOIDC } from 'oidc-provider';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Metrics } from '../ops/metrics.js';
import type { AuditTrail } from '../platform/audit.js';
import type { ConnectedGrants } from '../platform/connected-grants.js';
import { IDENTITY_SCOPES, parseScope } from '../domain/scopes.js';
import { PROVIDER_ROUTES } from '../http/route-table.js';
import { hideSuspendedTokens, type Suspensions } from './suspension.js';
import { installAuditEvents } from './audit-events.js';
import { trackGrantUse } from './connections.js';
import type { SiteChoices } from './account.js';
import type { RegistrationSetup } from './registration-setup.js';
import { rememberOutages } from '../ops/store-outage.js';

type Body = Record<string, unknown>;

/** What the provider-wide hooks need (built by src/compose.ts). */
export interface ProviderHookDeps {
  logger: Logger;
  metrics: Metrics;
  suspensions: Suspensions;
  audit: AuditTrail;
  siteChoices: SiteChoices;
  grants: ConnectedGrants;
  registration: Pick<RegistrationSetup, 'keepUsedLoopbackClients'>;
  adapter: new (name: string) => Adapter;
}

/**
 * Installs every provider-wide hook, once per provider:
 * - §3 "MCP connections" switch: suspended clients' access and refresh tokens are not found
 *   (`hideSuspendedTokens`, src/oauth/suspension.ts);
 * - DESIGN D10 audit trail from the provider's events (src/oauth/audit-events.ts);
 * - issue 11 connected apps: each token issuance touches its grant (src/oauth/connections.ts);
 * - SPEC §5.4 loopback clients that got a grant are kept past 24 h (registration-setup.ts);
 * - metrics of issuance and errors; `server_error` logged (type and message only);
 * - issue #14: a `server_error` caused by a store outage is remembered for `answerOutageAs503`.
 */
export function declareProviderHooks(provider: Provider, deps: ProviderHookDeps): void {
  const { logger } = deps;
  hideSuspendedTokens(provider, deps.suspensions);
  installAuditEvents(provider, deps.audit, deps.siteChoices, logger);
  trackGrantUse(provider, deps.grants, (err) =>
    logger.error({ event: 'grant_index_failed', err: { message: (err as Error)?.message } }, 'grant index not updated'),
  );
  deps.registration.keepUsedLoopbackClients(provider, deps.adapter);
  // `req_id` joins the line to the request's access log line and its X-Request-Id answer header.
  provider.on('server_error', (ctx, err) =>
    logger.error(
      { req_id: requestIdOf(ctx), err: { type: err.name, message: err.message } },
      'oidc-provider server_error',
    ),
  );
  rememberOutages(provider);
  deps.metrics.observeProvider(provider);
}

/**
 * The id the edge gave the request (src/app.ts): on our context's state, else on the answer's
 * `X-Request-Id` header, which the engine's context shares (the same Node response).
 */
function requestIdOf(ctx: { state?: object; res?: { getHeader(name: string): unknown } }): string | undefined {
  const id = (ctx.state as { requestId?: unknown } | undefined)?.requestId ?? ctx.res?.getHeader('X-Request-Id');
  return typeof id === 'string' ? id : undefined;
}

/**
 * Step of the discovery pipeline (OIDC Discovery / RFC 8414): `userinfo_endpoint` is ours (served
 * by src/oauth/userinfo.ts), and before signing starts (DESIGN D6) no id_token signing algorithm
 * is announced.
 */
export function completeDiscovery(config: Pick<Config, 'baseUrl'>, signingActive: () => boolean): Middleware {
  const userinfoEndpoint = `${config.baseUrl}${PROVIDER_ROUTES.userinfo}`;
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 200 || !ctx.body || typeof ctx.body !== 'object' || Buffer.isBuffer(ctx.body)) return;
    const body = ctx.body as Body;
    body.userinfo_endpoint = userinfoEndpoint;
    if (!signingActive()) delete body.id_token_signing_alg_values_supported;
  };
}

/**
 * Step of the token pipeline. RFC 6749 §5.1 `scope` names what was granted. With resource
 * indicators oidc-provider answers the access token's (resource) scopes only, so a client that
 * asked for `openid profile email account:read` reads `account:read` and believes the identity
 * scopes were refused, although an id_token came back. This adds the identity scopes the grant
 * holds and the request asked for (the code's or refresh token's scope, or a narrowing `scope`
 * parameter), in both flows.
 */
export const nameIdentityScopes: Middleware = async (ctx, next) => {
  await next();
  const body = ctx.body as Body | undefined;
  if (!body || typeof body !== 'object' || typeof body.access_token !== 'string') return;
  const oidc = (ctx as unknown as Partial<KoaContextWithOIDC>).oidc;
  if (!oidc) return;
  const { entities, params } = oidc;
  const source = entities.AuthorizationCode ?? entities.RefreshToken;
  const grant = entities.Grant;
  if (!source || !grant) return;
  const asked = typeof params?.scope === 'string' ? params.scope : source.scope;
  const granted = parseScope(grant.getOIDCScopeFiltered(parseScope(asked)));
  const identity = [...IDENTITY_SCOPES].filter((s) => granted.has(s));
  const resource = typeof body.scope === 'string' ? [...parseScope(body.scope)] : [];
  const named = [...new Set([...identity, ...resource])];
  if (named.length) body.scope = named.join(' ');
};
