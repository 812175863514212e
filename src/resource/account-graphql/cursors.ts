/**
 * Opaque connection cursors of the Account API: base64url of `v1:<list>:<row key>`. The row key is
 * the platform's keyset key (paging.ts), so a cursor names a row, not an offset, and stays valid
 * while rows are added elsewhere in the list. A cursor of one list is refused by another.
 */
import { GraphQLError } from 'graphql';

/** The paginated lists of the Account API. */
export type CursorList = 'enrollments' | 'orders' | 'eventRegistrations';

const VERSION = 'v1';

/** The opaque cursor of a row key. */
export const encodeCursor = (list: CursorList, key: string): string =>
  Buffer.from(`${VERSION}:${list}:${key}`, 'utf8').toString('base64url');

/**
 * The row key of a cursor made by `encodeCursor` for the same list; undefined for no cursor.
 * @throws GraphQLError BAD_USER_INPUT for anything else
 */
export function decodeCursor(list: CursorList, cursor: string | null | undefined): string | undefined {
  if (cursor === undefined || cursor === null) return undefined;
  const prefix = `${VERSION}:${list}:`;
  const text = /^[A-Za-z0-9_-]{1,1024}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!text.startsWith(prefix) || text.length === prefix.length) {
    throw new GraphQLError('`after` is not a cursor of this list', {
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'after' },
    });
  }
  return text.slice(prefix.length);
}
