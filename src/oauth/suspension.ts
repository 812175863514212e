/**
 * Suspension of member clients (SPEC §5.4, DESIGN §3): while a site's "MCP connections" beta is
 * off, its member clients are suspended, not deleted: they stay listed (as suspended), and
 * switching the beta on again restores them with their grants. While suspended:
 *
 * - authorization requests are refused with a page (`authorizationGuard`, before oidc-provider);
 * - the token endpoint refuses their codes and refresh tokens with `invalid_grant`
 *   (`refuseSuspendedGrant`, called from `findAccount`, before a refresh token is rotated);
 * - their access tokens are unknown to every surface (`hideSuspendedTokens` wraps the provider's
 *   AccessToken/RefreshToken lookup): Bearer → 401 `invalid_token` at /account/graphql, /mcp,
 *   UserInfo and /api/v1; introspection → `{"active": false}`. Revocation still finds them, so a
 *   client may revoke its tokens at any time (RFC 7009).
 *
 * The answer per client is kept for `SUSPENSION_CACHE_MS` (1 s, issue #15: the check ran one
 * platform query per token lookup): a switch made through this process (`PATCH /api/v1/site`, the
 * /admin page) forgets every kept answer, so it is effective at once here; a switch made by another
 * process (or the CLI) is effective everywhere within that second.
 */
import type { Context, Middleware } from 'koa';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from '../platform/schema.js';
import { AccessDenied } from '../errors/catalogue.js';
import { renderHtml } from '../errors/surfaces/html.js';
import { ROUTE, wrapTokenFinders } from '../engine/oidc-provider.js';

/** The site that suspends a client, when it does. */
export interface Suspension {
  siteId: string;
  siteName: string;
}

/** How long an answer of `Suspensions.of` is kept, in milliseconds. */
export const SUSPENSION_CACHE_MS = 1000;
/** Most clients whose answers are kept at once (the map is emptied when it is full). */
const CACHE_ENTRIES = 10_000;

const NOT_SUSPENDED = { suspension: undefined } as const;

/** Answers "is this client a member client of a site whose MCP connections beta is off?". */
export class Suspensions {
  private readonly kept = new Map<
    string,
    { until: number; answer: Promise<Suspension | undefined>; settled?: { suspension: Suspension | undefined } }
  >();

  constructor(private readonly db: Kysely<PlatformDatabase>) {}

  /**
   * The suspending site, or undefined when the client is not suspended (or not a member client).
   * One indexed query, whose answer is kept for `SUSPENSION_CACHE_MS` (a failed query is not kept).
   * @throws what the platform store throws (a store outage)
   */
  of(clientId: string | undefined): Promise<Suspension | undefined> {
    if (!clientId || clientId.length > 200) return Promise.resolve(undefined);
    const now = Date.now();
    const hit = this.kept.get(clientId);
    if (hit && hit.until > now) return hit.answer;
    if (this.kept.size >= CACHE_ENTRIES) this.kept.clear();
    const answer = this.query(clientId);
    const entry: {
      until: number;
      answer: Promise<Suspension | undefined>;
      settled?: { suspension: Suspension | undefined };
    } = { until: now + SUSPENSION_CACHE_MS, answer };
    this.kept.set(clientId, entry);
    answer.then(
      (suspension) => {
        entry.settled = { suspension };
      },
      () => {
        if (this.kept.get(clientId) === entry) this.kept.delete(clientId);
      },
    );
    return answer;
  }

  /**
   * `of`'s answer when it is already known (kept and settled, or no member client can have this
   * id), without waiting a microtask; undefined when `of` must be awaited. Issue #15: every token
   * lookup of every resource request asks.
   */
  known(clientId: string | undefined): { suspension: Suspension | undefined } | undefined {
    if (!clientId || clientId.length > 200) return NOT_SUSPENDED;
    const hit = this.kept.get(clientId);
    return hit && hit.until > Date.now() ? hit.settled : undefined;
  }

  /** Forgets every kept answer (called when a site's "MCP connections" switch changes in this process). */
  forget(): void {
    this.kept.clear();
  }

  private async query(clientId: string): Promise<Suspension | undefined> {
    const row = await this.db
      .selectFrom('oauth_applications')
      .innerJoin('sites', 'sites.id', 'oauth_applications.site_id')
      .select(['sites.id as siteId', 'sites.name as siteName'])
      .where('oauth_applications.client_id', '=', clientId)
      .where('sites.mcp_connections_enabled', '=', 0)
      .executeTakeFirst();
    return row ?? undefined;
  }
}

/** The sentence people and integrators read when a suspended client is refused. */
export const suspendedMessage = (s: Suspension): string =>
  `this application is suspended: ${s.siteName} has switched its "MCP connections" beta feature off. Ask the site's operator to switch it on again.`;

/**
 * The `refuseSuspendedClient` step of the authorization pipeline (src/pipelines/oauth.ts): refuses
 * authorization requests of suspended clients with a page (GET with `client_id` in the query, on
 * route-table row `authorization`).
 */
export function authorizationGuard(suspensions: Suspensions): Middleware {
  return async (ctx: Context, next) => {
    if (
      ctx.method === 'GET' &&
      ctx.state.route?.spec.name === 'authorization' &&
      typeof ctx.query.client_id === 'string'
    ) {
      const suspended = await suspensions.of(ctx.query.client_id);
      if (suspended) return renderHtml(ctx, new AccessDenied(`Sign-in refused: ${suspendedMessage(suspended)}`));
    }
    await next();
  };
}

/**
 * For `findAccount` at the token endpoint: refuses a code or refresh token of a suspended client.
 * @throws `invalid_grant` (400) whose error_description names the site and the switch (oidc-provider's
 *   InvalidGrant would hide it in error_detail behind "grant request is invalid")
 */
export async function refuseSuspendedGrant(suspensions: Suspensions, clientId: string | undefined): Promise<void> {
  const suspended = await suspensions.of(clientId);
  if (suspended) throw new errors.CustomOIDCProviderError('invalid_grant', suspendedMessage(suspended));
}

/**
 * Wraps `AccessToken.find` and `RefreshToken.find` so that tokens of suspended clients are not
 * found, except by revocation (the client may always give up its tokens) and by the token
 * endpoint (which refuses them with a clearer `invalid_grant`, see `refuseSuspendedGrant`).
 */
export function hideSuspendedTokens(provider: Provider, suspensions: Suspensions): void {
  // The finders are patched by the engine seam (src/engine/oidc-provider.ts `wrapTokenFinders`).
  wrapTokenFinders(provider, async (token, route) => {
    if (route === ROUTE.revocation || route === ROUTE.token) return token;
    const known = suspensions.known(token.clientId);
    const suspended = known ? known.suspension : await suspensions.of(token.clientId);
    return suspended ? undefined : token;
  });
}
