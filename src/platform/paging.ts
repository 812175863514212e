/**
 * Keyset pagination shared by the member lists (enrollments, orders, event registrations).
 *
 * A row key is a JSON array of the ordering columns (e.g. `["2026-11-01T10:00:00.000Z","ord_1"]`):
 * stable across inserts elsewhere in the list, because it names a row, not an offset. The API layer
 * wraps keys into opaque cursors; this module only parses what it produced.
 */
import type { ExpressionBuilder } from 'kysely';
import { PlatformError } from './errors.js';

/** Largest page a caller may ask for (`first`). */
export const MAX_PAGE_SIZE = 100;

/** Largest page of the operator lists (`/api/v1` `limit`, docs/admin-api.md "Pagination"). */
export const MAX_ADMIN_PAGE_SIZE = 200;

/**
 * Most rows a caller of the whole-list helpers (`PeopleAdmin.students`, `CommerceAdmin.orders`)
 * reads at once. The admin API never uses them for its lists (issue #29): it pages in SQL with
 * {@link KeysetPage} cursors, so every row of a site is reachable whatever its size.
 */
export const MAX_ADMIN_LIST_ROWS = 10_000;

/**
 * One page of an operator list paged in SQL by keyset (issue #29): at most `limit` rows in list
 * order, and `nextCursor`, the opaque key of the last row when more rows follow (null on the last
 * page). docs/admin-api.md "Pagination".
 */
export interface KeysetPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** A keyset page request: `limit` rows (1…MAX_ADMIN_PAGE_SIZE) after the row named by `cursor`. */
export interface KeysetRequest {
  limit: number;
  /** `nextCursor` of an earlier page of the same list (and the same filters). */
  cursor?: string;
}

/**
 * The opaque cursor of a row: base64url of the JSON array of its sort key (last sort column the
 * row's unique id), e.g. `["2026-11-01T10:00:00.000Z","ord_1"]`.
 */
export const encodeCursor = (key: readonly string[]): string =>
  Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

/**
 * The sort key inside a cursor made by {@link encodeCursor}.
 * @param arity how many strings the key of this list has
 * @throws PlatformError `invalid` (field `cursor`) when it is not a cursor of a list of this shape
 */
export function decodeCursor(cursor: string, arity: number): string[] {
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(key) && key.length === arity && key.every((v) => typeof v === 'string')) return key as string[];
  } catch {
    // falls through to the error below
  }
  throw new PlatformError('invalid', 'cursor: not a cursor of this list; start again without one', { field: 'cursor' });
}

/**
 * The keyset condition "after the cursor's row" of a list ordered newest first by `time`, then by
 * `key` ascending within one time (a WHERE callback for Kysely): `time <= t` is the index seek, and
 * `time < t OR key > k` only breaks ties (a row-value comparison cannot express mixed directions).
 * @param cursor a cursor of this list (two strings: the time, ISO 8601, and the key)
 * @throws PlatformError `invalid` (field `cursor`) when it is not a cursor of a list of this shape
 */
export function afterNewestFirst(time: string, key: string, cursor: string) {
  const [t, k] = decodeCursor(cursor, 2) as [string, string];
  // biome-ignore lint/suspicious/noExplicitAny: column names are checked by the caller's list query
  return (eb: ExpressionBuilder<any, any>) => eb.and([eb(time, '<=', t), eb.or([eb(time, '<', t), eb(key, '>', k)])]);
}

/**
 * The page of `rows` read with `LIMIT limit + 1` (the extra row only says that more follow).
 * @param key the sort key of a row, as {@link encodeCursor} takes it
 */
export function keysetPage<R, T>(
  rows: readonly R[],
  limit: number,
  key: (row: R) => readonly string[],
  view: (row: R) => T,
): KeysetPage<T> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(view),
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(key(last)) : null,
  };
}

/**
 * The one page-size clamp (issue #9): the number of rows a list query reads when the caller's
 * size is a request, not a contract — `requested` truncated to an integer and clamped to 1…`max`;
 * `max` when it is missing or not a finite number. Sizes that come straight from a client are
 * validated (refused, not clamped) by {@link checkPageSize} or the surface's schema (SPEC §2.4
 * connections, DESIGN D9 `limit`); this is what the platform services apply underneath.
 * @param max the list's ceiling (MAX_PAGE_SIZE, MAX_ADMIN_PAGE_SIZE, the catalogue's…), ≥ 1
 */
export function clampPageSize(requested: number | undefined, max: number = MAX_PAGE_SIZE): number {
  if (requested === undefined || !Number.isFinite(requested)) return max;
  return Math.min(Math.max(1, Math.trunc(requested)), max);
}

/** One page of a keyset-paginated list; `cursor` values are opaque row keys. */
export interface Page<T> {
  items: Array<{ cursor: string; node: T }>;
  hasNextPage: boolean;
  totalCount: number;
}

/** A page request: at most `first` rows after the row whose key is `after`. */
export interface PageRequest {
  /** 0…MAX_PAGE_SIZE. */
  first: number;
  /** A row key from an earlier page of the same list; undefined = from the start. */
  after?: string;
}

/**
 * A page request outside the rules (size out of range, key not from this list): the domain error
 * `invalid` (src/platform/errors.ts) naming the field `first` or `after`.
 */
export class InvalidPageRequestError extends PlatformError {
  override name = 'InvalidPageRequestError';
  constructor(message: string, field: 'first' | 'after') {
    super('invalid', message, { field });
  }
}

/**
 * Checks a page size.
 * @throws InvalidPageRequestError when `first` is not an integer in 0…MAX_PAGE_SIZE
 */
export function checkPageSize(first: number): number {
  if (!Number.isInteger(first) || first < 0 || first > MAX_PAGE_SIZE) {
    throw new InvalidPageRequestError(`first must be an integer between 0 and ${MAX_PAGE_SIZE}`, 'first');
  }
  return first;
}

/** The key of a row ordered by `(a, b)`: a JSON array of two strings. */
export const pairKey = (a: string, b: string): string => JSON.stringify([a, b]);

/**
 * Parses a key made by `pairKey`.
 * @throws InvalidPageRequestError when it is not a JSON array of two strings
 */
export function parsePairKey(key: string): [string, string] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    throw new InvalidPageRequestError('after: not a cursor of this list', 'after');
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || !parsed.every((v) => typeof v === 'string')) {
    throw new InvalidPageRequestError('after: not a cursor of this list', 'after');
  }
  return [parsed[0] as string, parsed[1] as string];
}
