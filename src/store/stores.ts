/**
 * Chooses and opens the stores of DESIGN.md §1 from the configuration:
 *
 * | setting        | OIDC state (oidc-provider adapter)     | platform data (Kysely)        |
 * |----------------|----------------------------------------|-------------------------------|
 * | neither        | SQLite file in DATA_DIR                | the same SQLite file          |
 * | REDIS_URL      | Redis (adapters/redis.ts)              | SQLite file (one process)     |
 * | + DATABASE_URL | Redis                                  | PostgreSQL (shared)           |
 * | DATABASE_URL   | SQLite file in DATA_DIR (one process)  | PostgreSQL                    |
 *
 * Scale-out (several processes) needs both REDIS_URL and DATABASE_URL.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Kysely, LogEvent } from 'kysely';
import { sql } from 'kysely';
import type { Adapter } from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { PlatformDatabase } from '../platform/schema.js';
import { openEmbeddedStore, type EmbeddedStore } from './database.js';
import { openPostgresStore } from './postgres.js';
import { workerReader } from './worker-reader.js';
import { sqliteAdapterFactory } from '../../adapters/sqlite.js';
import { closeRedis, connectRedis, redisAdapterFactory, redisEnded, type RedisClient } from '../../adapters/redis.js';
import { requireReplicaAcks } from '../../adapters/replica-acks.js';
import { durableClients } from './durable-clients.js';
import { Redis } from 'ioredis';
import type { RefreshRotation } from '../../adapters/rotation.js';

/** The open stores of one process. */
export interface Stores {
  /** Platform data (sites, users, …). */
  db: Kysely<PlatformDatabase>;
  /** `sqlite` or `postgres`: where platform data lives. */
  platformKind: 'sqlite' | 'postgres';
  /** `sqlite` or `redis`: where OIDC state lives. */
  oidcKind: 'sqlite' | 'redis';
  /** The adapter class handed to oidc-provider (wrapped by src/oauth/refresh-rotation.ts). */
  adapter: new (
    name: string,
  ) => Adapter & RefreshRotation;
  /**
   * Platform reads that grow with a site (issue #29: analytics): on the embedded store a read-only
   * handle whose statements run in a worker thread (src/store/worker-reader.ts), so they never
   * hold the event loop; on PostgreSQL the same handle as `db` (the server does the work).
   */
  longReads: Kysely<PlatformDatabase>;
  /** The embedded SQLite handle when one is open (expired-row purge). */
  sqlite?: Database.Database;
  /** The Redis client when OIDC state is on Redis (rate limits share it). */
  redis?: RedisClient;
  /** The PostgreSQL pool's counts when platform data is on PostgreSQL (metrics). */
  pgPoolStats?: () => { total: number; idle: number; waiting: number };
  /** Readiness probes by store name; each rejects when its store is unreachable. */
  probes: Record<string, () => Promise<void>>;
  /**
   * Faults of this process's own connections that take it out of rotation (issue #28): a Redis
   * connection to a node that is not a primary (stale after a failover; it is being made again).
   * Each resolves to a reason, or undefined when the connection is fine. A shared store's outage
   * is not one (every process sees it; requests answer 503).
   */
  localFaults: Record<string, () => Promise<string | undefined>>;
  /** Faults of this process's own state read synchronously at every `/readyz` (an ended Redis client). */
  instantFaults: Record<string, () => string | undefined>;
  close(): Promise<void>;
}

/** Rejects when `promise` takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Opens the configured stores (see the table above).
 * @param logger receives store connection state changes (no URLs, no secrets)
 * @param onQuery called after each platform query with its duration in ms (metrics)
 * @throws when a store cannot be reached at start or a migration fails
 */
export async function openStores(
  config: Config,
  logger?: Logger,
  onQuery?: (store: 'sqlite' | 'postgres', ms: number, ok: boolean) => void,
): Promise<Stores> {
  const log = (store: 'sqlite' | 'postgres') =>
    onQuery ? (e: LogEvent) => onQuery(store, e.queryDurationMillis, e.level === 'query') : undefined;
  const probes: Record<string, () => Promise<void>> = {};
  const localFaults: Record<string, () => Promise<string | undefined>> = {};
  const instantFaults: Record<string, () => string | undefined> = {};
  const closers: (() => Promise<void>)[] = [];
  let embedded: EmbeddedStore | undefined;
  let longReads: Kysely<PlatformDatabase> | undefined;
  const warnPermissions = (message: string) => logger?.warn({ event: 'data_dir_permissions' }, message);
  // The embedded store's WAL checkpoints run in a worker thread (src/store/checkpointer.ts).
  const checkpoints = {
    onError: (message: string) =>
      logger?.warn({ event: 'sqlite_checkpoint_failed', err: { message } }, 'WAL checkpoint failed; retrying'),
  };
  let db: Kysely<PlatformDatabase>;
  let pgPoolStats: Stores['pgPoolStats'];
  if (config.databaseUrl) {
    let pgDown = false;
    const pgStore = await openPostgresStore(
      config.databaseUrl,
      config.databasePoolMax,
      log('postgres'),
      (err) => {
        // One line per burst of connection errors (a restart kills every pooled connection).
        if (pgDown) return;
        pgDown = true;
        logger?.warn(
          { event: 'postgres_connection_lost', err: { type: err.name, message: err.message } },
          'postgres connection lost',
        );
        setTimeout(() => (pgDown = false), 5000).unref();
      },
      undefined,
      { migrate: config.migrateOnStart },
    );
    db = pgStore.db;
    pgPoolStats = pgStore.poolStats;
    probes.postgres = () => within(pgStore.ping(), 1000, 'postgres');
    closers.push(() => pgStore.close());
  } else {
    embedded = await openEmbeddedStore(
      config.dataDir,
      log('sqlite'),
      warnPermissions,
      config.sqliteSynchronous,
      config.migrateOnStart,
      checkpoints,
    );
    db = embedded.db;
    const e = embedded;
    longReads = workerReader<PlatformDatabase>(path.join(config.dataDir, 'coursegate.db'));
    const reads = longReads;
    closers.push(() => reads.destroy());
    probes.sqlite = async () => {
      await sql`select 1`.execute(e.db);
    };
    closers.push(() => e.close());
  }

  let adapter: new (name: string) => Adapter & RefreshRotation;
  let redis: RedisClient | undefined;
  if (config.redisUrl || config.redisClusterNodes || config.redisSentinel) {
    const connection = {
      url: config.redisUrl,
      clusterNodes: config.redisClusterNodes,
      sentinel: config.redisSentinel,
    };
    const client = connectRedis(connection);
    // The client reconnects by itself; /readyz reports the outage. Log state changes, not each
    // retry (and never the URL: it may carry a password).
    let down = false;
    client.on('error', (err: Error) => {
      if (down) return;
      down = true;
      logger?.warn({ event: 'redis_down', err: { type: err.name, message: err.message } }, 'redis unreachable');
    });
    client.on('ready', () => {
      if (!down) return;
      down = false;
      logger?.info({ event: 'redis_up' }, 'redis reachable again');
    });
    client.on('end', () => {
      if (redisEnded(client))
        logger?.warn({ event: 'redis_ended' }, 'redis client gave up connecting; connecting again');
    });
    redis = client;
    // Issue #28 (DESIGN D12): clients are durable in the platform store; token and session writes
    // wait for REDIS_MIN_REPLICAS_ACKED replicas (adapters/replica-acks.ts).
    const clientsLost = { at: 0 };
    const acked = client instanceof Redis && config.redisMinReplicasAcked > 0;
    const durable = durableClients(
      redisAdapterFactory(client, { prefix: config.redisKeyPrefix, replicaAcks: acked }),
      db,
      (err) => {
        if (Date.now() - clientsLost.at < 5000) return;
        clientsLost.at = Date.now();
        logger?.warn(
          { event: 'clients_from_redis_copy', err: { type: (err as Error).name, message: (err as Error).message } },
          'platform store unreachable: clients read from their Redis copy',
        );
      },
    );
    adapter =
      client instanceof Redis && acked ? requireReplicaAcks(durable, client, config.redisMinReplicasAcked) : durable;
    // The readiness probe has its own connection: its PING never queues behind a WAIT (or any
    // slow command) of the request traffic, so /readyz reports Redis as it is (src/ops/health.ts).
    const probeClient = connectRedis(connection);
    probeClient.on('error', () => undefined); // reported by the probe itself
    /** Whether the probe connection is ready within `ms` (it is still connecting right after start). */
    const readyWithin = (ms: number) =>
      new Promise<boolean>((resolve) => {
        if (probeClient.status === 'ready') return resolve(true);
        const done = (ok: boolean) => {
          clearTimeout(timer);
          probeClient.off('ready', onReady);
          resolve(ok);
        };
        const onReady = () => done(true);
        const timer = setTimeout(() => done(false), ms);
        probeClient.once('ready', onReady);
      });
    probes.redis = async () => {
      if (!(await readyWithin(1000))) throw new Error(`redis: connection ${probeClient.status}`);
      await within(probeClient.ping(), 1000, 'redis');
    };
    // Gave up connecting while Redis may well be reachable: this process's fault (it reconnects).
    instantFaults.redis = () => (redisEnded(client) ? 'redis connection ended; reconnecting' : undefined);
    localFaults.redis = async () => {
      if (!(client instanceof Redis) || client.status !== 'ready') return undefined; // reconnecting or down: a store outage, not this process's
      const role = (await within(client.call('ROLE') as Promise<unknown[]>, 1000, 'redis').catch(() => undefined))?.[0];
      if (role === undefined || role === 'master') return undefined;
      // Connected to a replica (a failover demoted our node): make the connection again.
      client.disconnect(true);
      return `connected to a read-only ${String(role)} node; reconnecting`;
    };
    closers.unshift(async () => {
      await Promise.all([closeRedis(client), closeRedis(probeClient)]);
    });
  } else {
    embedded ??= await openEmbeddedStore(
      config.dataDir,
      undefined,
      warnPermissions,
      config.sqliteSynchronous,
      undefined,
      checkpoints,
    );
    const e = embedded;
    if (config.databaseUrl) closers.push(() => e.close());
    adapter = sqliteAdapterFactory(e.sqlite);
  }

  return {
    db,
    longReads: longReads ?? db,
    platformKind: config.databaseUrl ? 'postgres' : 'sqlite',
    oidcKind: redis ? 'redis' : 'sqlite',
    adapter,
    sqlite: embedded?.sqlite,
    redis,
    pgPoolStats,
    probes,
    localFaults,
    instantFaults,
    async close() {
      for (const close of closers) await close();
    },
  };
}
