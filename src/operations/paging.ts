/**
 * Cursor pagination of admin lists (docs/admin-api.md "Pagination"): the query parameters and the
 * `nextCursor` field every list operation declares. A page is `limit` rows after the row named by
 * `cursor`; the answer carries `nextCursor` (null on the last page). Every list pages in SQL by
 * keyset (issue #29: "Keyset pagination in SQL for every list (no in-memory paging, no row cap:
 * every row reachable by cursor)"): the services read `limit + 1` rows after the cursor's sort key
 * (src/platform/paging.ts `decodeCursor`, `keysetPage`). Cursors are opaque (base64url of the last
 * row's sort key), so a caller never computes one.
 */
import { z } from 'zod';
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
  // A cursor holds the last row's sort key: up to a 200-character title or name and a slug or id
  // (courses, lecturers), ≤ 1,300 bytes of JSON even when every character is escaped, so its
  // base64url fits in 2,048 and every row stays reachable.
  cursor: z.string().max(2048).optional().describe('`nextCursor` of the previous page.'),
};

export const nextCursor = z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.');
