/**
 * The engine seam (issue #27 part 3): everything coursegate relies on inside oidc-provider that is
 * not its documented configuration, in one module. Every patch is installed here, every route
 * name compared with `ctx.oidc.route` is a constant here, and every assumption is stated again,
 * against the installed package, by test/unit/engine-contract.test.ts. Upgrading oidc-provider is:
 * change the exact version in package.json, run that test, fix this file.
 *
 * What we rely on (each with the test that states it):
 * 1. Route names (`ctx.oidc.route`): `ROUTE` (token, revocation, registration, …); our route
 *    table names the provider's rows by them (src/http/route-table.ts).
 * 2. The request's context from anywhere in a request: `Provider.ctx` (its AsyncLocalStorage),
 *    read by `currentRequest()` (adapter wrapper, events, patched finders).
 * 3. `IdToken.prototype.issue(...)`: patched by `patchIdTokenIssue` (SPEC §2.2, DESIGN D6; the
 *    policy is src/oauth/id-token-policy.ts); returning undefined leaves `id_token` out.
 * 4. `AccessToken.find` / `RefreshToken.find` (static, `(value, options)`): wrapped by
 *    `wrapTokenFinders` (SPEC §5.4 suspension, src/oauth/suspension.ts).
 * 5. The refresh_token grant's adapter calls, in `REFRESH_GRANT_CALLS` order (lib/actions/grants/
 *    refresh_token.js): the rotation wrapper (src/oauth/refresh-rotation.ts) defers `consume` to
 *    the successor's `upsert` and that to the access token's `upsert`.
 * 6. `ctx.oidc` is an own getter defined per request (lib/helpers/initialize_app.js `ensureOIDC`),
 *    whose `OIDCContext` may be emptied once the answer finished: `releaseOidcContext`
 *    (src/http/release.ts, issue #15).
 * 7. The router's matching (lib/helpers/router.js: case-insensitive, one trailing slash ignored):
 *    copied by `canonicalPath`, used by our route table so that every spelling has one row.
 * 8. Rendered answers we rewrite after the provider answered: JSON bodies of the token endpoint
 *    (`scope`, src/oauth/provider-hooks.ts `nameIdentityScopes`), of discovery
 *    (`completeDiscovery`) and errors whose description is `CIMD_FETCH_FAILED`
 *    (src/oauth/cimd.ts `explainCimdFailure`).
 */
import Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';

/** The oidc-provider version these assumptions were checked against (package.json pins it). */
export const ENGINE_VERSION = '9.13.3';

/** oidc-provider's route names (`ctx.oidc.route`), as we compare them. */
export const ROUTE = {
  authorization: 'authorization',
  resume: 'resume',
  token: 'token',
  revocation: 'revocation',
  introspection: 'introspection',
  registration: 'registration',
  client: 'client',
  jwks: 'jwks',
  discovery: 'discovery',
  end_session: 'end_session',
  end_session_confirm: 'end_session_confirm',
  end_session_success: 'end_session_success',
} as const;

/** One of oidc-provider's route names. */
export type EngineRoute = (typeof ROUTE)[keyof typeof ROUTE];

/** The route oidc-provider is serving `ctx` on (undefined: not one of its routes, or no context). */
export function routeOf(ctx: object | undefined): string | undefined {
  return (ctx as { oidc?: { route?: string } } | undefined)?.oidc?.route;
}

/** The request oidc-provider is serving right now, from anywhere inside it (its AsyncLocalStorage). */
export function currentRequest(): KoaContextWithOIDC | undefined {
  return (Provider as unknown as { ctx?: KoaContextWithOIDC }).ctx;
}

/** The adapter calls of one refresh_token grant, in order, that the rotation wrapper relies on. */
export const REFRESH_GRANT_CALLS = [
  'RefreshToken.find',
  'RefreshToken.consume',
  'RefreshToken.upsert',
  'AccessToken.upsert',
] as const;

/** The error_description oidc-provider gives a Client ID Metadata Document it could not fetch. */
export const CIMD_FETCH_FAILED = 'client_id metadata document fetch failed';

type IssueThis = { ctx?: KoaContextWithOIDC };

/**
 * Patches `IdToken.prototype.issue` of this provider: where `withhold(ctx)` is true the id_token
 * is never signed and `issue` resolves undefined (oidc-provider then leaves it out of the JSON).
 * @param withhold the rule (SPEC §2.2, DESIGN D6: src/oauth/id-token-policy.ts)
 */
export function patchIdTokenIssue(
  provider: Provider,
  withhold: (ctx: KoaContextWithOIDC | undefined) => boolean,
): void {
  const IdToken = provider.IdToken as unknown as {
    prototype: { issue(this: IssueThis, ...args: unknown[]): Promise<string | undefined> };
  };
  const issue = IdToken.prototype.issue;
  IdToken.prototype.issue = async function withheld(this: IssueThis, ...args: unknown[]) {
    if (withhold(this.ctx)) return undefined;
    return issue.apply(this, args);
  };
}

/** A token as the finders answer it (the fields the wrappers read). */
export interface FoundToken {
  clientId?: string;
}

/**
 * Wraps the static `find(value, options)` of `AccessToken` and `RefreshToken`: `keep` sees each
 * token found and the route of the request, and answers it or undefined (not found).
 * @param keep e.g. SPEC §5.4: tokens of a suspended client are not found (src/oauth/suspension.ts)
 */
export function wrapTokenFinders(
  provider: Provider,
  keep: <T extends FoundToken>(token: T, route: string | undefined) => Promise<T | undefined>,
): void {
  type Finder = { find(value: string, options?: unknown): Promise<FoundToken | undefined> };
  for (const model of [provider.AccessToken, provider.RefreshToken] as unknown as Finder[]) {
    const find = model.find.bind(model);
    model.find = async (value, options) => {
      const token = await find(value, options);
      return token ? keep(token, routeOf(currentRequest())) : token;
    };
  }
}

/**
 * Empties the `OIDCContext` oidc-provider defined on `ctx` (own properties set to undefined), if
 * any: its getter is a closure V8 keeps in old space (src/http/release.ts, issue #15).
 */
export function releaseOidcContext(ctx: object, empty: (o: object) => void): void {
  // `oidc` is non-enumerable and present on the provider's routes only; reading it builds the
  // OIDCContext when the route never did, a small object, cheaper than telling the cases apart.
  if (!Object.hasOwn(ctx, 'oidc')) return;
  const oidc = (ctx as { oidc?: object }).oidc;
  if (oidc) empty(oidc);
}

/**
 * Canonical form of a path under oidc-provider's router (lib/helpers/router.js): one trailing
 * slash dropped, upper case (it matches case-insensitively).
 */
export function canonicalPath(path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.toUpperCase();
}

/** A line oidc-provider writes with `console.warn` / `console.info` (lib/helpers/attention.js), colours optional. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: on a TTY oidc-provider colours its lines with ANSI escapes (ESC)
const ENGINE_LINE = /^(?:\x1b\[[0-9;]*m)?oidc-provider (WARNING|NOTICE): ([\s\S]*?)(?:\x1b\[0m)?$/;

/**
 * Engine notices that describe how coursegate is built, not something to act on: logged at
 * `debug`. The body step of every route (DESIGN D7, src/http/body-limit.ts) reads the body under
 * the route's limit before the provider, which then warns once per process that it found the
 * body already read.
 */
const EXPECTED_NOTICES = [/^already parsed request body detected/];

let engineLogger:
  | { warn(o: object, m: string): void; info(o: object, m: string): void; debug(o: object, m: string): void }
  | undefined;

/**
 * Sends oidc-provider's own warnings and notices, which it writes to the console as bare text, to
 * the JSON log instead (`event: "engine_notice"`, level `warn` or `info`; the expected ones of
 * {@link EXPECTED_NOTICES} at `debug`), so that an operator's log holds one format and the
 * by-design warning does not read as a misconfiguration. Every other console line passes through
 * unchanged. Installed once per process; the latest logger given receives the notices.
 * @param logger the server's pino logger
 */
export function routeEngineNotices(logger: NonNullable<typeof engineLogger>): void {
  const installed = engineLogger !== undefined;
  engineLogger = logger;
  if (installed) return;
  for (const method of ['warn', 'info'] as const) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      const line = args.length === 1 && typeof args[0] === 'string' ? ENGINE_LINE.exec(args[0]) : null;
      if (!line || !engineLogger) return original(...args);
      const text = line[2]!;
      const fields = { event: 'engine_notice', engine: 'oidc-provider' };
      if (EXPECTED_NOTICES.some((re) => re.test(text))) engineLogger.debug(fields, text);
      else if (line[1] === 'WARNING') engineLogger.warn(fields, text);
      else engineLogger.info(fields, text);
    };
  }
}
