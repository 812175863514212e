/**
 * The member's own profile changes (SPEC §1): the display name. The name belongs to the user, so
 * it is the same at every site and in UserInfo (`name`, SPEC §2.3).
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import type { User } from './accounts.js';
import { PlatformError, invalid } from './errors.js';

/** Longest display name, in characters (code points) after trimming. */
export const MAX_DISPLAY_NAME_LENGTH = 80;

/**
 * Normalises a display name: trimmed, inner whitespace runs collapsed, NFC.
 * @throws PlatformError `invalid` when empty, longer than 80 characters or holding control characters
 */
export function normaliseDisplayName(input: string): string {
  if (/\p{Cc}|\p{Cf}/u.test(input.replace(/[\t\n\r]/g, ' '))) {
    throw invalid('name must not contain control or format characters');
  }
  const name = input.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (name.length === 0) throw invalid('name must not be empty');
  if ([...name].length > MAX_DISPLAY_NAME_LENGTH)
    throw invalid(`name must be at most ${MAX_DISPLAY_NAME_LENGTH} characters`);
  return name;
}

/** The member's own profile: display name changes (account:write). */
export class Profiles {
  constructor(private readonly db: Kysely<PlatformDatabase>) {}

  /**
   * Sets the user's display name.
   * @throws PlatformError `invalid` (see `normaliseDisplayName`), `not_found` when the user is gone
   */
  async setDisplayName(userId: string, input: string): Promise<User> {
    const name = normaliseDisplayName(input);
    const updated = await this.db
      .updateTable('users')
      .set({ name })
      .where('id', '=', userId)
      .returning(['id', 'email', 'name'])
      .executeTakeFirst();
    if (!updated) throw new PlatformError('not_found', 'member not found');
    return updated;
  }
}
