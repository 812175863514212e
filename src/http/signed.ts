/**
 * Small HMAC-signed values for the interaction pages: CSRF tokens bound to an interaction and the
 * short-lived "signed in, site not chosen yet" ticket of the site picker. Verified in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Signs and verifies values with the first cookie key (older keys still verify). */
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

  /** Signs a JSON payload with an expiry (`ttlSeconds`). */
  seal(payload: Record<string, unknown>, ttlSeconds: number): string {
    const body = Buffer.from(JSON.stringify({ ...payload, exp: Math.floor(Date.now() / 1000) + ttlSeconds })).toString('base64url');
    return `${body}.${this.mac(this.keys[0]!, `seal:${body}`).toString('base64url')}`;
  }

  /** The payload of a sealed value, or undefined when forged, malformed or expired. */
  unseal<T extends Record<string, unknown>>(sealed: unknown): T | undefined {
    if (typeof sealed !== 'string') return undefined;
    const [body, mac] = sealed.split('.');
    if (!body || !mac) return undefined;
    const given = Buffer.from(mac, 'base64url');
    const ok = this.keys.some((k) => {
      const expected = this.mac(k, `seal:${body}`);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!ok) return undefined;
    try {
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T & { exp: number };
      return payload.exp > Date.now() / 1000 ? payload : undefined;
    } catch {
      return undefined;
    }
  }
}
