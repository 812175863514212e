/**
 * Text an operator sets that other people read, in pages and in mail (site names): one line of
 * plain text. Control characters (CR, LF, tab, NUL, …: `\p{Cc}`) would start new lines in a mail
 * body and format characters (`\p{Cf}`: the bidirectional overrides and isolates U+202A–U+202E,
 * U+2066–U+2069, zero-width characters) can make a text read as another (RTL override turning
 * "moc.evil" into "live.com"); both are refused, as in display names (src/platform/profiles.ts).
 * Knows nothing of HTTP.
 */
import { PlatformError } from './errors.js';

/** True when `text` holds a control (`Cc`) or format (`Cf`) character. */
export function hasControlOrFormat(text: string): boolean {
  return /\p{Cc}|\p{Cf}/u.test(text);
}

/**
 * A one-line plain text as stored: trimmed, NFC.
 * @param field the input field it came from (the refusal names it)
 * @param maxLength most characters (code points) after trimming
 * @throws PlatformError `invalid` (with `field`) when empty, longer than `maxLength`, or holding
 *   a control or format character
 */
export function plainLine(text: string, field: string, maxLength: number): string {
  if (hasControlOrFormat(text))
    throw new PlatformError(
      'invalid',
      `${field} must not contain control characters (such as line breaks) or invisible formatting characters (such as text-direction overrides)`,
      { field },
    );
  const line = text.normalize('NFC').trim();
  if (line.length === 0) throw new PlatformError('invalid', `${field} must not be empty`, { field });
  if ([...line].length > maxLength)
    throw new PlatformError('invalid', `${field} must be at most ${maxLength} characters`, { field });
  return line;
}

/** Longest site name, in characters. */
export const MAX_SITE_NAME_LENGTH = 120;

/**
 * A site name as stored (see {@link plainLine}).
 * @throws PlatformError `invalid`, field `name`
 */
export const siteName = (name: string): string => plainLine(name, 'name', MAX_SITE_NAME_LENGTH);
