/**
 * Writes a failover cannot take back (issue #28, DESIGN D12): with Redis replication, a write the
 * primary acknowledged but no replica received is lost when a replica is promoted, and a planned
 * `SENTINEL FAILOVER` lets the old primary accept writes for seconds before it discards them. A
 * refresh rotation lost that way signs the member out; a lost revocation comes back to life.
 *
 * {@link requireReplicaAcks} wraps the adapter class so that each write of a model that matters to
 * a member (tokens, codes, grants, sessions) is answered only once `replicas` replicas acknowledged
 * it: Redis `WAIT numreplicas timeout` on the same connection, after the write. Too few in time →
 * {@link ReplicaAckTimeout}, which src/errors/outage.ts classifies as a store outage: 503 +
 * `Retry-After`, never a success. The write itself may have landed on the primary; a client that
 * retries gets the DESIGN D3 grace window for a refresh token, and revocation is idempotent.
 *
 * Trade-off: one round trip primary → replica per write, during which this process's connection
 * waits (`WAIT` blocks the calling connection); and replication stays asynchronous, so a failover
 * can still lose writes that were not answered yet (the client saw no success for them) and, with
 * `replicas` below the replica count, writes held only by a replica that is not promoted.
 * Not supported on a Cluster (config refuses it): `WAIT` acts on one node.
 */
import type { Redis } from 'ioredis';
import type { Adapter } from 'oidc-provider';
import type { RefreshRotation } from './rotation.js';

/** How long a write waits for its replica acknowledgments, ms (below the client's 1 s command timeout). */
export const REPLICA_ACK_TIMEOUT_MS = 500;

/** Models whose writes wait: losing them signs a member out or revives a revoked token. */
const ACKED_MODELS = new Set([
  'AccessToken',
  'RefreshToken',
  'AuthorizationCode',
  'Grant',
  'Session',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

/** Adapter methods that write. */
const WRITES = ['upsert', 'consume', 'destroy', 'revokeByGrantId', 'rotateRefreshToken'] as const;

/** Fewer replicas than required acknowledged a write within {@link REPLICA_ACK_TIMEOUT_MS} (a 503). */
export class ReplicaAckTimeout extends Error {
  override name = 'ReplicaAckTimeoutError';
  constructor(acked: number, required: number) {
    super(`redis: ${acked} of ${required} replica(s) acknowledged the write within ${REPLICA_ACK_TIMEOUT_MS} ms`);
  }
}

/**
 * Waits until `replicas` replicas hold every write this connection made so far.
 * @throws ReplicaAckTimeout when fewer acknowledged within {@link REPLICA_ACK_TIMEOUT_MS}
 */
export async function awaitReplicas(client: Redis, replicas: number): Promise<void> {
  const acked = await client.wait(replicas, REPLICA_ACK_TIMEOUT_MS);
  if (acked < replicas) throw new ReplicaAckTimeout(acked, replicas);
}

type AdapterClass = new (name: string) => Adapter & RefreshRotation;

/**
 * The adapter class whose writes of {@link ACKED_MODELS} return only after `replicas` replicas
 * acknowledged them (see the module comment); other models and reads are unchanged.
 * @param Base the Redis adapter class (adapters/redis.ts), possibly wrapped already
 * @param client the standalone / Sentinel client the adapter writes through
 * @param replicas `REDIS_MIN_REPLICAS_ACKED`; 0 returns `Base` itself
 */
export function requireReplicaAcks(Base: AdapterClass, client: Redis, replicas: number): AdapterClass {
  if (replicas <= 0) return Base;
  class ReplicaAcked extends Base {
    constructor(name: string) {
      super(name);
      if (!ACKED_MODELS.has(name)) return;
      for (const method of WRITES) {
        const write = (this as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method];
        if (typeof write !== 'function') continue;
        Object.defineProperty(this, method, {
          value: async (...args: unknown[]) => {
            const result = await write.apply(this, args);
            await awaitReplicas(client, replicas);
            return result;
          },
        });
      }
    }
  }
  return ReplicaAcked;
}
