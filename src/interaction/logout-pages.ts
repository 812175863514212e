/**
 * The pages of RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0), in our layout:
 * oidc-provider's defaults carry inline styles and name the request's `Host` (issue #13
 * findings 3 and 9). Plain forms, no script: they work under the CSP of every page.
 */
import escapeHtml from 'escape-html';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { layout } from './templates.js';

/**
 * `features.rpInitiatedLogout.logoutSource`: asks to confirm. `form` is oidc-provider's hidden form
 * (`id="op.logoutForm"`, carrying its CSRF value); the buttons submit it.
 * @param origin the configured origin (BASE_URL), named on the page instead of the Host header
 */
export function logoutPage(origin: string) {
  const host = escapeHtml(new URL(origin).host);
  return async (ctx: KoaContextWithOIDC, form: string): Promise<void> => {
    ctx.type = 'html';
    ctx.body = layout(
      'Sign out',
      `<h1>Sign out of ${host}?</h1>
${form}
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
<button type="submit" form="op.logoutForm" class="secondary">No, stay signed in</button>`,
    );
  };
}

/** `features.rpInitiatedLogout.postLogoutSuccessSource`: shown when no post-logout redirect follows. */
export async function signedOutPage(ctx: KoaContextWithOIDC): Promise<void> {
  ctx.type = 'html';
  ctx.body = layout('Signed out', '<h1>You are signed out</h1>\n<p>You can close this window.</p>');
}
