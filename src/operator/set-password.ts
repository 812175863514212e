/**
 * The set-password page of one-time links (DESIGN D5, D11; issue #25 findings 2, 11).
 *
 * GET  /set-password?token=…   form: `password`, `confirm` (+ `name` for a new account; plain HTML)
 * POST /set-password           `token`, `csrf`, `password`, `confirm` [, `name`] → password set, link used up
 *
 * Two kinds of link open it, told apart by the store:
 * - a set-password link of an account an operator made (first run, `owner reset-link`;
 *   src/platform/one-time-links.ts);
 * - an address link (src/platform/address-links.ts), mailed to the address it proves: `join`
 *   (sent from an invitation page: makes the account when the address has none, then accepts the
 *   invitation) or `reset` ("Forgot your password?").
 *
 * Using either ends every other live link of the user and address, every earlier session and web
 * session of the user (`users.sessions_valid_after`) and revokes every grant of the user with its
 * tokens (`Connections.revokeAllOf`): whoever held the account before the password was (re)set is
 * out, at once (DESIGN D5).
 *
 * The CSRF token is an HMAC of the link token (same CsrfTokens as the interaction pages); the page is
 * `no-store` and sends no referrer, so the link leaves no trace in caches or other sites' logs.
 * Error pages (expired link, failed CSRF check) are thrown catalogue errors, rendered by the html
 * surface (src/errors/surfaces/html.ts); a weak or mismatched password shows the form again.
 */
import Router from '@koa/router';
import { parseForm as form, formBody } from '../http/body.js';
import escapeHtml from 'escape-html';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { CsrfTokens } from '../http/csrf.js';
import { layout } from '../interaction/templates.js';
import { InvalidRequest } from '../errors/catalogue.js';
import { MIN_PASSWORD_LENGTH, msUntilCutoffSecondEnds, type OneTimeLinks } from '../platform/one-time-links.js';
import type { AddressLinks, AddressLinkView } from '../platform/address-links.js';
import type { Invitations } from '../platform/invitations.js';
import { PlatformError } from '../platform/errors.js';
import { SET_PASSWORD_PATH } from '../http/links.js';

const e = (v: unknown): string => escapeHtml(String(v ?? ''));
const csrfSubject = (token: string) => `set-password:${token}`;
const EXPIRED =
  'This link has expired or was already used. Ask for a new one: from the invitation page, "Forgot your password?" on the sign-in page, or the site owner (`npm run admin -- owner reset-link --email …`).';

/** What the page needs. */
export interface SetPasswordDeps {
  links: OneTimeLinks;
  addressLinks: AddressLinks;
  invitations: Invitations;
  /** Revokes every grant (and token) of the user whose password was set (`Connections.revokeAllOf`). */
  revokeGrantsOf: (userId: string, reason: string) => Promise<number>;
  csrf: CsrfTokens;
  logger: Logger;
}

/** What the form shows of a live link. */
interface Live {
  email: string;
  /** Address links only. */
  address?: AddressLinkView;
}

function formPage(token: string, csrf: string, live: Live, error?: string): string {
  const invitation = live.address?.invitation;
  const title = invitation ? `Choose your password and join ${invitation.siteName}` : 'Set your password';
  return layout(
    title,
    `<h1>${e(title)}</h1>
<p class="lead">for <strong>${e(live.email)}</strong>${invitation ? `, as <strong>${e(invitation.role)}</strong>` : ''}</p>
${error ? `<p class="error" role="alert">${e(error)}</p>` : ''}
<form method="post" action="${SET_PASSWORD_PATH}">
  <input type="hidden" name="token" value="${e(token)}">
  <input type="hidden" name="csrf" value="${e(csrf)}">
  <input type="text" name="username" value="${e(live.email)}" autocomplete="username" hidden>
  ${live.address?.newAccount ? `<label for="name">Your name</label>\n  <input id="name" name="name" type="text" maxlength="120" autocomplete="name">` : ''}
  <label for="password">New password (at least ${MIN_PASSWORD_LENGTH} characters)</label>
  <input id="password" name="password" type="password" required minlength="${MIN_PASSWORD_LENGTH}" autocomplete="new-password">
  <label for="confirm">Repeat the password</label>
  <input id="confirm" name="confirm" type="password" required minlength="${MIN_PASSWORD_LENGTH}" autocomplete="new-password">
  <p><small>Setting a password here signs ${e(live.email)} out everywhere else and ends the access of every connected app.</small></p>
  <button type="submit">Set password</button>
</form>`,
  );
}

const donePage = (email: string, joined?: { siteName: string; role: string }): string =>
  layout(
    'Password set',
    `<h1>Password set</h1>
<p class="lead" role="status">You can now sign in as <strong>${e(email)}</strong>.${joined ? ` You now have the role <strong>${e(joined.role)}</strong> at <strong>${e(joined.siteName)}</strong>.` : ''}</p>
<p>${joined ? '' : '<a href="/admin">Go to the admin area</a> · '}<a href="/">Home</a></p>`,
  );

/** Builds the router of the set-password page. */
export function setPasswordRouter(deps: SetPasswordDeps): Router {
  const router = new Router();

  /** The live link of a token, of either kind; undefined when none. */
  async function liveLink(token: string): Promise<Live | undefined> {
    if (!token) return undefined;
    const own = await deps.links.peek(token);
    if (own) return own;
    const address = await deps.addressLinks.peek(token);
    return address ? { email: address.email, address } : undefined;
  }

  router.get(SET_PASSWORD_PATH, async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store');
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    const live = await liveLink(token);
    if (!live) throw new InvalidRequest(EXPIRED);
    ctx.type = 'html';
    ctx.body = formPage(token, deps.csrf.issue(csrfSubject(token)), live);
  });

  router.post(SET_PASSWORD_PATH, form, async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store');
    const body = formBody(ctx);
    const token = typeof body.token === 'string' ? body.token : '';
    if (!token || !deps.csrf.verify(csrfSubject(token), body.csrf)) {
      throw new InvalidRequest('The form has expired or did not come from this page. Open the link again.', {
        status: 403,
      });
    }
    const live = await liveLink(token);
    if (!live) throw new InvalidRequest(EXPIRED);
    const password = typeof body.password === 'string' ? body.password : '';
    const name = typeof body.name === 'string' ? body.name : undefined;
    const again = (error: string) => {
      ctx.status = 400;
      ctx.type = 'html';
      ctx.body = formPage(token, deps.csrf.issue(csrfSubject(token)), live, error);
    };
    if (password !== body.confirm) return again('The two passwords differ.');
    let done: { userId: string; email: string; created: boolean; invitationId?: string };
    try {
      if (live.address) {
        const r = await deps.addressLinks.redeem(token, { password, name });
        done = { userId: r.user.id, email: r.user.email, created: r.created, invitationId: r.invitationId };
      } else {
        done = { ...(await deps.links.setPassword(token, password)), created: false };
      }
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      if (err.reason === 'weak_password') return again(err.message);
      throw new InvalidRequest(EXPIRED);
    }
    // DESIGN D5: every grant of the user ends with its tokens (sessions and web sessions ended in
    // the same transaction as the password, through `sessions_valid_after`).
    const revoked = done.created ? 0 : await deps.revokeGrantsOf(done.userId, 'the password was set or reset');
    deps.logger.info(
      { event: 'password_set', sub: done.userId, created: done.created, grants_revoked: revoked },
      'password set through a one-time link',
    );
    let joined: { siteName: string; role: string } | undefined;
    if (done.invitationId) {
      try {
        const accepted = await deps.invitations.accept(
          { id: done.invitationId },
          { id: done.userId, email: done.email },
        );
        deps.logger.info(
          { event: 'invitation_accepted', invitation: done.invitationId, sub: done.userId, site: accepted.siteId },
          'invitation accepted',
        );
        joined = { siteName: live.address?.invitation?.siteName ?? accepted.siteId, role: accepted.role };
      } catch (err) {
        // Withdrawn or used meanwhile: the password stays set; the page says so.
        if (!(err instanceof PlatformError)) throw err;
      }
    }
    // oidc-provider times sessions in whole seconds: the cut-off's second counts as before it
    // (`begunBeforeCutoff`). Answering once that second is over puts the user's own next sign-in
    // after the cut-off; the wait is asynchronous (at most a second, the event loop is free).
    await new Promise((resolve) => setTimeout(resolve, msUntilCutoffSecondEnds(Date.now())));
    ctx.type = 'html';
    ctx.body = donePage(done.email, joined);
  });

  return router;
}
