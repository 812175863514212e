/**
 * CSRF tokens of the interaction pages: an HMAC of the interaction uid under the cookie keys,
 * verified in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Issues CSRF tokens with the first cookie key; every key (rotation) still verifies. */
export class Signer {
  constructor(private readonly keys: readonly string[]) {
    if (keys.length === 0) throw new Error('Signer needs at least one key');
  }

  private mac(key: string, value: string): Buffer {
    return createHmac('sha256', key).update(value).digest();
  }

  /** CSRF token of an interaction uid (base64url). */
  csrfToken(uid: string): string {
    return this.mac(this.keys[0]!, `csrf:${uid}`).toString('base64url');
  }

  /** True when `token` is the CSRF token of `uid` under any key. */
  verifyCsrf(uid: string, token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const given = Buffer.from(token, 'base64url');
    return this.keys.some((k) => {
      const expected = this.mac(k, `csrf:${uid}`);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  }
}
