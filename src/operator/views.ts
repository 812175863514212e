/**
 * HTML of the operator area, `/account/connections`, `/signin` and `/` (issue 11). Plain forms and
 * links: everything works without JavaScript; every interpolated value goes through escape-html;
 * no inline style or script (the CSP allows neither). Tables have captions and header cells.
 */
import escapeHtml from 'escape-html';

export const e = (value: unknown): string => escapeHtml(String(value ?? ''));

/** A navigation link; `current` marks the page the reader is on (aria-current). */
export interface NavLink {
  href: string;
  label: string;
  current?: boolean;
}

/** The wide page layout with a header (site switcher, sign-out) and a section menu. */
export function page(v: { title: string; header?: string; menu?: NavLink[]; body: string }): string {
  const menu = v.menu?.length
    ? `<nav aria-label="Sections"><ul class="menu">${v.menu.map((l) => `<li><a href="${e(l.href)}"${l.current ? ' aria-current="page"' : ''}>${e(l.label)}</a></li>`).join('')}</ul></nav>`
    : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${e(v.title)} · coursegate</title>
<link rel="stylesheet" href="/assets/coursegate.css">
</head>
<body>
<header class="top">${v.header ?? '<a href="/">coursegate</a>'}</header>
${menu}
<main class="card wide">
${v.body}
</main>
</body>
</html>`;
}

/** Header of signed-in pages: home link, site switcher (operator sites), sign-out form. */
export function header(v: {
  email: string;
  csrf: string;
  sites?: Array<{ id: string; name: string; current: boolean }>;
}): string {
  const switcher = v.sites?.length
    ? `<nav aria-label="Sites"><ul class="sites">${v.sites.map((s) => `<li><a href="/admin/${e(s.id)}"${s.current ? ' aria-current="true"' : ''}>${e(s.name)}</a></li>`).join('')}</ul></nav>`
    : '';
  return `<a href="/">coursegate</a>${switcher}
<form method="post" action="/signout" class="inline"><input type="hidden" name="csrf" value="${e(v.csrf)}"><span>${e(v.email)}</span> <button type="submit" class="link">Sign out</button></form>`;
}

/**
 * A data table: caption, header row, rows of already-escaped cells. Each cell carries its column
 * name (`data-label`): below 40rem the stylesheet shows every row as a stacked card with those
 * names, so a table never widens the page on a phone (issue 30 item 7).
 * @param options.hiddenCaption the caption is read by screen readers only (a visible heading names the table)
 * @param options.stack false: a narrow table (two or three short columns) that stays a table on a phone
 */
export function table(
  caption: string,
  head: string[],
  rows: string[][],
  empty = 'Nothing yet.',
  options: { hiddenCaption?: boolean; stack?: boolean } = {},
): string {
  if (rows.length === 0) return `<p><strong>${e(caption)}:</strong> ${e(empty)}</p>`;
  return `<table${options.stack === false ? '' : ' class="stack"'}><caption${options.hiddenCaption ? ' class="vh"' : ''}>${e(caption)}</caption>
<thead><tr>${head.map((h) => `<th scope="col">${e(h)}</th>`).join('')}</tr></thead>
<tbody>${rows.map((r) => `<tr>${r.map((c, i) => `<td${options.stack !== false && head[i] ? ` data-label="${e(head[i])}"` : ''}>${c}</td>`).join('')}</tr>`).join('\n')}</tbody></table>`;
}

/** A one-button POST form (with CSRF and hidden fields). */
export function button(
  action: string,
  csrf: string,
  label: string,
  fields: Record<string, string> = {},
  secondary = false,
): string {
  const hidden = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${e(k)}" value="${e(v)}">`)
    .join('');
  return `<form method="post" action="${e(action)}" class="inline"><input type="hidden" name="csrf" value="${e(csrf)}">${hidden}<button type="submit"${secondary ? ' class="secondary"' : ''}>${e(label)}</button></form>`;
}

/** A message box: `status` (polite) or `alert`. */
export const notice = (text: string, kind: 'status' | 'alert' = 'status'): string =>
  text ? `<p class="${kind === 'alert' ? 'error' : 'notice'}" role="${kind}">${e(text)}</p>` : '';

/** "2026-11-23 04:30 UTC" from an ISO time; "never" for null. */
export const when = (iso: string | null | undefined): string =>
  iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : 'never';

const ENGLISH_PLURALS = new Intl.PluralRules('en');

/**
 * `n` with its noun in the form English gives that count (CLDR plural rules through
 * `Intl.PluralRules`): `count(1, 'member')` → `1 member`, `count(3, 'member')` → `3 members`.
 * @param plural the plural form when it is not `<one>s` (e.g. `people`)
 */
export const count = (n: number, one: string, plural = `${one}s`): string =>
  `${n.toLocaleString('en')} ${ENGLISH_PLURALS.select(n) === 'one' ? one : plural}`;

/** The sign-in page (inputs `email`, `password` as on the login page, DESIGN §3). */
export function signInPage(v: { csrf: string; next: string; email?: string; error?: string }): string {
  return page({
    title: 'Sign in',
    body: `<h1>Sign in</h1>
${notice(v.error ?? '', 'alert')}
<form method="post" action="/signin">
  <input type="hidden" name="csrf" value="${e(v.csrf)}">
  <input type="hidden" name="next" value="${e(v.next)}">
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" required autocomplete="username" value="${e(v.email)}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" required autocomplete="current-password">
  <button type="submit">Sign in</button>
</form>
<p><a href="/signin?forgot=1">Forgot your password?</a></p>`,
  });
}

/**
 * "Forgot your password?" (issue #30 item 6, DESIGN D5): one field, `email`; `sent` is the answer
 * shown after a request, the same words whether or not the address has an account.
 */
export function forgotPasswordPage(v: { csrf: string; email?: string; error?: string; sent?: string }): string {
  return page({
    title: 'Reset your password',
    body: `<h1>Reset your password</h1>
${notice(v.error ?? '', 'alert')}${notice(v.sent ?? '')}
<p class="lead">We e-mail a link to the address of your account; on it you choose a new password. Choosing one signs you out everywhere else.</p>
<form method="post" action="/signin">
  <input type="hidden" name="csrf" value="${e(v.csrf)}">
  <input type="hidden" name="forgot" value="1">
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" required autocomplete="username" value="${e(v.email)}">
  <button type="submit">E-mail me a link</button>
</form>
<p><a href="/signin">Back to sign in</a></p>`,
  });
}

/** Styles added to the shared stylesheet for the wide pages (responsive down to 360 px, issue 30 item 7). */
export const OPERATOR_STYLES = `
.card.wide{max-width:64rem}.top{max-width:64rem;margin:0 auto 1rem;display:flex;gap:.5rem 1rem;align-items:center;flex-wrap:wrap}
.top>a{font-weight:700;color:#1d2330;text-decoration:none}.sites,.menu{list-style:none;display:flex;gap:.75rem;flex-wrap:wrap;margin:0;padding:0}
.menu{max-width:64rem;margin:0 auto 1rem}.menu a,.sites a{color:#2952cc}[aria-current]{font-weight:700;color:#1d2330}
form.inline{display:inline;margin:0}form.inline button{margin-top:0}.top form.inline{margin-left:auto;display:flex;gap:.5rem;align-items:center;min-width:0}
.top form.inline span{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}
button.link{background:none;color:#2952cc;padding:0;text-decoration:underline}
table{border-collapse:collapse;width:100%;margin:1rem 0}caption{text-align:left;font-weight:700;padding:.25rem 0}
th,td{border-bottom:1px solid #dde1e7;padding:.4rem .5rem;text-align:left;vertical-align:top;font-size:.95rem}td{overflow-wrap:anywhere}
.notice{background:#e8f5e9;color:#1b5e20;padding:.5rem .75rem;border-radius:6px;overflow-wrap:anywhere}
input[type=text],input[type=url],input[type=date],select,textarea{width:100%;padding:.5rem .6rem;border:1px solid #c5cad3;border-radius:6px;font:inherit}
fieldset{border:1px solid #dde1e7;border-radius:6px;margin:.75rem 0;min-width:0}.badge{background:#fff4e5;color:#7a4100;border-radius:999px;padding:.05rem .6rem;font-size:.85rem}
.chart{display:flex;gap:0 1.5rem;flex-wrap:wrap;align-items:flex-start}.chart>h2{flex:1 1 100%;font-size:1.05rem;margin:1.5rem 0 .5rem}
.chart svg{max-width:100%;height:auto}.chart>div{flex:1 1 16rem;min-width:0}
.secret{font-family:monospace;background:#f4f5f7;padding:.25rem .5rem;border-radius:4px;word-break:break-all}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.row-actions{display:flex;flex-wrap:wrap;gap:.5rem}.row-actions form.inline{display:block}
dl.facts dt{font-weight:600;margin-top:.75rem}dl.facts dd{margin:.2rem 0 0;overflow-wrap:anywhere}
@media (max-width:40rem){
.top{flex-wrap:nowrap}.top>nav{order:3;flex:1 1 100%}.top:has(>nav){flex-wrap:wrap}.top>nav .sites{flex-wrap:nowrap;overflow-x:auto;padding-bottom:.25rem}
.top form.inline{max-width:70%}.menu{flex-wrap:nowrap;overflow-x:auto;white-space:nowrap;padding:0 .25rem .4rem}
table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:100%}table.stack caption{display:block}
table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
table.stack tr{border:1px solid #dde1e7;border-radius:6px;margin:.5rem 0;padding:.35rem .6rem}
table.stack td{border:0;padding:.2rem 0}table.stack td[data-label]::before{content:attr(data-label);display:block;font-size:.8rem;color:#4a5262;font-weight:600}
}
`;
