/**
 * HTML of the interaction pages (login, site picker, consent) and of error pages. Plain forms:
 * they work without JavaScript. Every interpolated value goes through `escape-html`.
 *
 * Field names are the test-automation contract of DESIGN.md §3: `email`, `password`, `org_id`,
 * `decision` (`approve` / `deny`).
 */
import escapeHtml from 'escape-html';
import type { Context } from 'koa';

const e = (value: unknown): string => escapeHtml(String(value ?? ''));

/** Wraps a page body in the shared layout. */
export function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${e(title)} · coursegate</title>
<link rel="stylesheet" href="/assets/coursegate.css">
</head>
<body>
<main class="card">
${body}
</main>
</body>
</html>`;
}

export interface LoginView {
  action: string;
  csrf: string;
  clientName: string;
  email?: string;
  error?: string;
}

/** The login form (DESIGN §3: inputs `email`, `password`); `error` is shown above the form. */
export function loginPage(v: LoginView): string {
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
<p class="lead">to continue to <strong>${e(v.clientName)}</strong></p>
${v.error ? `<p class="error" role="alert">${e(v.error)}</p>` : ''}
<form method="post" action="${e(v.action)}" autocomplete="on">
  <input type="hidden" name="csrf" value="${e(v.csrf)}">
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" required autofocus value="${e(v.email)}" autocomplete="username">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" required autocomplete="current-password">
  <button type="submit">Sign in</button>
</form>
<p><a href="/signin?forgot=1" target="_blank" rel="noopener">Forgot your password?</a></p>`,
  );
}

export interface SitePickerView {
  action: string;
  csrf: string;
  clientName: string;
  /** "Not you?" link: the same authorization request with `prompt=login` (sign in as someone else). */
  switchAccountUrl?: string;
  userEmail?: string;
  sites: Array<{ id: string; name: string; roles: string[] }>;
}

/** The site picker (DESIGN §3: radio inputs `org_id` whose values are site ids). */
export function sitePickerPage(v: SitePickerView): string {
  const options = v.sites
    .map(
      (s, i) => `<label class="choice"><input type="radio" name="org_id" value="${e(s.id)}"${i === 0 ? ' checked' : ''}>
  <span><strong>${e(s.name)}</strong> <small>${e(s.roles.join(', '))}</small></span></label>`,
    )
    .join('\n');
  return layout(
    'Choose a site',
    `<h1>Choose a site</h1>
<p class="lead"><strong>${e(v.clientName)}</strong> will act at the site you choose, and only there.</p>
<form method="post" action="${e(v.action)}">
  <input type="hidden" name="csrf" value="${e(v.csrf)}">
  ${options}
  <button type="submit">Continue</button>
</form>
${notYou(v.userEmail, v.switchAccountUrl)}`,
  );
}

export interface ConsentView {
  action: string;
  csrf: string;
  /** The site the grant will be for. */
  orgId: string;
  clientName: string;
  clientKind: string;
  clientDetail?: string;
  /** Host name of the redirect URI the authorization goes back to (MCP 2026-07-28: shown prominently). */
  redirectHost?: string;
  /** Every redirect URI of the client is loopback: warn that only a program on this computer receives it. */
  localOnly?: boolean;
  siteName: string;
  userEmail: string;
  /** `isNew`: not in any earlier authorization of this client by this user (marked "new"). */
  scopes: Array<{ scope: string; description: string; isNew?: boolean }>;
  /** A self-registered client nobody reviewed (loopback, unreviewed CIMD): its name is marked "unverified". */
  unverified?: boolean;
  /** "Not you?" link: the same authorization request with `prompt=login`. */
  switchAccountUrl?: string;
}

/** The "Not you?" line: sign in as someone else (a GET link; works without JavaScript). */
function notYou(email: string | undefined, url: string | undefined): string {
  if (!url) return '';
  return `<p class="switch">${email ? `Not ${e(email)}? ` : 'Not you? '}<a href="${e(url)}">Sign in with another account</a></p>`;
}

/** The consent page: client, kind, site and each scope in plain words; buttons `decision` = approve | deny. */
export function consentPage(v: ConsentView): string {
  const items = v.scopes
    .map(
      (s) =>
        `<li><span>${e(s.description)}</span>${s.isNew ? ' <span class="new">new</span>' : ''} <code>${e(s.scope)}</code></li>`,
    )
    .join('\n');
  const anyNew = v.scopes.some((s) => s.isNew);
  const unverified = v.unverified
    ? ` <span class="unverified">unverified</span></p>
<p><small>This application registered itself: its name is its own claim and nobody checked who made it. Allow it only if you started it yourself and trust it.</small>`
    : '';
  return layout(
    'Allow access',
    `<h1>Allow access?</h1>
<p class="lead"><strong>${e(v.clientName)}</strong> wants to act for <strong>${e(v.userEmail)}</strong>
at <strong>${e(v.siteName)}</strong>.</p>
<p><span class="kind">${e(v.clientKind)}${v.clientDetail ? ` · ${e(v.clientDetail)}` : ''}</span>${unverified}</p>
${v.redirectHost ? `<p class="redirect">You will be sent back to <strong class="redirect-host">${e(v.redirectHost)}</strong>.</p>\n` : ''}${
  v.localOnly
    ? '<p class="warning" role="alert">This application receives your sign-in on <strong>this computer</strong> (localhost) only. Allow it only if you started it yourself on this computer.</p>\n'
    : ''
}<p>It will be able to${anyNew ? ' (<span class="new">new</span>: not allowed to it before)' : ''}:</p>
<ul class="scopes">
${items}
</ul>
<form method="post" action="${e(v.action)}">
  <input type="hidden" name="csrf" value="${e(v.csrf)}">
  <input type="hidden" name="org_id" value="${e(v.orgId)}">
  <button type="submit" name="decision" value="approve">Allow</button>
  <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>
${notYou(v.userEmail, v.switchAccountUrl)}`,
  );
}

/** The heading of an error page, from its status and RFC error code (issue 30: never a generic "Something went wrong" for a 4xx). */
export function errorTitle(status: number, error: string, description = ''): string {
  if (/expired|no longer valid|already been used|was used/i.test(description)) return 'This link or page has expired';
  if (status === 404) return 'Page not found';
  if (status === 429) return 'Too many attempts';
  if (status === 401) return 'Please sign in again';
  if (status === 403 || error === 'access_denied') return 'You cannot do this here';
  if (error === 'invalid_client' || error === 'unauthorized_client' || error === 'invalid_redirect_uri')
    return 'This application cannot sign you in';
  if (status === 503) return 'Briefly unavailable';
  if (status >= 500) return 'Something went wrong on our side';
  return 'This request could not be completed';
}

/**
 * Writes a readable HTML error page (DESIGN D8): a heading that says what happened, the
 * description in plain words, the ways out (home page; sign out or use another account) and the
 * RFC error code for support, no stack. Only the html surface mapper (src/errors/surfaces/html.ts)
 * calls it: pages throw catalogue errors.
 */
export function renderErrorPage(ctx: Context, error: string, description: string, status?: number): void {
  if (status) ctx.status = status;
  const title = errorTitle(ctx.status, error, description);
  ctx.type = 'html';
  ctx.body = layout(
    title,
    `<h1>${e(title)}</h1>
<p class="error" role="alert">${e(description)}</p>
<h2 class="sub">What you can do</h2>
<ul class="ways-out">
  <li><a href="/">Go to the home page</a></li>
  <li><a href="/signout">Sign out or use another account</a></li>
  <li>If an application sent you here, go back to it and start again.</li>
</ul>
<p><small>Error code: <code>${e(error)}</code> (HTTP ${e(ctx.status)}). Give it to support if the problem stays.</small></p>`,
  );
}

/** The stylesheet of every page (served at /assets/coursegate.css, so CSP can forbid inline styles). */
export const STYLESHEET = `
*{box-sizing:border-box}body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#f4f5f7;color:#1d2330;margin:0;padding:2rem 1rem}
.card{max-width:26rem;margin:0 auto;background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:1.5rem 1.75rem}
h1{font-size:1.4rem;margin:0 0 .5rem}.lead{margin-top:0;color:#4a5262}label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input[type=email],input[type=password]{width:100%;padding:.55rem .65rem;border:1px solid #c5cad3;border-radius:6px;font:inherit}
button{margin-top:1rem;padding:.55rem 1.1rem;border:0;border-radius:6px;background:#2952cc;color:#fff;font:inherit;cursor:pointer}
button.secondary{background:#e4e7ec;color:#1d2330;margin-left:.5rem}.error{background:#fdecea;color:#8a1c12;padding:.5rem .75rem;border-radius:6px}
.choice{display:flex;gap:.6rem;align-items:center;font-weight:400;border:1px solid #dde1e7;border-radius:6px;padding:.5rem .65rem}
.kind{display:inline-block;background:#eef2ff;color:#2d3a8c;border-radius:999px;padding:.1rem .7rem;font-size:.85rem}
.scopes{padding-left:1.1rem}.scopes code{color:#6b7280;font-size:.8rem}small{color:#6b7280}
.ways-out{padding-left:1.1rem}.plain{list-style:none;padding:0;margin:0}a.button{display:inline-block;padding:.4rem .9rem;border-radius:6px;background:#2952cc;color:#fff;text-decoration:none}a.button.secondary{background:#e4e7ec;color:#1d2330}
h2.sub{font-size:1rem;margin:1rem 0 .25rem}.new{background:#fff4e5;color:#7a4100;border-radius:999px;padding:0 .5rem;font-size:.8rem;font-weight:600}
.unverified{background:#fdecea;color:#8a1c12;border-radius:999px;padding:0 .5rem;font-size:.8rem;font-weight:600}.switch{margin:.75rem 0 0;font-size:.9rem}
.redirect-host{font-size:1.15rem;overflow-wrap:anywhere}.warning{background:#fff4e5;color:#7a4100;padding:.5rem .75rem;border-radius:6px}
.docs-card{max-width:60rem}.docs-nav{font-size:.9rem;line-height:1.9;margin-bottom:1rem;border-bottom:1px solid #e4e7ec;padding-bottom:.5rem}
.docs{overflow-wrap:anywhere}.docs h1{font-size:1.6rem}.docs h2{font-size:1.25rem;margin-top:2rem}.docs h3{font-size:1.05rem}
.docs table{display:block;max-width:100%;overflow-x:auto;border-collapse:collapse;margin:1rem 0}.docs th,.docs td{border:1px solid #dde1e7;padding:.3rem .5rem;vertical-align:top;text-align:left}
.docs pre{max-width:100%;overflow-x:auto;background:#f6f8fa;padding:.75rem;border-radius:6px;font-size:.85rem}.docs code{font-size:.9em;overflow-wrap:anywhere}.docs img{max-width:100%;height:auto}
@media (max-width:40rem){body{padding:1rem .5rem}.card{padding:1rem}button.secondary{margin-left:0}form button{margin-right:.5rem}}
`;
