/**
 * Every absolute URL comes from `BASE_URL` (DESIGN D7; issue #13 finding 3). Koa derives
 * `ctx.origin` / `ctx.href` / `ctx.host` from the `Host` header, from `X-Forwarded-Host` behind a
 * trusted proxy, and from an absolute-form request target (`GET http://evil.example/… HTTP/1.1`);
 * oidc-provider builds discovery and redirect URLs from `ctx.href`. This step pins all of them to
 * the configured origin for the rest of the request, so no request header can change a URL the
 * server prints (discovery can then be cached by anyone).
 *
 * What a trusted proxy still supplies (`TRUST_PROXY` hops): the client address (`ctx.ip`, the
 * `X-Forwarded-For` entry that many places from the right) and, with an `http:` BASE_URL only, the
 * scheme (`X-Forwarded-Proto`). With an `https:` BASE_URL the scheme is pinned too (issue #25
 * finding 13): `ctx.protocol` is `https` and `ctx.secure` true on every request, so every cookie
 * (oidc-provider's session and interaction cookies, `cg_web`, the sign-in CSRF cookie: Koa's
 * `ctx.cookies` defaults `secure` to `ctx.secure`) carries `Secure`, whatever the proxy sends
 * and also with `TRUST_PROXY` unset (the browser speaks HTTPS to the TLS-terminating proxy).
 */
import type Koa from 'koa';

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The path and query of a request target, also when the target is in absolute form. */
function pathAndQuery(raw: string): string {
  if (!ABSOLUTE_FORM.test(raw)) return raw.startsWith('/') ? raw : `/${raw}`;
  const parsed = URL.parse(raw);
  return parsed ? parsed.pathname + parsed.search : '/';
}

/**
 * Pins `host`, `hostname`, `origin` and `href` of every request of `app` to `baseUrl`, and with an
 * `https:` base also `protocol` (`https`) and so `secure` (true). The getters
 * are defined once on the application's request prototype (issue #15: defining them on each
 * request cost a property-shape change per request), so they hold for every request of the app,
 * also inside oidc-provider (mounted with koa-mount, same context).
 * @param baseUrl the origin (`https://auth.example.com`, no trailing slash)
 * @returns the per-request part, a synchronous step of the edge (src/app.ts; issue #15: no async
 *   hop of its own): drops `X-Forwarded-Host` and replaces the `Host` header
 */
export function fixedOrigin(app: Koa, baseUrl: string): (ctx: Koa.Context) => void {
  const base = new URL(baseUrl);
  Object.defineProperties(app.request, {
    host: { get: () => base.host, configurable: true },
    hostname: { get: () => base.hostname, configurable: true },
    origin: { get: () => base.origin, configurable: true },
    href: {
      get(this: Koa.Request) {
        return base.origin + pathAndQuery(this.originalUrl);
      },
      configurable: true,
    },
  });
  // Koa's `secure` getter reads `protocol`; `ctx.cookies` is built with `secure: ctx.secure`.
  if (base.protocol === 'https:')
    Object.defineProperty(app.request, 'protocol', { get: () => 'https', configurable: true });
  return function pinOrigin(ctx) {
    const headers = ctx.req.headers;
    if (headers['x-forwarded-host'] !== undefined) delete headers['x-forwarded-host'];
    // Kept for the DNS-rebinding check of /mcp (src/resource/mcp/origin-guard.ts), which must see
    // the Host the client sent.
    ctx.state.sentHost = headers.host;
    headers.host = base.host;
  };
}
