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
 * A refresh rotation whose WAIT failed does not start that window: it stays marked unacknowledged
 * (adapters/redis.ts `replicaAcks`) and its resends get the same successor until one of them is
 * acknowledged; only then does the reuse clock start (`acknowledgeRotation`).
 *
 * Trade-off: one round trip primary → replica per write, during which this process's connection
 * waits (`WAIT` blocks the calling connection); and replication stays asynchronous, so a failover
 * can still lose writes that were not answered yet (the client saw no success for them) and, with
 * `replicas` below the replica count, writes held only by a replica that is not promoted.
 * Not supported on a Cluster (config refuses it): `WAIT` acts on one node.
 */
import type { Redis } from 'ioredis';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { RefreshRotation, RotationOutcome } from './rotation.js';

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
    /**
     * A rotation's answer is about to be a success: start its reuse clock (the rotation stays
     * marked unacknowledged while WAIT fails, so a client resending after 503s is never taken for
     * a reuse, however long the replicas stay away).
     */
    private async acknowledged(args: unknown[], outcome: RotationOutcome): Promise<void> {
      const [oldId, newId, payload] = args as [string, string, AdapterPayload];
      const successor = outcome.result === 'grace' ? outcome.successor?.refreshToken : newId;
      const grantId = payload.grantId;
      if (!successor || !grantId || (outcome.result !== 'rotated' && outcome.result !== 'grace')) return;
      await this.acknowledgeRotation?.(oldId, successor, grantId);
    }

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
            if (method === 'rotateRefreshToken') await this.acknowledged(args, result as RotationOutcome);
            return result;
          },
        });
      }
    }
  }
  return ReplicaAcked;
}
