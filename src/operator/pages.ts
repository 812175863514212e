/**
 * Paging of the operator area's lists (issue #29, "operator pages that page instead of rendering a
 * whole site"): each list page of `/admin` shows at most {@link ADMIN_PAGE_SIZE} rows, read by the
 * keyset page functions the `/api/v1` operations use, and links to the next page with the opaque
 * `cursor` those functions return (`?cursor=…`, the page's filters kept). No offset, no cap: every
 * row of a site is reachable by following "Next page".
 */
import type { Context } from 'koa';
import { InvalidRequest } from '../errors/catalogue.js';
import { PlatformError } from '../platform/errors.js';
import { e } from './views.js';

/** Rows per page of an `/admin` list. */
export const ADMIN_PAGE_SIZE = 50;

/** What a "Next page" link that does not name a row of its list answers (400, on the HTML error page). */
export const BAD_CURSOR =
  'This page link is not valid for this list (it may be from another list or cut short). Start again from the first page.';

/**
 * The `cursor` of a list page's query string: undefined on the first page.
 * @param name the query parameter (a page with two lists names the second one's differently)
 * @throws InvalidRequest (400) when it is repeated, empty or longer than 512 characters
 */
export function pageCursor(ctx: Context, name = 'cursor'): string | undefined {
  const value = ctx.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 512) throw new InvalidRequest(BAD_CURSOR);
  return value;
}

/**
 * Runs a keyset page read; a cursor the list refuses (`PlatformError` `invalid` on field `cursor`,
 * src/platform/paging.ts `decodeCursor`) becomes a 400 with {@link BAD_CURSOR}, not a 500.
 */
export async function readPage<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof PlatformError && err.code === 'invalid' && err.field === 'cursor')
      throw new InvalidRequest(BAD_CURSOR);
    throw err;
  }
}

/**
 * The page links under a list: "First page" when this is not the first page, "Next page" when more
 * rows follow (`nextCursor` not null). Empty when the whole list fits one page.
 * @param path the page's path (e.g. `/admin/demo/people`)
 * @param keep the page's other query parameters (filters), kept on both links; empty values dropped
 * @param name the cursor's query parameter
 */
export function pager(
  path: string,
  keep: Record<string, string>,
  current: string | undefined,
  nextCursor: string | null,
  name = 'cursor',
): string {
  const href = (cursor?: string) => {
    const q = new URLSearchParams(Object.entries(keep).filter(([, v]) => v !== ''));
    if (cursor) q.set(name, cursor);
    const s = q.toString();
    return s ? `${path}?${s}` : path;
  };
  const links = [
    current ? `<a href="${e(href())}">First page</a>` : '',
    nextCursor ? `<a href="${e(href(nextCursor))}" rel="next">Next page</a>` : '',
  ].filter(Boolean);
  return links.length ? `<p class="pager">${links.join(' · ')}</p>` : '';
}
