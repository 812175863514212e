/**
 * Keyset pagination shared by the member lists (enrollments, orders, event registrations).
 *
 * A row key is a JSON array of the ordering columns (e.g. `["2026-11-01T10:00:00.000Z","ord_1"]`):
 * stable across inserts elsewhere in the list, because it names a row, not an offset. The API layer
 * wraps keys into opaque cursors; this module only parses what it produced.
 */
import { PlatformError } from './errors.js';

/** Largest page a caller may ask for (`first`). */
export const MAX_PAGE_SIZE = 100;

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
