/**
 * The invitation page (DESIGN D5; issue #25 findings 2a and 3): the one-time link an operator hands
 * to the person they invited.
 *
 *   GET  /invitations/:token   who invites you, with which role; a form to sign in and accept, and
 *                              one to have a link e-mailed to the invited address
 *   POST /invitations/:token   `csrf` and `decision`:
 *                              `accept` + `password`: signs in as the invited address and accepts
 *                              `link`: e-mails a link to the invited address (nothing else)
 *
 * Holding the invitation link proves nothing about the address (its `acceptUrl` is shown to the
 * operator who made it), so this page never makes an account: a person without one gets a link
 * sent to the invited address (src/platform/address-links.ts), on which they choose their password;
 * the account is made then, and the invitation accepted. An account holder signs in here.
 *
 * No answer tells whether the address has an account (DESIGN D5): a wrong password and "no account
 * yet" are one answer (401, the same page, and a link sent to the address either way), after the
 * same work (one Argon2id verification, against a dummy hash when there is no account, one link
 * stored, one message sent). Wrong passwords count against the D7 login-failure limit of the
 * address + IP like the sign-in page; every link mailed spends the mail budgets (client address,
 * recipient, server: src/http/mail-budget.ts), past which no link is stored or sent. The page
 * collects a password, so it is served under the app's CSP with `frame-ancestors 'none'`.
 */
import Router from '@koa/router';
import { parseForm as form, formBody } from '../http/body.js';
import { failureCountOf } from '../http/failure-count.js';
import { mailRetryText, type MailBudget } from '../http/mail-budget.js';
import escapeHtml from 'escape-html';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { Accounts } from '../platform/accounts.js';
import { PlatformError } from '../platform/errors.js';
import type { Invitations } from '../platform/invitations.js';
import type { AddressLinks } from '../platform/address-links.js';
import type { LinkMailer } from '../ops/mail.js';
import { setPasswordUrl } from '../http/links.js';
import { Gone, HttpError, InvalidRequest, NotFound } from '../errors/catalogue.js';
import type { CsrfTokens } from '../http/csrf.js';
import { layout } from './templates.js';

export interface InvitationPageDeps {
  accounts: Accounts;
  invitations: Invitations;
  /** Issues the links that prove the invited address (`join`). */
  addressLinks: AddressLinks;
  /** Sends them to the invited address (SMTP, or the `DATA_DIR/outbox/` files). */
  mailer: LinkMailer;
  /** DESIGN D7 mail budgets: each link mailed spends a point of each (src/http/mail-budget.ts). */
  mailBudget: Pick<MailBudget, 'spend'>;
  /** `BASE_URL`: the mailed link is `BASE_URL/set-password?token=…`. */
  baseUrl: string;
  csrf: CsrfTokens;
  logger: Logger;
  // DESIGN D7: the failed-login point is the `invitation` row's (route table `rateLimit.on:
  // 'failure'`), taken with `failureCountOf(ctx)` (src/http/failure-count.ts).
}

const e = (value: unknown): string => escapeHtml(String(value ?? ''));
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

interface PageView {
  siteName: string;
  role: string;
  email: string;
  csrf: string;
  error?: string;
  status?: string;
}

function invitationPage(v: PageView): string {
  return layout(
    'Invitation',
    `<h1>Join ${e(v.siteName)}</h1>
<p class="lead">You are invited as <strong>${e(v.role)}</strong> with the address <strong>${e(v.email)}</strong>.</p>
${v.error ? `<p class="error" role="alert">${e(v.error)}</p>` : ''}${v.status ? `<p class="notice" role="status">${e(v.status)}</p>` : ''}
<form method="post" autocomplete="on">
  <input type="hidden" name="csrf" value="${e(v.csrf)}">
  <input type="hidden" name="email" value="${e(v.email)}" autocomplete="username">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" required autofocus autocomplete="current-password">
  <button type="submit" name="decision" value="accept">Sign in and accept</button>
</form>
<form method="post">
  <input type="hidden" name="csrf" value="${e(v.csrf)}">
  <p>No account yet, or forgot your password? We e-mail a link to <strong>${e(v.email)}</strong>; on it you choose your password and join.</p>
  <button type="submit" name="decision" value="link">E-mail me a link</button>
</form>`,
  );
}

/** What the page says once a link was sent: the same words whether or not the address has an account. */
const sentTo = (email: string, siteName: string): string =>
  `We sent a link to ${email}: open it to choose your password and join ${siteName}. It works once, for 24 hours.`;

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
      const sentence = `${err.message.charAt(0).toUpperCase() + err.message.slice(1)}.`;
      throw err.code === 'not_found' ? new NotFound(sentence, err.reason) : new Gone(sentence, err.reason);
    }
  }

  router.get('/invitations/:token', async (ctx) => {
    const inv = await pending(ctx);
    ctx.type = 'html';
    ctx.body = invitationPage({
      siteName: inv.siteName,
      role: inv.role,
      email: inv.email,
      csrf: deps.csrf.issue(`invitation:${inv.id}`),
    });
  });

  router.post('/invitations/:token', form, async (ctx) => {
    const inv = await pending(ctx);
    const body = formBody(ctx);
    const show = (status: number, text: { error?: string; status?: string }) => {
      ctx.status = status;
      ctx.type = 'html';
      ctx.body = invitationPage({
        siteName: inv.siteName,
        role: inv.role,
        email: inv.email,
        csrf: deps.csrf.issue(`invitation:${inv.id}`),
        ...text,
      });
    };
    if (!deps.csrf.verify(`invitation:${inv.id}`, body.csrf)) {
      throw new InvalidRequest('The form has expired or did not come from this page. Go back and try again.', {
        status: 403,
      });
    }
    const decision = body.decision === 'link' ? 'link' : 'accept';
    const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
    if (decision === 'accept' && !password) return show(400, { error: 'Enter your password.' });
    if (decision === 'accept') {
      try {
        // A wrong password is a failed sign-in of the address + IP (DESIGN D7).
        await failureCountOf(ctx).reserve(inv.email);
      } catch (err) {
        if (!(err instanceof HttpError) || err.status !== 429) throw err;
        for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
        return show(429, { error: err.description });
      }
    }

    /**
     * Issues a `join` link for the invited address and mails it, once the mail budgets (client
     * address, recipient, server) allow it: `sent`, `failed` (the mail could not go) or the
     * refusal of a budget (nothing stored, nothing sent).
     */
    const sendLink = async (): Promise<'sent' | 'failed' | { retryAfterSeconds: number }> => {
      const spent = await deps.mailBudget.spend(inv.email, ctx.ip);
      if (!spent.ok) return { retryAfterSeconds: spent.retryAfterSeconds };
      const link = await deps.addressLinks.issue(inv.email, 'join', inv.id);
      try {
        await deps.mailer.sendAddressLink(inv.email, {
          purpose: 'join',
          siteName: inv.siteName,
          role: inv.role,
          link: setPasswordUrl(deps.baseUrl, link.token),
          expiresAt: link.expiresAt,
        });
        return 'sent';
      } catch (err) {
        deps.logger.warn(
          {
            event: 'address_link_not_sent',
            invitation: inv.id,
            domain: inv.email.split('@')[1],
            err: { message: (err as Error).message },
          },
          'address link e-mail not sent',
        );
        return 'failed';
      }
    };
    const notSent = 'We could not send the e-mail just now. Try again in a few minutes.';

    if (decision === 'link') {
      deps.logger.info(
        { event: 'invitation_link_requested', invitation: inv.id },
        'invitation: address link requested',
      );
      const sent = await sendLink();
      if (sent === 'sent') return show(200, { status: sentTo(inv.email, inv.siteName) });
      if (sent === 'failed') return show(503, { error: notSent });
      ctx.set('Retry-After', String(sent.retryAfterSeconds));
      return show(429, { error: mailRetryText(sent.retryAfterSeconds) });
    }
    // Constant cost: without an account, the password is checked against a dummy Argon2id hash.
    const user = await deps.accounts.authenticate(inv.email, password);
    if (!user) {
      // One answer for "wrong password" and "no account yet" (DESIGN D5), with the same work behind
      // it; the reserved point stays spent.
      deps.logger.info({ event: 'invitation_login_failed', invitation: inv.id }, 'invitation sign-in failed');
      const sent = await sendLink();
      const wrong = `Wrong password, or no account yet for ${inv.email}.`;
      if (sent === 'sent')
        return show(401, { error: `${wrong} ${sentTo(inv.email, inv.siteName)} Or enter your password again.` });
      if (sent === 'failed') return show(401, { error: `${wrong} ${notSent}` });
      // The same words with or without an account: the budget is the address's, not the account's.
      return show(401, {
        error: `${wrong} No link was sent: ${mailRetryText(sent.retryAfterSeconds)} Or enter your password again.`,
      });
    }
    await failureCountOf(ctx).release(inv.email);
    try {
      const accepted = await deps.invitations.accept(inv.token, user);
      deps.logger.info(
        { event: 'invitation_accepted', invitation: inv.id, sub: user.id, site: accepted.siteId },
        'invitation accepted',
      );
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      return show(err.code === 'forbidden' ? 403 : 409, { error: err.message });
    }
    ctx.type = 'html';
    ctx.body = layout(
      'Welcome',
      `<h1>Welcome to ${e(inv.siteName)}</h1><p class="lead" role="status">You now have the role <strong>${e(inv.role)}</strong> there. Sign in to its apps with <strong>${e(inv.email)}</strong>.</p>`,
    );
  });
  return router;
}
