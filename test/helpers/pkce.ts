/** PKCE (RFC 7636) S256 values and random strings for raw-HTTP tests. */
import { createHash, randomBytes } from 'node:crypto';

export const randomString = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomString(32);
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
