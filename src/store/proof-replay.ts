/**
 * `ProofReplay` (src/domain/dpop.ts) on the OIDC-state store: the `jti` of every DPoP proof a
 * resource surface accepted, kept for the proof's acceptance window (RFC 9449 §11.1), so a proof
 * replayed at any process sharing the store is refused.
 *
 * - Redis: `SET <prefix>:DPoPProof:{<id>} 1 NX EX <ttl>`, one round trip; the key names the same
 *   layout as the adapter's (adapters/redis.ts), so `REDIS_KEY_PREFIX` covers it.
 * - SQLite: a row of the adapter's table `oidc_models` (model `DPoPProof`), inserted unless a live
 *   one exists, in one statement; expired rows go with the adapter's purge of expired rows.
 */
import type Database from 'better-sqlite3';
import type { RedisClient } from '../../adapters/redis.js';
import type { ProofReplay } from '../domain/dpop.js';

const MODEL = 'DPoPProof';

/** The Redis store of seen proofs. @param prefix `REDIS_KEY_PREFIX` */
export function redisProofReplay(redis: RedisClient, prefix: string): ProofReplay {
  return {
    async firstUse(id, ttlSeconds) {
      const set = await redis.set(`${prefix}:${MODEL}:{${id}}`, '1', 'EX', Math.max(1, ttlSeconds), 'NX');
      return set === 'OK';
    },
  };
}

/** The SQLite store of seen proofs, in the adapter's table (created by `createOidcTable`). */
export function sqliteProofReplay(sqlite: Database.Database): ProofReplay {
  // An expired row of the same id is taken over; a live one makes the insert change nothing.
  const insert = sqlite.prepare<[string, number, number]>(
    `INSERT INTO oidc_models (model, id, payload, expires_at) VALUES ('${MODEL}', ?, '{}', ?)
     ON CONFLICT (model, id) DO UPDATE SET expires_at = excluded.expires_at WHERE oidc_models.expires_at <= ?`,
  );
  return {
    async firstUse(id, ttlSeconds) {
      const now = Math.floor(Date.now() / 1000);
      return insert.run(id, now + Math.max(1, ttlSeconds), now).changes === 1;
    },
  };
}
