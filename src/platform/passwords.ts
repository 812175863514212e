/**
 * Password hashing (DESIGN D5; issue #13 finding 7; docs/security.md "Passwords"): Argon2id at the
 * OWASP Password Storage Cheat Sheet's first setting (m = 19 MiB, t = 2, p = 1) through
 * `@node-rs/argon2` (prebuilt, no compiler needed). Stored as the PHC string
 * `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`.
 *
 * Hashes of an older scheme (`scrypt$<N>$<r>$<p>$<salt>$<hash>`, N = 2^14 before) and Argon2id
 * hashes with other parameters still verify; `needsRehash` tells the caller to store a fresh
 * hash after the next successful sign-in (transparent upgrade, `Accounts.authenticate`).
 */
import { scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { Algorithm, hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';

/** Current Argon2id parameters: memory in KiB, iterations, lanes. */
export const ARGON2_PARAMS = { memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;
const CURRENT_PREFIX = `$argon2id$v=19$m=${ARGON2_PARAMS.memoryCost},t=${ARGON2_PARAMS.timeCost},p=${ARGON2_PARAMS.parallelism}$`;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Hashes a password with the current Argon2id parameters (≈ 20–40 ms of CPU off the main thread). */
export async function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, { algorithm: Algorithm.Argon2id, ...ARGON2_PARAMS, outputLen: 32 });
}

/** A valid hash of no password, so that unknown e-mails cost the same time as wrong passwords. */
const DUMMY = `${CURRENT_PREFIX}AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;

/** A legacy `scrypt$N$r$p$salt$hash` hash, checked in constant time. */
async function verifyScrypt(password: string, parts: string[]): Promise<boolean> {
  const [, n, r, p, saltB64, hashB64] = parts;
  const expected = Buffer.from(hashB64!, 'base64url');
  const N = Number(n);
  const R = Number(r);
  if (!Number.isInteger(N) || N < 2 || N > 2 ** 20 || expected.length === 0) return false;
  const key = await scrypt(password, Buffer.from(saltB64!, 'base64url'), expected.length, {
    N,
    r: R,
    p: Number(p),
    maxmem: 256 * N * R + 1024 * 1024,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * Checks a password against a stored hash (constant time for a given hash). A missing or malformed
 * hash is checked against a dummy hash (same cost) and yields false.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  if (stored?.startsWith('scrypt$')) {
    const parts = stored.split('$');
    if (parts.length === 6) return verifyScrypt(password, parts).catch(() => false);
  }
  const isArgon = stored?.startsWith('$argon2') ?? false;
  const ok = await argon2Verify(isArgon ? stored! : DUMMY, password).catch(() => false);
  return isArgon && ok;
}

/** True when `stored` is not an Argon2id hash with the current parameters (rehash after sign-in). */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(CURRENT_PREFIX);
}
