/**
 * The signed-in pages every member may use (issue 11, DESIGN D11):
 *
 * GET  /                      home: sign in, your connections, the admin area, documentation, discovery
 * GET  /signin?next=…         sign-in form (`email`, `password`); POST /signin starts the session
 * GET  /signin?forgot=1       "Forgot your password?" (`email`); POST /signin with `forgot=1` mails a
 *                             reset link to the address (issue #30 item 6), the same answer
 *                             whether or not the address has an account (DESIGN D5); bounded by
 *                             the mail budgets (429 + Retry-After), not by the sign-in limit
 * GET  /signout               a page with the sign-out button (the "sign out / use another account"
 *                             link of error and consent pages; works without JavaScript); without a
 *                             session, a redirect to /signin
 * POST /signout               ends it, and the browser's OpenID Provider session (DESIGN D14); without
 *                             a session, the 401 "Signed out" page
 * GET  /account/connections   the apps the member authorized, one row per app (its grants at every
 *                             site grouped), scopes in plain words, last use
 * GET  /account/connections/revoke?client_id=…  confirmation page (issue 30 item 10)
 * POST /account/connections/revoke   `client_id` (every grant of that app) or `grant_id` → revoked
 *                             at once with their tokens
 *
 * Failed sign-ins go through the same DESIGN D7 limits as the login page.
 */
import Router from '@koa/router';
import { parseForm as form, formBody } from '../http/body.js';
import { failureCountOf } from '../http/failure-count.js';
import { mailRetryText, type MailBudget } from '../http/mail-budget.js';
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Accounts } from '../platform/accounts.js';
import { isOperator } from '../platform/accounts.js';
import type { Connections } from '../oauth/connections.js';
import { HttpError, InvalidRequest, NotFound } from '../errors/catalogue.js';
import type { Connection } from '../domain/applications.js';
import { SCOPES, parseScope } from '../domain/scopes.js';
import { safeNext, type WebSession, type WebSessions } from './session.js';
import type { Logger } from 'pino';
import { recordSignIn, type SignInAttempt, type SignInEvents, type SignInOutcome } from '../platform/sign-in-events.js';

/** Where nothing is logged (no logger given). */
const silent = { warn: () => undefined };
import { button, e, forgotPasswordPage, header, notice, page, signInPage, table, when } from './views.js';

/** What the member pages need. */
export interface WebDeps {
  accounts: Accounts;
  sessions: WebSessions;
  connections: Connections;
  baseUrl: string;
  docsUrl: string;
  // DESIGN D7: the failed-login point (sign-in) is the `signin` row's
  // (route table `rateLimit.on: 'failure'`), taken with `failureCountOf(ctx)` (src/http/failure-count.ts).
  /**
   * "Forgot your password?": mails a reset link to `email` when it has an account, else a notice
   * without a link; the same work either way. Throws when the message could not be sent.
   */
  requestReset?: (email: string) => Promise<void>;
  /**
   * DESIGN D7 mail budgets (src/http/mail-budget.ts): each reset request spends a point of the
   * client address's, the recipient's and the server's budget; past one it is answered 429.
   */
  mailBudget: Pick<MailBudget, 'spend'>;
  /**
   * Ends this browser's oidc-provider session too (issue 30: "sign out or use another account"
   * must not leave the authorization pages signed in as the same person). Tokens already issued
   * stay valid; revoking them is /account/connections.
   */
  endProviderSession?: (ctx: Context) => Promise<void>;
  /** DESIGN D14: sign-in attempts in the audit trail of the person's sites. */
  signInEvents?: Pick<SignInEvents, 'record'>;
  /** Where a failure to record a sign-in event is logged. */
  logger?: Logger;
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
    sendPage(
      ctx,
      page({
        title: 'Signed out',
        body: `<h1>Signed out</h1>${notice('Your session has ended. Sign in again.', 'alert')}<p><a href="/signin">Sign in</a></p>`,
      }),
      401,
    );
  }
  return undefined;
}

/** @throws InvalidRequest 403 (an html-surface error page) unless the form's CSRF token belongs to the session */
export function checkCsrf(sessions: WebSessions, session: WebSession, ctx: Context): void {
  if (!sessions.verifyCsrf(session.sid, formBody(ctx).csrf))
    throw new InvalidRequest(
      'The form has expired or did not come from this site. Go back, reload the page and try again.',
      { status: 403 },
    );
}

/** One connected app of a member: every grant of the same client, grouped (issue 30 item 10). */
export interface ConnectedApp {
  clientId: string;
  clientName: string;
  kindLabel: string;
  /** Names of the sites it was allowed at, in first-grant order. */
  sites: string[];
  /** Union of the granted scopes, in SCOPES order. */
  scopes: string[];
  grantIds: string[];
  /** Earliest grant (ISO 8601 UTC). */
  createdAt: string;
  /** Latest use of any of its grants (ISO 8601 UTC), null when never used. */
  lastUsedAt: string | null;
  /**
   * True when the latest tokens of every grant it used are DPoP-bound to the app's key (RFC 9449,
   * DESIGN D15), and it used one; a grant never used has no tokens to tell.
   */
  keyBound: boolean;
}

/**
 * What the connected-apps pages show for a DPoP-bound grant (RFC 9449, DESIGN D15): its tokens are
 * useless to anyone without the app's key.
 */
export const KEY_BOUND_BADGE =
  '<span class="badge" title="Its tokens are bound to a key the app holds (DPoP): a copied token is useless elsewhere.">key-bound</span>';

/** Groups a member's grants by client: one row per app. */
export function groupByApp(connections: Connection[]): ConnectedApp[] {
  const apps = new Map<string, ConnectedApp>();
  // Clients with a used grant whose tokens are key-bound, and with one whose tokens are bearer.
  const bound = new Set<string>();
  const bearerUse = new Set<string>();
  for (const c of connections) {
    const app = apps.get(c.clientId) ?? {
      clientId: c.clientId,
      clientName: c.clientName,
      kindLabel: c.kindLabel,
      sites: [],
      scopes: [],
      grantIds: [],
      createdAt: c.createdAt,
      lastUsedAt: null,
      keyBound: false,
    };
    apps.set(c.clientId, app);
    if (!app.sites.includes(c.siteName)) app.sites.push(c.siteName);
    app.scopes = [...new Set([...app.scopes, ...parseScope(c.scope)])];
    app.grantIds.push(c.grantId);
    if (c.createdAt < app.createdAt) app.createdAt = c.createdAt;
    if (c.lastUsedAt && (!app.lastUsedAt || c.lastUsedAt > app.lastUsedAt)) app.lastUsedAt = c.lastUsedAt;
    if (c.lastUsedAt && c.dpopJkt) bound.add(c.clientId);
    else if (c.lastUsedAt) bearerUse.add(c.clientId);
  }
  for (const app of apps.values()) app.keyBound = bound.has(app.clientId) && !bearerUse.has(app.clientId);
  const order = Object.keys(SCOPES);
  for (const app of apps.values()) app.scopes.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return [...apps.values()];
}

/** Scopes in plain words (SCOPES); the code is kept for a scope without a description. */
const scopeList = (scopes: string[]): string =>
  `<ul class="plain">${scopes.map((s) => `<li>${SCOPES[s] ? e(SCOPES[s]) : `<code>${e(s)}</code>`}</li>`).join('')}</ul>`;

export function webRouter(deps: WebDeps): Router {
  const { accounts, sessions } = deps;
  const router = new Router();

  /** A fresh sign-in form nonce in its cookie (`/signin` only); the form's CSRF token is bound to it. */
  const formCsrf = (ctx: Context): string => {
    const nonce = randomBytes(16).toString('base64url');
    ctx.cookies.set(SIGNIN_COOKIE, nonce, {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secure,
      maxAge: 3600_000,
      path: '/signin',
    });
    return sessions.csrf(`signin:${nonce}`);
  };
  const signIn = (ctx: Context, v: { next: string; email?: string; error?: string }, status = 200) =>
    sendPage(ctx, signInPage({ ...v, csrf: formCsrf(ctx) }), status);

  router.get('/', async (ctx) => {
    const session = await sessions.read(ctx);
    const user = session ? await accounts.findUser(session.userId) : undefined;
    const memberships = user ? await accounts.membershipsOf(user.id) : [];
    const operator = memberships.some((m) => isOperator(m.roles));
    const links = [
      user
        ? `<li><a href="/account/connections">Your connected apps</a></li>`
        : `<li><a href="/signin">Sign in</a></li>`,
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

  const forgot = (ctx: Context, v: { email?: string; error?: string; sent?: string }, status = 200) =>
    sendPage(ctx, forgotPasswordPage({ ...v, csrf: formCsrf(ctx) }), status);

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
      return resetting
        ? forgot(ctx, { error: 'The form expired. Try again.' }, 403)
        : signIn(ctx, { next, error: 'The form expired. Try again.' }, 403);
    }
    if (resetting) {
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase().slice(0, 320) : '';
      // No control or format characters: the address is written into the message it asks for.
      if (!/^[^@\s\p{Cc}\p{Cf}]+@[^@\s\p{Cc}\p{Cf}]+$/u.test(email))
        return forgot(ctx, { email, error: 'Enter the e-mail address of your account.' }, 400);
      // The mail budgets (client address, recipient, server), not the failed sign-in limit: asking
      // for a reset never locks the member's sign-in, and nobody fires mail at strangers.
      const spent = await deps.mailBudget.spend(email, ctx.ip);
      if (!spent.ok) {
        ctx.set('Retry-After', String(spent.retryAfterSeconds));
        return forgot(ctx, { email, error: mailRetryText(spent.retryAfterSeconds) }, 429);
      }
      try {
        await deps.requestReset!(email);
      } catch {
        return forgot(ctx, { email, error: 'We could not send the e-mail just now. Try again in a few minutes.' }, 503);
      }
      return forgot(ctx, {
        email,
        sent: `If ${email} has an account, we sent it a link to choose a new password (it works once, for 1 hour). Check your mail.`,
      });
    }
    const email = typeof body.email === 'string' ? body.email.slice(0, 320) : '';
    const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
    if (!email || !password) return signIn(ctx, { next, email, error: 'Enter your e-mail and password.' }, 400);
    const audited = (outcome: SignInOutcome, attempt: Partial<SignInAttempt> = {}) =>
      recordSignIn(deps.signInEvents, deps.logger ?? silent, outcome, {
        email,
        page: 'sign-in page',
        address: ctx.ip,
        ...attempt,
      });
    try {
      await failureCountOf(ctx).reserve(email);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 429) throw err;
      for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
      audited('lockout', { retryAfterSeconds: Number(err.headers['Retry-After'] ?? 60) });
      return signIn(ctx, { next, email, error: err.description }, 429);
    }
    const user = await accounts.authenticate(email, password);
    if (!user) {
      audited('failure');
      return signIn(ctx, { next, email, error: 'Wrong e-mail or password.' }, 401);
    }
    audited('success', { userId: user.id });
    await failureCountOf(ctx).release(email);
    ctx.cookies.set(SIGNIN_COOKIE, null, { signed: true, path: '/signin' });
    await sessions.start(ctx, user.id);
    ctx.status = 303;
    ctx.redirect(next);
  });

  // A session route (route table `auth: session`): without a live session there is nothing to
  // end, and the answer is the one of every session page (`requireSession`): GET goes to sign-in,
  // POST gets the 401 "Signed out" page.
  router.get('/signout', async (ctx) => {
    const session = await sessions.read(ctx);
    const user = session ? await accounts.findUser(session.userId) : undefined;
    if (!session || !user) return ctx.redirect('/signin');
    const body = `<h1>Sign out?</h1>
<p class="lead">You are signed in as <strong>${e(user.email)}</strong>. Sign out to end this session, then sign in with another account if you wish.</p>
${button('/signout', sessions.csrf(session.sid), 'Sign out')}
<p><a href="/">Stay signed in and go to the home page</a></p>`;
    sendPage(ctx, page({ title: 'Sign out', body }));
  });

  router.post('/signout', form, async (ctx) => {
    const session = await requireSession(sessions, ctx);
    if (!session) return;
    checkCsrf(sessions, session, ctx);
    await sessions.end(ctx);
    await deps.endProviderSession?.(ctx);
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
    const rows = groupByApp(await deps.connections.ofUser(user.id)).map((app) => [
      `<strong>${e(app.clientName)}</strong><br><small>${e(app.kindLabel)}</small>${app.keyBound ? `<br>${KEY_BOUND_BADGE}` : ''}`,
      e(app.sites.join(', ')),
      scopeList(app.scopes),
      e(when(app.createdAt)),
      e(when(app.lastUsedAt)),
      `<a href="/account/connections/revoke?client_id=${encodeURIComponent(app.clientId)}" class="button secondary">Revoke…</a>`,
    ]);
    const done = ctx.query.revoked === '1' ? notice('Access revoked. The application can no longer act for you.') : '';
    sendPage(
      ctx,
      page({
        title: 'Your connected apps',
        header: header({ email: user.email, csrf }),
        body: `<h1>Your connected apps</h1>${done}
<p class="lead">Applications you allowed to act for you, at each site. Revoking one stops it at once.</p>
${table('Connected apps', ['Application', 'Site', 'It can', 'Allowed', 'Last used', 'Action'], rows, 'You have not allowed any application yet.')}`,
      }),
    );
  });

  router.get('/account/connections/revoke', async (ctx) => {
    const session = await requireSession(sessions, ctx);
    if (!session) return;
    const user = await accounts.findUser(session.userId);
    if (!user) {
      await sessions.end(ctx);
      return ctx.redirect('/signin');
    }
    const clientId = typeof ctx.query.client_id === 'string' ? ctx.query.client_id : '';
    const app = groupByApp(await deps.connections.ofUser(user.id)).find((a) => a.clientId === clientId);
    if (!app) throw new NotFound('No such connected app of yours (it may have been revoked already).');
    const csrf = sessions.csrf(session.sid);
    sendPage(
      ctx,
      page({
        title: 'Revoke access',
        header: header({ email: user.email, csrf }),
        body: `<h1>Revoke access of ${e(app.clientName)}?</h1>
<p class="lead"><strong>${e(app.clientName)}</strong> will stop acting for you at ${e(app.sites.join(', '))} at once: its ${app.grantIds.length === 1 ? 'authorization' : `${app.grantIds.length} authorizations`} and every token it holds are revoked. It can ask you again later.</p>
<p>It can now:</p>
${scopeList(app.scopes)}
<form method="post" action="/account/connections/revoke">
  <input type="hidden" name="csrf" value="${e(csrf)}">
  <input type="hidden" name="client_id" value="${e(app.clientId)}">
  <button type="submit">Revoke access</button> <a href="/account/connections">Cancel</a>
</form>`,
      }),
    );
  });

  router.post('/account/connections/revoke', form, async (ctx) => {
    const session = await requireSession(sessions, ctx);
    if (!session) return;
    checkCsrf(sessions, session, ctx);
    const { grant_id: grantId, client_id: clientId } = formBody(ctx);
    const which =
      typeof clientId === 'string' && clientId
        ? { clientId }
        : typeof grantId === 'string' && grantId
          ? { grantId }
          : undefined;
    const n = which ? await deps.connections.revoke({ userId: session.userId }, which, { userId: session.userId }) : 0;
    if (n === 0) throw new NotFound('No such connected app of yours (it may have been revoked already).');
    ctx.status = 303;
    ctx.redirect('/account/connections?revoked=1');
  });

  return router;
}
