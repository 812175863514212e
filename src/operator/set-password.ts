/**
 * The set-password page of one-time links (DESIGN D11: first run, password resets).
 *
 * GET  /set-password?token=…   form: `password`, `confirm` (plain HTML, works without JavaScript)
 * POST /set-password           `token`, `csrf`, `password`, `confirm` → password set, link used up
 *
 * The CSRF token is an HMAC of the link token (same CsrfTokens as the interaction pages); the page is
 * `no-store` and sends no referrer, so the link leaves no trace in caches or other sites' logs.
 * Error pages (expired link, failed CSRF check) are thrown catalogue errors, rendered by the html
 * surface (src/errors/surfaces/html.ts); a weak or mismatched password shows the form again.
 */
import Router from '@koa/router';
import { parseForm as form, formBody } from '../http/body.js';
import escape from 'escape-html';
import type { Context } from 'koa';
import type { CsrfTokens } from '../http/csrf.js';
import { layout } from '../interaction/templates.js';
import { InvalidRequest } from '../errors/catalogue.js';
import { MIN_PASSWORD_LENGTH, type OneTimeLinks } from '../platform/one-time-links.js';
import { PlatformError } from '../platform/errors.js';
import { SET_PASSWORD_PATH } from './links.js';

const e = (v: unknown): string => escape(String(v ?? ''));
const csrfSubject = (token: string) => `set-password:${token}`;
const EXPIRED = 'This link has expired or was already used. Ask the site owner (or run `npm run admin -- owner reset-link --email …`) for a new one.';

function formPage(token: string, csrf: string, email: string, error?: string): string {
  return layout(
    'Set your password',
    `<h1>Set your password</h1>
<p class="lead">for <strong>${e(email)}</strong></p>
${error ? `<p class="error" role="alert">${e(error)}</p>` : ''}
<form method="post" action="${SET_PASSWORD_PATH}">
  <input type="hidden" name="token" value="${e(token)}">
  <input type="hidden" name="csrf" value="${e(csrf)}">
  <input type="text" name="username" value="${e(email)}" autocomplete="username" hidden>
  <label for="password">New password (at least ${MIN_PASSWORD_LENGTH} characters)</label>
  <input id="password" name="password" type="password" required minlength="${MIN_PASSWORD_LENGTH}" autocomplete="new-password">
  <label for="confirm">Repeat the password</label>
  <input id="confirm" name="confirm" type="password" required minlength="${MIN_PASSWORD_LENGTH}" autocomplete="new-password">
  <button type="submit">Set password</button>
</form>`,
  );
}

const donePage = (email: string): string =>
  layout(
    'Password set',
    `<h1>Password set</h1>
<p class="lead">You can now sign in as <strong>${e(email)}</strong>.</p>
<p><a href="/admin">Go to the admin area</a> · <a href="/">Home</a></p>`,
  );

/** Builds the router of the set-password page. */
export function setPasswordRouter(deps: { links: OneTimeLinks; csrf: CsrfTokens }): Router {
  const router = new Router();

  router.get(SET_PASSWORD_PATH, async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store');
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    const live = token ? await deps.links.peek(token) : undefined;
    if (!live) throw new InvalidRequest(EXPIRED);
    ctx.type = 'html';
    ctx.body = formPage(token, deps.csrf.issue(csrfSubject(token)), live.email);
  });

  router.post(SET_PASSWORD_PATH, form, async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store');
    const body = formBody(ctx);
    const token = typeof body.token === 'string' ? body.token : '';
    if (!token || !deps.csrf.verify(csrfSubject(token), body.csrf)) {
      throw new InvalidRequest('The form has expired or did not come from this page. Open the link again.', { status: 403 });
    }
    const live = await deps.links.peek(token);
    if (!live) throw new InvalidRequest(EXPIRED);
    const password = typeof body.password === 'string' ? body.password : '';
    const again = (error: string) => {
      ctx.status = 400;
      ctx.type = 'html';
      ctx.body = formPage(token, deps.csrf.issue(csrfSubject(token)), live.email, error);
    };
    if (password !== body.confirm) return again('The two passwords differ.');
    try {
      const { email } = await deps.links.setPassword(token, password);
      ctx.type = 'html';
      ctx.body = donePage(email);
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      if (err.reason === 'weak_password') return again(err.message);
      throw new InvalidRequest(EXPIRED);
    }
  });

  return router;
}
