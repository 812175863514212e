/**
 * Tells a store outage (Redis or PostgreSQL unreachable) from other errors (issue #14). A store
 * outage is the server's problem, not the client's, and temporary: `classify` (catalogue.ts)
 * turns it into 503 `temporarily_unavailable` with `Retry-After`.
 */

// ReplicaAckTimeoutError: too few Redis replicas acknowledged a write in time (adapters/replica-acks.ts, issue #28).
const OUTAGE_NAMES = new Set([
  'MaxRetriesPerRequestError',
  'ClusterAllFailedError',
  'ConnectionTimeoutError',
  'ReplicaAckTimeoutError',
]);
const OUTAGE_MESSAGE =
  /Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Stream isn't writeable|Command timed out|Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|the database system is (starting up|shutting down|in recovery mode)|terminating connection/i;
/**
 * Replies of a Redis node that cannot take the command right now (issue #28): demoted to a replica
 * by a failover (`READONLY`), loading its dataset (`LOADING`), a replica without its primary
 * (`MASTERDOWN`), too few replicas for `min-replicas-to-write` (`NOREPLICAS`); and the sentinels'
 * answer while none is reachable. The connection is made again (adapters/redis.ts); meanwhile 503.
 */
const REDIS_NOT_NOW = /^(READONLY|LOADING|MASTERDOWN|NOREPLICAS)\b|All sentinels are unreachable/;
/**
 * Error codes of an unreachable store: Node socket errors and PostgreSQL SQLSTATEs of class 08
 * (connection exception), 57P01–57P03 (admin shutdown, crash shutdown, cannot connect now) and
 * 57014 (statement timeout: the store did not answer in time).
 */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '57014',
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** True when `err` (or its `cause`) says a store could not be reached (ioredis / pg connection errors). */
export function isStoreOutage(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 3) return false;
  const e = err as { name?: string; message?: string; code?: string; cause?: unknown; originalError?: unknown };
  if (
    OUTAGE_NAMES.has(e.name ?? '') ||
    OUTAGE_MESSAGE.test(e.message ?? '') ||
    REDIS_NOT_NOW.test(e.message ?? '') ||
    OUTAGE_CODES.has(String(e.code ?? ''))
  )
    return true;
  return isStoreOutage(e.cause, depth + 1) || isStoreOutage(e.originalError, depth + 1);
}
