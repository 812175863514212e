/**
 * The invitation page (DESIGN D5): the one-time link an operator hands to the person they invited.
 *
 *   GET  /invitations/:token   who invites you, with which role; a form to sign in and accept
 *   POST /invitations/:token   `password` (+ `name` for a new account), `csrf` → the role, once
 *
 * The invited address is fixed by the invitation: the person signs in with it (or, when no account
 * has that address, creates one by choosing a password; holding the link proves the address).
 * Wrong passwords count against the D7 login-failure limit like the sign-in page. The page collects
 * a password, so it is served under the app's CSP with `frame-ancestors 'none'`.
 */
import Router from '@koa/router';
import { parseForm as form, formBody } from '../http/body.js';
import escape from 'escape-html';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { Accounts } from '../platform/accounts.js';
import { PlatformError } from '../platform/errors.js';
import type { Invitations } from '../platform/invitations.js';
import { Gone, HttpError, InvalidRequest, NotFound } from '../errors/catalogue.js';
import type { CsrfTokens } from '../http/csrf.js';
import { layout } from './templates.js';

export interface InvitationPageDeps {
  accounts: Accounts;
  invitations: Invitations;
  csrf: CsrfTokens;
  logger: Logger;
  /** DESIGN D7: reserves a failed-login point for the address + IP before the password is checked (429 when none is left). */
  reserveLogin?: (ctx: Context, email: string) => Promise<void>;
  /** Gives the point back after a successful sign-in. */
  releaseLogin?: (ctx: Context, email: string) => Promise<void>;
}

const e = (value: unknown): string => escape(String(value ?? ''));
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

interface PageView {
  siteName: string;
  role: string;
  email: string;
  csrf: string;
  error?: string;
}

function invitationPage(v: PageView): string {
  return layout(
    'Invitation',
    `<h1>Join ${e(v.siteName)}</h1>
<p class="lead">You are invited as <strong>${e(v.role)}</strong> with the address <strong>${e(v.email)}</strong>.</p>
${v.error ? `<p class="error" role="alert">${e(v.error)}</p>` : ''}
<form method="post" autocomplete="on">
  <input type="hidden" name="csrf" value="${e(v.csrf)}">
  <input type="hidden" name="email" value="${e(v.email)}" autocomplete="username">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" required autofocus autocomplete="current-password">
  <label for="name">Your name (only when you have no account yet)</label>
  <input id="name" name="name" type="text" maxlength="120" autocomplete="name">
  <button type="submit" name="decision" value="accept">Sign in and accept</button>
</form>`,
  );
}

/** Builds the router of the invitation page. */
export function invitationRouter(deps: InvitationPageDeps): Router {
  const router = new Router();

  /**
   * The pending invitation of the link.
   * @throws InvalidRequest 404 for a malformed link; NotFound / Gone (410, code = the domain's
   *   reason, e.g. `invitation_accepted`) for an unknown or no longer pending one — error pages
   *   rendered by the html surface
   */
  async function pending(ctx: Context) {
    const token = String(ctx.params.token ?? '');
    ctx.set('Cache-Control', 'no-store');
    if (!TOKEN.test(token)) throw new InvalidRequest('This invitation link is not valid.', { status: 404 });
    try {
      return { token, ...(await deps.invitations.preview(token)) };
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      const sentence = err.message.charAt(0).toUpperCase() + err.message.slice(1) + '.';
      throw err.code === 'not_found' ? new NotFound(sentence, err.reason) : new Gone(sentence, err.reason);
    }
  }

  router.get('/invitations/:token', async (ctx) => {
    const inv = await pending(ctx);
    ctx.type = 'html';
    ctx.body = invitationPage({ siteName: inv.siteName, role: inv.role, email: inv.email, csrf: deps.csrf.issue(`invitation:${inv.id}`) });
  });

  router.post('/invitations/:token', form, async (ctx) => {
    const inv = await pending(ctx);
    const body = formBody(ctx);
    const show = (error: string, status: number) => {
      ctx.status = status;
      ctx.type = 'html';
      ctx.body = invitationPage({ siteName: inv.siteName, role: inv.role, email: inv.email, csrf: deps.csrf.issue(`invitation:${inv.id}`), error });
    };
    if (!deps.csrf.verify(`invitation:${inv.id}`, body.csrf)) {
      throw new InvalidRequest('The form has expired or did not come from this page. Go back and try again.', { status: 403 });
    }
    const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
    const name = typeof body.name === 'string' ? body.name.trim().slice(0, 120) : '';
    if (!password) return show('Enter your password.', 400);
    try {
      await deps.reserveLogin?.(ctx, inv.email);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 429) throw err;
      for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
      return show(err.description, 429);
    }
    let user: { id: string; email: string } | undefined = await deps.accounts.authenticate(inv.email, password);
    if (!user) {
      const created = await deps.invitations.createAccount(inv.token, { name, password });
      if (created === 'exists') {
        // The reserved point stays spent: a wrong password counts as a failed login.
        deps.logger.info({ event: 'invitation_login_failed', invitation: inv.id }, 'invitation sign-in failed');
        return show('Wrong password for this address.', 401);
      }
      if (typeof created === 'string') return show(created, 400);
      user = created;
    }
    await deps.releaseLogin?.(ctx, inv.email);
    try {
      const accepted = await deps.invitations.accept(inv.token, user);
      deps.logger.info({ event: 'invitation_accepted', invitation: inv.id, sub: user.id, site: accepted.siteId }, 'invitation accepted');
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      return show(err.message, err.code === 'forbidden' ? 403 : 409);
    }
    ctx.type = 'html';
    ctx.body = layout('Welcome', `<h1>Welcome to ${e(inv.siteName)}</h1><p class="lead" role="status">You now have the role <strong>${e(inv.role)}</strong> there. Sign in to its apps with <strong>${e(inv.email)}</strong>.</p>`);
  });
  return router;
}
