/**
 * Cursor pagination of admin lists (docs/admin-api.md "Pagination"). A page is `limit` rows after
 * the row named by `cursor`; the answer carries `nextCursor` (null on the last page). Cursors are
 * opaque (base64url of the last row's key), so a caller never computes one.
 */
import { z } from 'zod';
import { PlatformError } from '../platform/errors.js';
import { MAX_ADMIN_PAGE_SIZE } from '../platform/paging.js';

/** Query parameters of every list: `limit` 1…MAX_ADMIN_PAGE_SIZE (default 50), `cursor` from an earlier page. */
export const pageQuery = {
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_ADMIN_PAGE_SIZE)
    .default(50)
    .describe(`Rows per page, 1–${MAX_ADMIN_PAGE_SIZE}.`),
  cursor: z.string().max(512).optional().describe('`nextCursor` of the previous page.'),
};

export const nextCursor = z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.');

/**
 * One page of `rows` (already in list order; keys unique).
 * @throws PlatformError `invalid` when the cursor names no row of this list
 */
export function paginate<T>(
  rows: readonly T[],
  key: (row: T) => string,
  page: { limit: number; cursor?: string },
): { items: T[]; nextCursor: string | null } {
  let start = 0;
  if (page.cursor !== undefined) {
    const after = Buffer.from(page.cursor, 'base64url').toString('utf8');
    const index = rows.findIndex((r) => key(r) === after);
    if (index < 0)
      throw new PlatformError(
        'invalid',
        'cursor: not a cursor of this list (or its row is gone); start again without one',
      );
    start = index + 1;
  }
  const items = rows.slice(start, start + page.limit);
  const last = items[items.length - 1];
  const more = start + page.limit < rows.length;
  return {
    items,
    nextCursor: more && last !== undefined ? Buffer.from(key(last), 'utf8').toString('base64url') : null,
  };
}
