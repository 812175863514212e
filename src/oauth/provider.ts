/**
 * oidc-provider 9 configuration: the protocol engine of coursegate (DESIGN.md §1, D3, D6).
 *
 * What the engine does here, configured not re-implemented: authorization code + PKCE S256
 * (required for every client, SPEC §5.1), resource indicators (RFC 8707, SPEC §5.6), `iss` in the
 * authorization response (RFC 9207), introspection (RFC 7662), revocation (RFC 7009), dynamic
 * registration (RFC 7591), discovery (RFC 8414 / OIDC Discovery), JWKS and ES256 id_tokens.
 *
 * What wraps it: id_token suppression on refresh and in the "JWKS published, signing not started"
 * state (`id-token-policy.ts`, the one place of that rule); the provider's hooks and the steps
 * around its endpoints are declared in `provider-hooks.ts` and `src/pipelines/oauth.ts`.
 */
import Provider, {
  errors,
  type ExternalSigningKey,
  type Configuration,
  type KoaContextWithOIDC,
  type ClientMetadata,
} from 'oidc-provider';
import type { Adapter } from 'oidc-provider';
import type { Config } from '../config.js';
import type { Accounts } from '../platform/accounts.js';
import { begunBeforeCutoff } from '../platform/one-time-links.js';
import type { SiteChoices } from './account.js';
import { CLAIMS_BY_SCOPE, loadClaims } from '../domain/claims.js';
import { ALL_SCOPES, RESOURCE_SCOPES, parseScope } from '../domain/scopes.js';
import {
  ALLOWED_SCOPE_PROPERTY,
  CLIENT_KIND_PROPERTY,
  CLIENT_ORG_PROPERTY,
  DEFAULT_SCOPE_PROPERTY,
  allowListOf,
  ceilingRefusal,
  kindOf,
  requestableScopes,
  scopesAboveCeiling,
  uncageRegisteredScope,
} from '../domain/client-kinds.js';
import { clientMetadata } from '../domain/client-metadata.js';
import { withDocs } from '../http/docs-links.js';
import type { SigningJwk } from './keys.js';
import { HttpError } from '../errors/catalogue.js';
import { renderHtml } from '../errors/surfaces/html.js';
import { refuseSuspendedGrant, type Suspensions } from './suspension.js';
import { PROVIDER_ROUTES } from '../http/route-table.js';
import { logoutPage, signedOutPage } from '../interaction/logout-pages.js';
import { isRefreshGrant, withholdIdTokens } from './id-token-policy.js';
import { ROUTE, routeOf } from '../engine/oidc-provider.js';
import { DPOP_SIGNING_ALGS, requireDpopByKind } from '../domain/dpop.js';

/** What the provider needs from the rest of the process. */
export interface ProviderDeps {
  config: Config;
  accounts: Accounts;
  siteChoices: SiteChoices;
  adapter: new (name: string) => Adapter;
  /** `jwks.keys`: the operator's JWKs, or the key ring's signer (src/oauth/key-ring.ts). */
  signingKeys: Array<SigningJwk | ExternalSigningKey>;
  /** True while id_tokens may be signed (DESIGN D6); default: ID_TOKEN_SIGNING=active. */
  signingActive?: () => boolean;
  cookieKeys: string[];
  /** Extra client-metadata validation at registration (DESIGN D1); throws `InvalidClientMetadata`. */
  validateRegistration?: (ctx: KoaContextWithOIDC, metadata: ClientMetadata) => void;
  /** Client ID Metadata Document hooks (SPEC §5.4); undefined = feature off. */
  clientIdMetadataDocument?: NonNullable<Configuration['features']>['clientIdMetadataDocument'];
  /** Static clients (vendor platforms from config/integrations.yaml, DESIGN D1/D2). */
  staticClients?: ClientMetadata[];
  /** Sets the kind of every client instantiated (static, stored, CIMD); may mutate `metadata`. */
  classifyClient?: (metadata: ClientMetadata) => void;
  /** Member clients suspended by their site's "MCP connections" switch (SPEC §5.4, src/oauth/suspension.ts). */
  suspensions?: Suspensions;
  /** Adds detail to an error description before it is rendered (e.g. why a CIMD fetch failed). Mutates `out`. */
  explainError?: (ctx: KoaContextWithOIDC, out: { error?: unknown; error_description?: unknown }) => void;
  /**
   * DESIGN D13: where an error that oidc-provider would render as a page goes instead (a refused
   * metadata document whose own redirect URI the request names), or undefined to render it.
   */
  redirectRefusal?: (ctx: KoaContextWithOIDC, out: Record<string, unknown>) => string | undefined;
  /** Outbound fetch of the provider (CIMD documents); SSRF guard, see src/oauth/cimd.ts. */
  fetch?: Configuration['fetch'];
  /** 32 bytes keying the token endpoint's DPoP nonces (RFC 9449 §8), the same in every process. */
  dpopNonceSecret: Buffer;
}

/** oidc-provider's paths (SPEC §4.2 plus introspection, JWKS and logout): rows of the route table, src/http/route-table.ts. */
export const ROUTES = PROVIDER_ROUTES;

/**
 * A test "is this absolute URL `base` after WHATWG URL normalization (empty path = `/`)?".
 * `base` is normalized once; the resource indicator every token request names is compared as
 * sent first (issue #15: parsing both URLs cost ~5 µs of a refresh grant) and parsed only when it
 * differs from `base` and from its normalized form.
 */
function sameUrlAs(base: string): (url: string) => boolean {
  const href = new URL(base).href;
  return (url) => {
    if (url === base || url === href) return true;
    return URL.parse(url)?.href === href;
  };
}

function isMemberClient(client: { metadata(): ClientMetadata } | undefined): boolean {
  return !!client && kindOf(clientMetadata(client)) === 'member';
}

/**
 * DESIGN D5 (issue #25 finding 2c): is the browser session of oidc-provider (the `_session` cookie,
 * any store) still the user's? Not when it began (`loginTs`) before the user's last password set
 * or reset, or the user is gone: then its sign-in is forgotten (account, login time and the
 * per-client grant references), under a new session id, so oidc-provider asks to sign in again
 * (`login` prompt, reason `no_session`) instead of resuming as the user.
 */
async function sessionStillValid(
  session: { accountId?: string; loginTs?: number; resetIdentifier(): void },
  accounts: Accounts,
  accountId: string,
): Promise<boolean> {
  const after = await accounts.sessionsValidAfter(accountId);
  // `loginTs` has one-second resolution: a session begun in the cut-off's own second is ended too.
  if (
    after === 0 ||
    (after !== undefined && typeof session.loginTs === 'number' && !begunBeforeCutoff(session.loginTs, after))
  )
    return true;
  // The session proxy refuses to set accountId to undefined; deleting reaches the stored object.
  const stored = session as Record<string, unknown>;
  for (const field of ['accountId', 'loginTs', 'amr', 'acr', 'authorizations']) delete stored[field];
  session.resetIdentifier();
  return false;
}

/**
 * Builds the configured provider.
 * @throws Error when the configuration is rejected by oidc-provider (a programming error)
 */
export function createProvider(deps: ProviderDeps): Provider {
  const { config, accounts } = deps;
  const base = config.baseUrl;
  const isBase = sameUrlAs(base);
  // One request reads a grant's site up to twice (findAccount, extraTokenClaims): remember it.
  const siteCache = new WeakMap<object, Map<string, Promise<string | undefined>>>();
  const siteOfGrant = (ctx: object | undefined, grantId: string | undefined): Promise<string | undefined> => {
    if (!ctx || !grantId) return deps.siteChoices.siteOf(grantId);
    let perRequest = siteCache.get(ctx);
    if (!perRequest) siteCache.set(ctx, (perRequest = new Map()));
    let site = perRequest.get(grantId);
    if (!site) perRequest.set(grantId, (site = deps.siteChoices.siteOf(grantId)));
    return site;
  };

  const configuration: Configuration = {
    adapter: deps.adapter,
    clients: deps.staticClients ?? [],
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    findAccount: async (ctx, accountId, token) => {
      // SPEC §5.4: a suspended member client's code or refresh token is refused (before rotation).
      if (token && deps.suspensions && routeOf(ctx) === ROUTE.token)
        await refuseSuspendedGrant(deps.suspensions, token.clientId);
      // Codes, refresh and access tokens name their grant; the grant names the chosen site.
      const siteId = await siteOfGrant(ctx, token?.grantId);
      // Grant gone, or the user lost every role at the site: oidc-provider answers invalid_grant.
      // DESIGN D5: so is a code or token issued before the user's last password set or reset, or
      // in its second (iat's resolution; the grants themselves are revoked then, with all their
      // tokens, `Connections.revokeAllOf`).
      if (token) {
        const member = siteId ? await accounts.liveMemberAt(accountId, siteId) : undefined;
        if (!member || (typeof token.iat === 'number' && begunBeforeCutoff(token.iat, member.sessionsValidAfter)))
          return undefined;
      } else if (ctx?.oidc?.session && !(await sessionStillValid(ctx.oidc.session, accounts, accountId))) {
        return undefined;
      }
      return {
        accountId,
        async claims(use, scope) {
          // SPEC §2.2: a refresh response carries no id_token, so its claims are never read
          // (src/oauth/id-token-policy.ts): skip the queries.
          if (use === 'id_token' && isRefreshGrant(ctx)) return { sub: accountId };
          const claims = siteId ? await loadClaims(accounts, accountId, siteId, scope) : undefined;
          return (claims ?? { sub: accountId }) as unknown as { sub: string };
        },
      };
    },
    // DESIGN D5: every access token carries the site it reaches (also shown by introspection).
    extraTokenClaims: async (ctx, token) => {
      const siteId = await siteOfGrant(ctx, (token as { grantId?: string }).grantId);
      return siteId ? { org_id: siteId } : undefined;
    },
    claims: { ...CLAIMS_BY_SCOPE } as Configuration['claims'],
    // The same claims go into the id_token whatever the access token's audience (SPEC §2.2).
    conformIdTokenClaims: false,
    scopes: [...ALL_SCOPES],
    responseTypes: ['code'],
    // private_key_jwt: for Client ID Metadata Documents with keys (DESIGN D13); open registration
    // refuses it (registration-policy.ts).
    clientAuthMethods: ['none', 'client_secret_post', 'private_key_jwt'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
      token_endpoint_auth_method: 'none',
    },
    enabledJWA: {
      idTokenSigningAlgValues: ['ES256'],
      // Nothing else is signed or encrypted by the provider; keep every other list minimal.
      requestObjectSigningAlgValues: ['ES256'],
      userinfoSigningAlgValues: ['ES256'],
      introspectionSigningAlgValues: ['ES256'],
      authorizationSigningAlgValues: ['ES256'],
      // RFC 9449 §5.1 `dpop_signing_alg_values_supported`; the resource surfaces accept the same.
      dPoPSigningAlgValues: [...DPOP_SIGNING_ALGS],
    },
    jwks: { keys: deps.signingKeys as unknown as NonNullable<Configuration['jwks']>['keys'] },
    cookies: {
      keys: deps.cookieKeys,
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    pkce: { required: () => true },
    // SPEC §4.2: `state` is required. Checked after the client and redirect_uri are validated, so
    // the error goes back to the client's registered redirect_uri (RFC 6749 §4.1.2.1).
    extraParams: {
      state: (_ctx: KoaContextWithOIDC, value: unknown) => {
        if (typeof value !== 'string' || value.length === 0) {
          throw new errors.InvalidRequest(
            "missing required parameter 'state' (a random string the client checks in the response, against CSRF: RFC 6749 §10.12)",
          );
        }
      },
    },
    // Bodies of what the provider fetches (metadata documents and the JWKS they name) are bounded.
    fetchResponseBodyLimits: {
      'client_id metadata document': 5 * 1024,
      jwks_uri: 64 * 1024,
      sector_identifier_uri: 64 * 1024,
    },
    allowOmittingSingleRegisteredRedirectUri: false,
    routes: { ...ROUTES },
    ttl: {
      AccessToken: config.ttl.accessToken,
      AuthorizationCode: config.ttl.authorizationCode,
      IdToken: config.ttl.idToken,
      RefreshToken: config.ttl.refreshToken,
      Grant: config.ttl.refreshToken,
      Session: config.ttl.session,
      Interaction: 3600,
    },
    rotateRefreshToken: true,
    // DESIGN D3: refresh tokens for every client allowed the grant, independent of offline_access,
    // and tokens that outlive the browser session.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    extraClientMetadata: {
      properties: [CLIENT_KIND_PROPERTY, CLIENT_ORG_PROPERTY, DEFAULT_SCOPE_PROPERTY, ALLOWED_SCOPE_PROPERTY],
      validator(ctx, key, _value, metadata) {
        if (key !== CLIENT_KIND_PROPERTY) return;
        deps.classifyClient?.(metadata);
        if (ctx && routeOf(ctx) === ROUTE.registration) {
          deps.validateRegistration?.(ctx as KoaContextWithOIDC, metadata);
        } else {
          // DESIGN D15: `DPOP_REQUIRED` kinds must send a proof (oidc-provider enforces it per
          // grant); applied in use only, never stored, so changing the setting applies to all.
          requireDpopByKind(metadata, config.dpop.required);
        }
        // oidc-provider validates `scope` after this validator: do it before the scope moves.
        if (
          [...parseScope(typeof metadata.scope === 'string' ? metadata.scope : '')].some((s) => !ALL_SCOPES.includes(s))
        ) {
          throw new errors.InvalidClientMetadata('scope must only contain Authorization Server supported scope values');
        }
        uncageRegisteredScope(metadata);
        allowListOf(metadata);
      },
    },
    interactions: {
      url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
    },
    renderError: async (ctx, out) => {
      deps.explainError?.(ctx, out);
      const redirectTo = deps.redirectRefusal?.(ctx, out as unknown as Record<string, unknown>);
      if (redirectTo) {
        ctx.status = 303;
        ctx.redirect(redirectTo);
        return;
      }
      // The page of the html surface (DESIGN D8), with the status oidc-provider chose.
      renderHtml(
        ctx,
        new HttpError(ctx.status, out.error, out.error_description ?? 'The request could not be completed.'),
      );
    },
    discovery: {
      service_documentation: config.docsUrl,
    },
    features: {
      // The key ring's signer follows the store's active key (DESIGN D6, src/oauth/key-ring.ts).
      ...(deps.signingKeys.some((k) => !('d' in k))
        ? { externalSigningSupport: { enabled: true, ack: 'experimental-01' } }
        : {}),
      devInteractions: { enabled: false },
      // Replaced by our own handler that accepts resource-bound tokens (src/resource/userinfo.ts).
      userinfo: { enabled: false },
      // RFC 7662 / RFC 7009: a client may introspect and revoke only the tokens issued to it.
      // RFC 7662 §2.2: a token the resources would refuse is `active: false`; a user's token
      // counts only while the user still has a role at the token's site (DESIGN D2, the live
      // rule of src/resource/bearer.ts), and a refresh token only if it began after the user's
      // last password set or reset (DESIGN D5, as at the token endpoint).
      introspection: {
        enabled: true,
        allowedPolicy: async (ctx, client, token) => {
          if (token.clientId !== client.clientId) return false;
          if (token.kind === 'ClientCredentials' || !token.accountId) return true;
          const extra = token.kind === 'AccessToken' ? (token.extra as { org_id?: unknown } | undefined) : undefined;
          const siteId = typeof extra?.org_id === 'string' ? extra.org_id : await siteOfGrant(ctx, token.grantId);
          const member = siteId ? await accounts.liveMemberAt(token.accountId, siteId) : undefined;
          if (!member) return false;
          return !(token.kind === 'RefreshToken' && begunBeforeCutoff(token.iat, member.sessionsValidAfter));
        },
      },
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      registration: {
        enabled: true,
        initialAccessToken: false,
        issueRegistrationAccessToken: false,
      },
      rpInitiatedLogout: { enabled: true, logoutSource: logoutPage(base), postLogoutSuccessSource: signedOutPage },
      // RFC 9449 (DESIGN D15): proofs at the token endpoint bind access tokens (`cnf.jkt`) and,
      // for public clients, refresh tokens (§5); a replayed proof is refused (its jti is stored).
      dPoP: {
        enabled: true,
        nonceSecret: deps.dpopNonceSecret,
        requireNonce: () => config.dpop.nonces,
        allowReplay: false,
      },
      pushedAuthorizationRequests: { enabled: false },
      // OpenID RP Metadata Choices: a document listing several auth methods gets the first usable
      // one (`classifyCimdClient` orders them: private_key_jwt with keys, else none).
      rpMetadataChoices: { enabled: true },
      ...(deps.clientIdMetadataDocument ? { clientIdMetadataDocument: deps.clientIdMetadataDocument } : {}),
      resourceIndicators: {
        enabled: true,
        // SPEC §5.6: member tokens must name the resource; other clients default to BASE_URL.
        defaultResource: async (_ctx, client, oneOf) => {
          if (oneOf) return oneOf;
          if (isMemberClient(client)) {
            throw new errors.InvalidTarget(
              withDocs(`a member client must send resource=${base}`, config.docsUrl, 'resource'),
            );
          }
          return base;
        },
        // SPEC §4.2: a member client repeats `resource` at the token endpoint for the code exchange.
        useGrantedResource: async (ctx, model) => {
          if (isMemberClient(ctx.oidc.client) && model.kind === 'AuthorizationCode') {
            throw new errors.InvalidTarget(
              withDocs(
                `repeat resource=${base} at the token endpoint, as sent to the authorization endpoint`,
                config.docsUrl,
                'resource',
              ),
            );
          }
          return true;
        },
        getResourceServerInfo: async (ctx, resourceIndicator, client) => {
          // RFC 3986 §6.2.3: `…:port` and `…:port/` name the same resource; mcp-remote sends the latter.
          if (!isBase(resourceIndicator)) {
            throw new errors.InvalidTarget(
              withDocs(
                `unknown resource: the only protected resource is ${base} (for /mcp and /account/graphql alike)`,
                config.docsUrl,
                'resource',
              ),
            );
          }
          // DESIGN D2: the ceiling of the client's kind, checked at /authorize and at /token.
          const requested = parseScope(ctx.oidc.params?.scope as string | undefined);
          // Member and vendor clients: also the scopes picked for them (issue #26, `allowListOf`).
          const metadata = clientMetadata(client);
          const kind = kindOf(metadata);
          const above = scopesAboveCeiling(metadata, requested);
          if (above.length > 0) {
            const refusal = ceilingRefusal(kind, above, requestableScopes(metadata));
            throw new errors.InvalidScope(
              withDocs(refusal.description, config.docsUrl, refusal.memberData ? 'memberAccess' : 'scopes'),
              above.join(' '),
            );
          }
          return {
            scope: RESOURCE_SCOPES.join(' '),
            audience: base,
            accessTokenTTL: config.ttl.accessToken,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
  };

  const provider = new Provider(base, configuration);
  provider.proxy = config.trustProxy > 0;
  withholdIdTokens(provider, deps.signingActive ?? (() => config.idTokenSigning === 'active'));
  return provider;
}
