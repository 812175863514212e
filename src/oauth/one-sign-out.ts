/**
 * DESIGN D14 "one sign-out": the browser's two sessions, oidc-provider's (`_session`, the
 * authorization pages) and the people's pages' (`cg_web`, `/admin`, `/account/connections`), end
 * together. Signing out on the web pages ends the OpenID Provider session (src/pipelines/people.ts
 * `endProviderSession`); this step does the reverse for RP-initiated logout (OpenID Connect
 * RP-Initiated Logout 1.0 §2, `/api/oauth/logout` then "Yes, sign me out", which posts
 * `logout=yes` to the confirm endpoint): once the provider destroyed its session, the web session
 * of the same browser is ended too.
 */
import type { Context, Middleware } from 'koa';
import type Provider from 'oidc-provider';

/** What the step ends: the web session of the request (src/operator/session.ts `WebSessions.end`). */
export interface WebSessionEnder {
  end(ctx: Context): Promise<void>;
}

/**
 * The step around the end_session confirm endpoint: after the provider answered, ends the web
 * session when the provider ended its whole session (the confirm form's `logout` field set; a
 * logout of one client only, without it, leaves both sessions).
 * @param provider emits `end_session.success` (a documented oidc-provider event) on the request
 * @param sessions the web sessions
 */
export function endWebSessionAtLogout(provider: Provider, sessions: WebSessionEnder): Middleware {
  const signedOut = new WeakSet<object>();
  provider.on('end_session.success', (ctx: { oidc?: { params?: { logout?: unknown } } }) => {
    if (ctx.oidc?.params?.logout) signedOut.add(ctx);
  });
  return async function endWebSessionToo(ctx, next) {
    await next();
    if (signedOut.has(ctx)) await sessions.end(ctx);
  };
}
