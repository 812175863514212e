/**
 * A headless user agent for the interaction pages: follows redirects by hand, keeps cookies, and
 * fills the forms of DESIGN.md §3 (login `email`/`password`, site picker `org_id`, consent
 * `decision`). It stops at the client's redirect URI and returns that URL (code, state, iss).
 */

export interface UserAgentOptions {
  email: string;
  password: string;
  /** Site to pick when the site picker appears (`org_id`). */
  site?: string;
  decision?: 'approve' | 'deny';
  /** True when a URL is the client's redirect URI. Default: host 127.0.0.1 and path /callback. */
  isRedirectUri?: (url: URL) => boolean;
}

/** A visited page, for assertions. */
export interface Visit {
  url: string;
  status: number;
  headers: Headers;
  body: string;
}

export class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  get size(): number {
    return this.cookies.size;
  }
}

/** Parses the first form of a page: action and hidden inputs. */
export function parseForm(html: string): { action: string; hidden: Record<string, string> } {
  const form = /<form[^>]*action="([^"]*)"/.exec(html);
  if (!form) throw new Error(`no form on page:\n${html.slice(0, 500)}`);
  const hidden: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    hidden[m[1]!] = decodeEntities(m[2]!);
  return { action: decodeEntities(form[1]!), hidden };
}

function decodeEntities(s: string): string {
  return s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

const defaultIsRedirect = (u: URL) => u.hostname === '127.0.0.1' && u.pathname === '/callback';

/**
 * Drives an authorization URL through login, site picker and consent.
 * @returns the redirect-URI URL the server finally sent the browser to, and the pages visited
 * @throws when a page is unexpected or more than 20 steps are needed
 */
export async function completeAuthorization(
  authUrl: string | URL,
  options: UserAgentOptions,
  jar = new CookieJar(),
): Promise<{ callback: URL; visits: Visit[] }> {
  const isRedirect = options.isRedirectUri ?? defaultIsRedirect;
  const visits: Visit[] = [];
  let next: { url: string; init?: RequestInit } = { url: String(authUrl) };
  for (let step = 0; step < 20; step++) {
    const res = await fetch(next.url, {
      ...next.init,
      redirect: 'manual',
      headers: { ...(next.init?.headers as Record<string, string>), cookie: jar.header() },
    });
    jar.store(res);
    const body = await res.text();
    visits.push({ url: next.url, status: res.status, headers: res.headers, body });
    const location = res.headers.get('location');
    if (location) {
      const target = new URL(location, next.url);
      if (isRedirect(target)) return { callback: target, visits };
      next = { url: target.href };
      continue;
    }
    if (res.status >= 400 && !body.includes('<form'))
      throw new Error(`HTTP ${res.status} at ${next.url}: ${body.slice(0, 400)}`);
    const { action, hidden } = parseForm(body);
    const fields = new URLSearchParams(hidden);
    if (body.includes('name="password"')) {
      fields.set('email', options.email);
      fields.set('password', options.password);
    } else if (body.includes('name="decision"')) {
      fields.set('decision', options.decision ?? 'approve');
    } else if (body.includes('name="org_id"')) {
      if (!options.site) throw new Error('site picker shown but no site given');
      fields.set('org_id', options.site);
    } else {
      throw new Error(`unknown form at ${next.url}`);
    }
    next = {
      url: new URL(action, next.url).href,
      init: {
        method: 'POST',
        body: fields.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    };
  }
  throw new Error('too many steps');
}
