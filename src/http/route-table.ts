/**
 * The route table (DESIGN D7, issue #9): every route the one origin serves — oidc-provider's and
 * ours — with what the request path does before any handler runs: methods, body limit and reader,
 * rate-limit policy and key, authentication kind, and the error surface that renders its failures.
 *
 * A request is resolved against this table **once** (by the edge in `src/app.ts`),
 * with oidc-provider's own matching rules (`lib/helpers/router.js`: case-insensitive, one trailing
 * slash ignored; `@koa/router` matches the same way for our routes), and the result is put on
 * `ctx.state.route`. The body limit and the rate limits read `ctx.state.route`; nothing after this
 * step compares path strings, so `/API/OAUTH/TOKEN/` has exactly the limits of `/api/oauth/token`.
 *
 * Policy is data: to add a route, add a row. A row whose path ends in `/*` declares a family by
 * prefix (e.g. `/api/v1/*`, whose router is generated from per-operation declarations, DESIGN D9).
 */
import { UPLOAD_CEILING_BYTES } from '../platform/files.js';
import { canonicalPath } from '../engine/oidc-provider.js';

/** How a surface renders its errors (one mapper per surface). */
export type Surface =
  /** RFC 6749 §5.2 JSON `{ error, error_description }` (SPEC §7, DESIGN D8). */
  | 'oauth'
  /** RFC 9457 `application/problem+json` (`/api/v1`, DESIGN D9). */
  | 'problem'
  /** GraphQL-over-HTTP errors (`/account/graphql`). */
  | 'graphql'
  /** JSON-RPC 2.0 error objects (`/mcp`). */
  | 'jsonrpc'
  /** Readable HTML pages (interaction pages). */
  | 'html';

/** Who may call a route. */
export type Authentication =
  | { kind: 'none' }
  /** OAuth client authentication at the provider's endpoints (RFC 6749 §2.3). */
  | { kind: 'client' }
  /**
   * RFC 6750 bearer access token. Produces the `authenticateBearer` step (src/pipelines/assemble.ts)
   * that requires `scopes` (403 insufficient_scope) and refuses a request without a token (401):
   * such a row never serves an anonymous caller. `challengeScope`: the scope its 401s name when
   * `scopes` is empty (DESIGN D4; UserInfo: `openid`). `anonymous`: requests without a token are
   * served too, and the family's own step reads the token (`/mcp`: the scope hint depends on the
   * called tool), so no step is produced.
   */
  | { kind: 'bearer'; scopes?: readonly string[]; challengeScope?: string; anonymous?: boolean }
  /** oidc-provider interaction session cookie + the signed CSRF field of the form. */
  | { kind: 'interaction' }
  /** The people's pages' signed session cookie (src/operator/session.ts) + the CSRF field of their forms. */
  | { kind: 'session' };

/** The `auth` value of a bearer row. */
export type BearerAuthentication = Extract<Authentication, { kind: 'bearer' }>;

/** The configured limits of DESIGN D7 (`config.rateLimits` keys). */
export type LimitName = 'token' | 'revocation' | 'introspection' | 'registration' | 'loginFailures';

/**
 * A rate-limit policy (DESIGN D7). Each produces one step of the row's pipeline
 * (src/pipelines/assemble.ts). `key`:
 * - `client+ip` (step `limitByClient`): the client_id (HTTP Basic user or `client_id` field of the
 *   form, read before the handler) together with the address, and (with `clientCeiling`) a
 *   client-wide ceiling of `CLIENT_CEILING_FACTOR` × the points;
 * - `ip` (step `limitByIp`): the client address alone, the body is not read;
 * - `account+ip` with `on: 'failure'` (step `offerFailureCount`): nothing is counted before the
 *   handler; the handler gets a reserve/release pair (`failureCountOf`, src/http/failure-count.ts)
 *   and reserves a point for the account of its form before the password check, giving it back
 *   when the check succeeds.
 */
export interface RateLimitPolicy {
  limit: LimitName;
  key: 'client+ip' | 'ip' | 'account+ip';
  /** Only these methods are counted. */
  methods: readonly string[];
  clientCeiling?: boolean;
  on?: 'request' | 'failure';
}

/**
 * Who reads the request body, under `limit` bytes:
 * - `buffer`: the body step reads it (also when chunked) and leaves it on `req.body`;
 * - `handler`: the route's handler reads it with the same limit and its own surface's 413
 *   (registration policy, interaction forms, admin API JSON, `/mcp`'s JSON-RPC 413).
 */
export interface BodyPolicy {
  limit: number;
  reader: 'buffer' | 'handler';
  /** The handler answers 413 itself, also for a declared Content-Length (`/mcp`: JSON-RPC shape). */
  ownTooLarge?: boolean;
}

/** One row of the table. */
export interface RouteSpec {
  /** Stable name (oidc-provider's route names for its routes). */
  name: string;
  /** `/a/b`, `/a/:param`, or a family `/a/*`. */
  path: string;
  methods: readonly string[];
  /**
   * `provider`: served by oidc-provider; the pipeline gets the provider prelude
   * (`answerOutageAs503`, `explainMetadataFailure`) and postlude (`handToProvider`) from this
   * column. `app`: by our steps alone.
   */
  owner: 'provider' | 'app';
  surface: Surface;
  auth: Authentication;
  /** Undefined: the route takes no body (the default 64 KiB declared-length cap still applies). */
  body?: BodyPolicy;
  rateLimit?: RateLimitPolicy;
  /**
   * `operator`: the row serves operators (`/api/v1`, `/admin`); its requests take their share of
   * the event loop while other requests are in flight (`OPERATOR_LOOP_SHARE`, issue #29,
   * src/http/operator-share.ts): the column produces the `shareLoop` step. Undefined: token traffic
   * and everything else, never held.
   */
  loop?: 'operator';
  /**
   * `:param` segments whose values the access log may show (issue #25 finding 4). Every other
   * param is logged as its placeholder (`/invitations/:token`): a param is presumed to be a
   * one-time secret unless its row says otherwise, so a new route is covered without a change here.
   */
  loggedParams?: readonly string[];
}

/** The route matched for a request, on `ctx.state.route`. */
export interface ResolvedRoute {
  spec: RouteSpec;
  /** Values of `:param` segments (as sent, case kept). */
  params: Record<string, string>;
}

declare module 'koa' {
  interface DefaultState {
    /** The route-table row of this request (undefined: no route, 404). */
    route?: ResolvedRoute;
    /** When the edge received the request (`performance.now()` ms; src/app.ts). */
    startedAt?: number;
  }
}

/** Largest accepted request body, in bytes (DESIGN D7). */
export const MAX_BODY_BYTES = 64 * 1024;

/** The client-wide ceiling of a `client+ip` limit, as a multiple of its per-address points. */
export const CLIENT_CEILING_FACTOR = 10;

/** The paths oidc-provider serves (its `routes` configuration, DESIGN §1). */
export const PROVIDER_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/api/oauth/token',
  userinfo: '/api/oauth/userinfo',
  revocation: '/api/oauth/revoke',
  registration: '/api/oauth/register',
  introspection: '/api/oauth/introspect',
  jwks: '/.well-known/jwks.json',
  end_session: '/api/oauth/logout',
} as const;

const none = { kind: 'none' } as const;
const client = { kind: 'client' } as const;
const interaction = { kind: 'interaction' } as const;
const session = { kind: 'session' } as const;
const buffered: BodyPolicy = { limit: MAX_BODY_BYTES, reader: 'buffer' };
const handled: BodyPolicy = { limit: MAX_BODY_BYTES, reader: 'handler' };
/** Small forms (a password and a CSRF field): 16 KiB. */
const smallForm: BodyPolicy = { limit: 16 * 1024, reader: 'handler' };
const POST = ['POST'] as const;
const GET = ['GET', 'HEAD'] as const;
const GET_POST = ['GET', 'HEAD', 'POST'] as const;

/** Every route of the origin. Order matters only among patterns (first match wins). */
export const ROUTE_TABLE: readonly RouteSpec[] = [
  // oidc-provider (lib/helpers/initialize_app.js), DESIGN §1
  {
    name: 'discovery',
    path: '/.well-known/openid-configuration',
    methods: GET,
    owner: 'provider',
    surface: 'oauth',
    auth: none,
  },
  {
    name: 'discovery',
    path: '/.well-known/oauth-authorization-server',
    methods: GET,
    owner: 'provider',
    surface: 'oauth',
    auth: none,
  },
  { name: 'jwks', path: PROVIDER_ROUTES.jwks, methods: GET, owner: 'provider', surface: 'oauth', auth: none },
  // GET only (SPEC §4.2 "GET (browser redirect)"): oidc-provider serves POST here and at end_session
  // only with `enableHttpPostMethods`, which requires SameSite=None session cookies; ours stay Lax.
  {
    name: 'authorization',
    path: PROVIDER_ROUTES.authorization,
    methods: GET,
    owner: 'provider',
    surface: 'oauth',
    auth: none,
  },
  {
    name: 'resume',
    path: `${PROVIDER_ROUTES.authorization}/:uid`,
    methods: GET,
    owner: 'provider',
    surface: 'oauth',
    auth: none,
    loggedParams: ['uid'],
  },
  {
    name: 'token',
    path: PROVIDER_ROUTES.token,
    methods: POST,
    owner: 'provider',
    surface: 'oauth',
    auth: client,
    body: buffered,
    rateLimit: { limit: 'token', key: 'client+ip', methods: POST, clientCeiling: true },
  },
  {
    name: 'revocation',
    path: PROVIDER_ROUTES.revocation,
    methods: POST,
    owner: 'provider',
    surface: 'oauth',
    auth: client,
    body: buffered,
    rateLimit: { limit: 'revocation', key: 'client+ip', methods: POST, clientCeiling: true },
  },
  {
    name: 'introspection',
    path: PROVIDER_ROUTES.introspection,
    methods: POST,
    owner: 'provider',
    surface: 'oauth',
    auth: client,
    body: buffered,
    rateLimit: { limit: 'introspection', key: 'client+ip', methods: POST, clientCeiling: true },
  },
  {
    // DESIGN D1: src/oauth/registration-policy.ts reads the JSON body and decides the row.
    name: 'registration',
    path: PROVIDER_ROUTES.registration,
    methods: POST,
    owner: 'provider',
    surface: 'oauth',
    auth: none,
    body: handled,
    rateLimit: { limit: 'registration', key: 'ip', methods: POST },
  },
  {
    name: 'client',
    path: `${PROVIDER_ROUTES.registration}/:clientId`,
    methods: GET,
    owner: 'provider',
    surface: 'oauth',
    auth: client,
    loggedParams: ['clientId'],
  },
  {
    name: 'end_session',
    path: PROVIDER_ROUTES.end_session,
    methods: GET,
    owner: 'provider',
    surface: 'oauth',
    auth: none,
  },
  {
    name: 'end_session_confirm',
    path: `${PROVIDER_ROUTES.end_session}/confirm`,
    methods: POST,
    owner: 'provider',
    surface: 'oauth',
    auth: none,
    body: buffered,
  },
  {
    name: 'end_session_success',
    path: `${PROVIDER_ROUTES.end_session}/success`,
    methods: GET,
    owner: 'provider',
    surface: 'oauth',
    auth: none,
  },

  // Ours, served by @koa/router (same matching rules).
  {
    name: 'userinfo',
    path: PROVIDER_ROUTES.userinfo,
    methods: GET_POST,
    owner: 'app',
    surface: 'oauth',
    auth: { kind: 'bearer', challengeScope: 'openid' },
    body: buffered,
  },
  {
    name: 'account_graphql',
    path: '/account/graphql',
    methods: GET_POST,
    owner: 'app',
    surface: 'graphql',
    auth: { kind: 'bearer', scopes: ['account:read'] },
    body: buffered,
  },
  // The schema as SDL (docs/account-api.graphql), public: the contract clients build against.
  {
    name: 'account_graphql_schema',
    path: '/account/graphql/schema.graphql',
    methods: GET,
    owner: 'app',
    surface: 'graphql',
    auth: none,
  },
  {
    name: 'mcp',
    path: '/mcp',
    methods: ['GET', 'POST', 'DELETE'],
    owner: 'app',
    surface: 'jsonrpc',
    auth: { kind: 'bearer', anonymous: true },
    body: { ...handled, ownTooLarge: true },
  },
  // Issue #10: uploads (multipart/form-data, read by busboy under UPLOAD_MAX_BYTES) and their URLs.
  {
    name: 'admin_api_files',
    path: '/api/v1/files',
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    owner: 'app',
    surface: 'problem',
    auth: { kind: 'bearer' },
    loop: 'operator',
    body: { limit: UPLOAD_CEILING_BYTES, reader: 'handler' },
  },
  { name: 'file', path: '/files/:id', methods: GET, owner: 'app', surface: 'oauth', auth: none, loggedParams: ['id'] },
  {
    name: 'admin_api',
    path: '/api/v1/*',
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    owner: 'app',
    surface: 'problem',
    auth: { kind: 'bearer' },
    loop: 'operator',
    body: handled,
  },
  {
    name: 'interaction',
    path: '/interaction/:uid',
    methods: GET,
    owner: 'app',
    surface: 'html',
    auth: interaction,
    loggedParams: ['uid'],
  },
  {
    name: 'login',
    path: '/interaction/:uid/login',
    methods: POST,
    owner: 'app',
    surface: 'html',
    auth: interaction,
    body: handled,
    loggedParams: ['uid'],
    rateLimit: { limit: 'loginFailures', key: 'account+ip', methods: POST, on: 'failure' },
  },
  {
    name: 'site_choice',
    path: '/interaction/:uid/site',
    methods: POST,
    owner: 'app',
    surface: 'html',
    auth: interaction,
    body: handled,
    loggedParams: ['uid'],
  },
  {
    name: 'consent',
    path: '/interaction/:uid/consent',
    methods: POST,
    owner: 'app',
    surface: 'html',
    auth: interaction,
    body: handled,
    loggedParams: ['uid'],
  },
  // DESIGN D5: the one-time invitation link (src/interaction/invitations.ts); the password check reserves a login-failure point.
  {
    name: 'invitation',
    path: '/invitations/:token',
    methods: GET_POST,
    owner: 'app',
    surface: 'html',
    auth: none,
    body: smallForm,
    rateLimit: { limit: 'loginFailures', key: 'account+ip', methods: POST, on: 'failure' },
  },
  // People's pages (issue 11, DESIGN D11): home, sign-in, connected apps, one-time links, /admin.
  { name: 'home', path: '/', methods: GET, owner: 'app', surface: 'html', auth: none },
  {
    name: 'signin',
    path: '/signin',
    methods: GET_POST,
    owner: 'app',
    surface: 'html',
    auth: none,
    body: handled,
    rateLimit: { limit: 'loginFailures', key: 'account+ip', methods: POST, on: 'failure' },
  },
  // GET: the sign-out page the error and consent pages link to (issue 30); POST ends the session.
  { name: 'signout', path: '/signout', methods: GET_POST, owner: 'app', surface: 'html', auth: session, body: handled },
  {
    name: 'set_password',
    path: '/set-password',
    methods: GET_POST,
    owner: 'app',
    surface: 'html',
    auth: none,
    body: smallForm,
  },
  {
    name: 'account_connections',
    path: '/account/connections',
    methods: GET,
    owner: 'app',
    surface: 'html',
    auth: session,
  },
  // GET: the confirmation page (issue 30); POST revokes.
  {
    name: 'account_connections_revoke',
    path: '/account/connections/revoke',
    methods: GET_POST,
    owner: 'app',
    surface: 'html',
    auth: session,
    body: handled,
  },
  { name: 'admin', path: '/admin', methods: GET, owner: 'app', surface: 'html', auth: session, loop: 'operator' },
  {
    name: 'admin_pages',
    path: '/admin/*',
    methods: GET_POST,
    owner: 'app',
    surface: 'html',
    auth: session,
    loop: 'operator',
    body: handled,
  },
  // One resource, BASE_URL: no path-suffixed metadata documents (RFC 9728 §3.3; docs/mcp.md).
  {
    name: 'protected_resource_metadata',
    path: '/.well-known/oauth-protected-resource',
    methods: GET,
    owner: 'app',
    surface: 'oauth',
    auth: none,
  },
  // The developer docs error descriptions link to (DOCS_URL default, src/http/docs-links.ts).
  { name: 'docs', path: '/docs', methods: GET, owner: 'app', surface: 'html', auth: none },
  {
    name: 'docs_page',
    path: '/docs/:page',
    methods: GET,
    owner: 'app',
    surface: 'html',
    auth: none,
    loggedParams: ['page'],
  },
  {
    name: 'docs_image',
    path: '/docs/img/:file',
    methods: GET,
    owner: 'app',
    surface: 'html',
    auth: none,
    loggedParams: ['file'],
  },
  {
    name: 'scope_map',
    path: '/.well-known/coursegate-scope-map.json',
    methods: GET,
    owner: 'app',
    surface: 'oauth',
    auth: none,
  },
  { name: 'openapi', path: '/openapi.json', methods: GET, owner: 'app', surface: 'oauth', auth: none },
  { name: 'stylesheet', path: '/assets/coursegate.css', methods: GET, owner: 'app', surface: 'oauth', auth: none },
  // Issue 30 item 9: browsers ask for it on every first visit; a small SVG icon, not a 404.
  { name: 'favicon', path: '/favicon.ico', methods: GET, owner: 'app', surface: 'oauth', auth: none },
  { name: 'healthz', path: '/healthz', methods: GET, owner: 'app', surface: 'oauth', auth: none },
  { name: 'readyz', path: '/readyz', methods: GET, owner: 'app', surface: 'oauth', auth: none },
  { name: 'metrics', path: '/metrics', methods: GET, owner: 'app', surface: 'oauth', auth: none },
];

// oidc-provider's router matching, copied in the engine seam (src/engine/oidc-provider.ts).
export { canonicalPath };

interface Pattern {
  spec: RouteSpec;
  /** Upper-case segments; `:name` params; a final `*` matches one or more further segments. */
  segments: string[];
}

/** A compiled table: exact paths in a map, patterns tried in order. */
export class RouteTable {
  private readonly exact = new Map<string, RouteSpec>();
  private readonly patterns: Pattern[] = [];

  constructor(readonly specs: readonly RouteSpec[] = ROUTE_TABLE) {
    for (const spec of specs) {
      if (spec.path.includes('/:') || spec.path.endsWith('/*')) {
        this.patterns.push({
          spec,
          segments: spec.path
            .split('/')
            .slice(1)
            .map((s) => (s.startsWith(':') ? s : s.toUpperCase())),
        });
      } else if (!this.exact.has(canonicalPath(spec.path))) {
        this.exact.set(canonicalPath(spec.path), spec);
      }
    }
  }

  /**
   * The row serving `path` (undefined: none). Case-insensitive, one trailing slash ignored, as
   * oidc-provider's router; `:param` values keep their case.
   */
  resolve(path: string): ResolvedRoute | undefined {
    const canonical = canonicalPath(path);
    const hit = this.exact.get(canonical);
    if (hit) return { spec: hit, params: {} };
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const given = trimmed.split('/').slice(1);
    const upper = canonical.split('/').slice(1);
    for (const { spec, segments } of this.patterns) {
      const family = segments[segments.length - 1] === '*';
      if (family ? upper.length < segments.length : upper.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segments.length && ok; i++) {
        const seg = segments[i]!;
        if (seg === '*') break;
        if (seg.startsWith(':')) {
          if (given[i] === '') ok = false;
          else params[seg.slice(1)] = given[i]!;
        } else if (seg !== upper[i]) ok = false;
      }
      if (ok) return { spec, params };
    }
    return undefined;
  }
}

/**
 * `RouteTable.resolve` as a middleware of its own (the app's edge, src/app.ts, calls `resolve`
 * directly; this form is for apps built in tests): puts the route on `ctx.state.route` (undefined
 * when no row matches; the request then ends in a 404).
 */
export function resolveRoute(
  table: RouteTable = new RouteTable(),
): (ctx: { path: string; state: { route?: ResolvedRoute } }, next: () => Promise<unknown>) => Promise<unknown> {
  return (ctx, next) => {
    ctx.state.route = table.resolve(ctx.path);
    return next();
  };
}

/** A path segment this long, of a path no row serves, may be a secret typed into a wrong URL. */
const LONG_SEGMENT = 20;

/**
 * The path as the access log shows it (issue #25 finding 4: no one-time secret of a URL reaches a
 * log). The query string is never part of it. A row's `:param` segments are written as their
 * placeholder (`/invitations/:token`) unless the row lists the param in `loggedParams`; a family
 * row (`/api/v1/*`, `/admin/*`) carries no secret in its path and is logged as sent; a path no
 * row serves has every segment of 20 characters or more written as `:redacted`.
 * @param path the request path (`ctx.path`, without the query)
 * @param route the row `path` resolved to (undefined: none)
 */
export function loggedPath(path: string, route: ResolvedRoute | undefined): string {
  if (!route)
    return path
      .split('/')
      .map((s) => (s.length >= LONG_SEGMENT ? ':redacted' : s))
      .join('/');
  const names = Object.keys(route.params);
  if (names.length === 0) return path;
  const shown = route.spec.loggedParams ?? [];
  const segments = route.spec.path.split('/');
  const given = path.split('/');
  return segments
    .map((s, i) => (s.startsWith(':') ? (shown.includes(s.slice(1)) ? (given[i] ?? s) : s) : (given[i] ?? s)))
    .join('/');
}
