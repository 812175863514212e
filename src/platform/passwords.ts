/**
 * Password hashing with scrypt from node:crypto (DESIGN D5). Format:
 * `scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>` so parameters can be raised later
 * without invalidating existing hashes.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 32;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Hashes a password (≈ 30 ms of CPU on the thread pool). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A valid hash of no password, so that unknown e-mails cost the same time as wrong passwords. */
const DUMMY = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/**
 * Checks a password against a stored hash in constant time. A missing or malformed hash is
 * checked against a dummy hash (same cost) and yields false.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const parts = (stored ?? DUMMY).split('$');
  const valid = parts.length === 6 && parts[0] === 'scrypt';
  const [, n, r, p, saltB64, hashB64] = valid ? parts : DUMMY.split('$');
  const expected = Buffer.from(hashB64!, 'base64url');
  const key = await scrypt(password, Buffer.from(saltB64!, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return valid && stored !== undefined && key.length === expected.length && timingSafeEqual(key, expected);
}
