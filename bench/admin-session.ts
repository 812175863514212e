/**
 * An operator session for benches that read the `/admin` pages (issue #29: "every operator page and
 * its API operation under 150 ms p95"). Signs in through the real sign-in form, as a browser does:
 * GET `/signin?next=/admin` (its CSRF cookie and hidden fields `csrf`, `next`), then POST `/signin`
 * with `email` and `password` (DESIGN §3), and keeps every cookie set on the way.
 */

/** The name=value pairs of a response's Set-Cookie headers, added to (or, when cleared, removed from) `jar`. */
function keepCookies(jar: Map<string, string>, res: Response): void {
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(';', 1)[0]!;
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}

const cookieHeader = (jar: Map<string, string>): string => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

/** `&amp;`-style entities of an HTML attribute value, decoded. */
const unescapeAttr = (s: string): string =>
  s
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/**
 * Signs an operator in to `/admin` through the sign-in form and returns the `Cookie` header value to
 * send with later `GET /admin/…` requests (the signed session cookie and its companions).
 * @param origin the server's origin, e.g. `http://127.0.0.1:3000` (no trailing slash needed)
 * @param email an owner's or admin's e-mail
 * @throws Error when the sign-in page has no form, or the sign-in is refused (wrong password,
 *   rate limit, …): the message names the status
 */
export async function adminSession(origin: string, email: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const page = await fetch(new URL('/signin?next=/admin', origin), { redirect: 'manual' });
  keepCookies(jar, page);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`GET /signin answered ${page.status}`);
  const fields = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields.set(m[1]!, unescapeAttr(m[2]!));
  if (!fields.has('csrf')) throw new Error('the sign-in page has no CSRF field');
  fields.set('email', email);
  fields.set('password', password);
  const res = await fetch(new URL('/signin', origin), {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookieHeader(jar), 'content-type': 'application/x-www-form-urlencoded' },
    body: fields,
  });
  keepCookies(jar, res);
  await res.arrayBuffer();
  if (res.status !== 303) throw new Error(`sign-in of ${email} answered ${res.status}, not 303`);
  return cookieHeader(jar);
}
