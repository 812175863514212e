/**
 * CSRF tokens of the HTML forms (interaction pages, invitations, set-password, operator area): an
 * HMAC-SHA256 of a subject (interaction uid, `web:<session>`, `invitation:<id>`…) under the cookie
 * keys, verified in constant time (DESIGN D7; STYLE: constant-time secret comparison).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Issues CSRF tokens with the first cookie key; every key (rotation) still verifies. */
export class CsrfTokens {
  /** @throws Error when `keys` is empty */
  constructor(private readonly keys: readonly string[]) {
    if (keys.length === 0) throw new Error('CsrfTokens needs at least one key');
  }

  private mac(key: string, value: string): Buffer {
    return createHmac('sha256', key).update(value).digest();
  }

  /** The CSRF token (base64url) bound to `subject`. */
  issue(subject: string): string {
    return this.mac(this.keys[0]!, `csrf:${subject}`).toString('base64url');
  }

  /** True when `token` is the CSRF token of `subject` under any key; false for a non-string. */
  verify(subject: string, token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const given = Buffer.from(token, 'base64url');
    return this.keys.some((k) => {
      const expected = this.mac(k, `csrf:${subject}`);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  }
}
