/**
 * The signed-in pages every member may use (issue 11, DESIGN D11):
 *
 * GET  /                      home: sign in, your connections, the admin area, documentation, discovery
 * GET  /signin?next=…         sign-in form (`email`, `password`); POST /signin starts the session
 * GET  /signin?forgot=1       "Forgot your password?" (`email`); POST /signin with `forgot=1` mails a
 *                             reset link to the address (issue #30 item 6), the same answer
 *                             whether or not the address has an account (DESIGN D5)
 * POST /signout               ends it
 * GET  /account/connections   the apps the member authorized, at every site, with scopes and last use
 * POST /account/connections/revoke   `grant_id` → that grant and its tokens are revoked at once
 *
 * Failed sign-ins go through the same DESIGN D7 limits as the login page.
 */
import Router from '@koa/router';
import { parseForm as form, formBody } from '../http/body.js';
import { failureCountOf } from '../http/failure-count.js';
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Accounts } from '../platform/accounts.js';
import { isOperator } from '../platform/accounts.js';
import type { Connections } from '../oauth/connections.js';
import { HttpError, InvalidRequest, NotFound } from '../errors/catalogue.js';
import { safeNext, type WebSession, type WebSessions } from './session.js';
import { button, e, forgotPasswordPage, header, notice, page, signInPage, table, when } from './views.js';

/** What the member pages need. */
export interface WebDeps {
  accounts: Accounts;
  sessions: WebSessions;
  connections: Connections;
  baseUrl: string;
  docsUrl: string;
  // DESIGN D7: the failed-login point (sign-in and "forgot your password?") is the `signin` row's
  // (route table `rateLimit.on: 'failure'`), taken with `failureCountOf(ctx)` (src/http/failure-count.ts).
  /**
   * "Forgot your password?": mails a reset link to `email` when it has an account, else a notice
   * without a link; the same work either way. Throws when the message could not be sent.
   */
  requestReset?: (email: string) => Promise<void>;
}

const SIGNIN_COOKIE = 'cg_signin';

/** Sends a signed-in HTML page (no-store). */
export function sendPage(ctx: Context, html: string, status = 200): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.status = status;
  ctx.type = 'html';
  ctx.body = html;
}

/** The session, or a redirect to /signin (GET) / 401 page (POST). */
export async function requireSession(sessions: WebSessions, ctx: Context): Promise<WebSession | undefined> {
  const session = await sessions.read(ctx);
  if (session) return session;
  if (ctx.method === 'GET') {
    ctx.redirect(`/signin?next=${encodeURIComponent(ctx.originalUrl)}`);
  } else {
    sendPage(ctx, page({ title: 'Signed out', body: `<h1>Signed out</h1>${notice('Your session has ended. Sign in again.', 'alert')}<p><a href="/signin">Sign in</a></p>` }), 401);
  }
  return undefined;
}

/** @throws InvalidRequest 403 (an html-surface error page) unless the form's CSRF token belongs to the session */
export function checkCsrf(sessions: WebSessions, session: WebSession, ctx: Context): void {
  if (!sessions.verifyCsrf(session.sid, formBody(ctx).csrf)) throw new InvalidRequest('The form has expired or did not come from this site. Go back, reload the page and try again.', { status: 403 });
}

export function webRouter(deps: WebDeps): Router {
  const { accounts, sessions } = deps;
  const router = new Router();

  const signIn = (ctx: Context, v: { next: string; email?: string; error?: string }, status = 200) => {
    const nonce = randomBytes(16).toString('base64url');
    ctx.cookies.set(SIGNIN_COOKIE, nonce, { signed: true, httpOnly: true, sameSite: 'lax', secure: ctx.secure, maxAge: 3600_000, path: '/signin' });
    sendPage(ctx, signInPage({ ...v, csrf: sessions.csrf(`signin:${nonce}`) }), status);
  };

  router.get('/', async (ctx) => {
    const session = await sessions.read(ctx);
    const user = session ? await accounts.findUser(session.userId) : undefined;
    const memberships = user ? await accounts.membershipsOf(user.id) : [];
    const operator = memberships.some((m) => isOperator(m.roles));
    const links = [
      user ? `<li><a href="/account/connections">Your connected apps</a></li>` : `<li><a href="/signin">Sign in</a></li>`,
      operator ? `<li><a href="/admin">Admin area</a> (sites you run)</li>` : '',
      `<li><a href="${e(deps.docsUrl)}">Developer documentation</a></li>`,
      `<li><a href="/.well-known/openid-configuration">OpenID Connect discovery</a> · <a href="/.well-known/oauth-protected-resource">protected resource metadata</a> · <a href="/openapi.json">OpenAPI</a></li>`,
    ];
    sendPage(
      ctx,
      page({
        title: 'Home',
        header: user ? header({ email: user.email, csrf: sessions.csrf(session!.sid) }) : undefined,
        body: `<h1>coursegate</h1>
<p class="lead">Sign-in and API access for the sites of this course platform${user ? `. Signed in as <strong>${e(user.email)}</strong>` : ''}.</p>
<ul>${links.join('')}</ul>`,
      }),
    );
  });

  const forgot = (ctx: Context, v: { email?: string; error?: string; sent?: string }, status = 200) => {
    const nonce = randomBytes(16).toString('base64url');
    ctx.cookies.set(SIGNIN_COOKIE, nonce, { signed: true, httpOnly: true, sameSite: 'lax', secure: ctx.secure, maxAge: 3600_000, path: '/signin' });
    sendPage(ctx, forgotPasswordPage({ ...v, csrf: sessions.csrf(`signin:${nonce}`) }), status);
  };

  router.get('/signin', async (ctx) => {
    if (deps.requestReset && ctx.query.forgot === '1') return forgot(ctx, {});
    if (await sessions.read(ctx)) return ctx.redirect(safeNext(ctx.query.next));
    signIn(ctx, { next: safeNext(ctx.query.next) });
  });

  router.post('/signin', form, async (ctx) => {
    const body = formBody(ctx);
    const next = safeNext(body.next);
    const nonce = ctx.cookies.get(SIGNIN_COOKIE, { signed: true });
    const resetting = !!deps.requestReset && body.forgot === '1';
    if (!nonce || !sessions.verifyCsrf(`signin:${nonce}`, body.csrf)) {
      return resetting ? forgot(ctx, { error: 'The form expired. Try again.' }, 403) : signIn(ctx, { next, error: 'The form expired. Try again.' }, 403);
    }
    if (resetting) {
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase().slice(0, 320) : '';
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) return forgot(ctx, { email, error: 'Enter the e-mail address of your account.' }, 400);
      try {
        // Each request spends a failed-login point of the address + IP: nobody floods an address.
        await failureCountOf(ctx).reserve(email);
      } catch (err) {
        if (!(err instanceof HttpError) || err.status !== 429) throw err;
        for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
        return forgot(ctx, { email, error: err.description }, 429);
      }
      try {
        await deps.requestReset!(email);
      } catch {
        return forgot(ctx, { email, error: 'We could not send the e-mail just now. Try again in a few minutes.' }, 503);
      }
      return forgot(ctx, { email, sent: `If ${email} has an account, we sent it a link to choose a new password (it works once, for 1 hour). Check your mail.` });
    }
    const email = typeof body.email === 'string' ? body.email.slice(0, 320) : '';
    const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
    if (!email || !password) return signIn(ctx, { next, email, error: 'Enter your e-mail and password.' }, 400);
    try {
      await failureCountOf(ctx).reserve(email);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 429) throw err;
      for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
      return signIn(ctx, { next, email, error: err.description }, 429);
    }
    const user = await accounts.authenticate(email, password);
    if (!user) return signIn(ctx, { next, email, error: 'Wrong e-mail or password.' }, 401);
    await failureCountOf(ctx).release(email);
    ctx.cookies.set(SIGNIN_COOKIE, null, { signed: true, path: '/signin' });
    await sessions.start(ctx, user.id);
    ctx.status = 303;
    ctx.redirect(next);
  });

  router.post('/signout', form, async (ctx) => {
    const session = await sessions.read(ctx);
    if (session) {
      checkCsrf(sessions, session, ctx);
      await sessions.end(ctx);
    }
    ctx.status = 303;
    ctx.redirect('/');
  });

  router.get('/account/connections', async (ctx) => {
    const session = await requireSession(sessions, ctx);
    if (!session) return;
    const user = await accounts.findUser(session.userId);
    if (!user) {
      await sessions.end(ctx);
      return ctx.redirect('/signin');
    }
    const csrf = sessions.csrf(session.sid);
    const rows = (await deps.connections.ofUser(user.id)).map((c) => [
      `<strong>${e(c.clientName)}</strong><br><small>${e(c.kindLabel)} · <code>${e(c.clientId)}</code></small>`,
      e(c.siteName),
      `<code>${e(c.scope)}</code>`,
      e(when(c.createdAt)),
      e(when(c.lastUsedAt)),
      button('/account/connections/revoke', csrf, 'Revoke', { grant_id: c.grantId }, true),
    ]);
    const done = ctx.query.revoked === '1' ? notice('Access revoked. The application can no longer act for you.') : '';
    sendPage(
      ctx,
      page({
        title: 'Your connected apps',
        header: header({ email: user.email, csrf }),
        body: `<h1>Your connected apps</h1>${done}
<p class="lead">Applications you allowed to act for you, at each site. Revoking one stops it at once.</p>
${table('Connected apps', ['Application', 'Site', 'Scopes', 'Allowed', 'Last used', 'Action'], rows, 'You have not allowed any application yet.')}`,
      }),
    );
  });

  router.post('/account/connections/revoke', form, async (ctx) => {
    const session = await requireSession(sessions, ctx);
    if (!session) return;
    checkCsrf(sessions, session, ctx);
    const grantId = formBody(ctx).grant_id;
    const n = typeof grantId === 'string' ? await deps.connections.revoke({ userId: session.userId }, { grantId }, { userId: session.userId }) : 0;
    if (n === 0) throw new NotFound('No such connected app of yours (it may have been revoked already).');
    ctx.status = 303;
    ctx.redirect('/account/connections?revoked=1');
  });

  return router;
}
