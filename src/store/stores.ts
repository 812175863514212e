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
import { connectRedis, redisAdapterFactory, type RedisClient } from '../../adapters/redis.js';
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
  adapter: new (name: string) => Adapter & RefreshRotation;
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
  /** Readiness probes by store name; each rejects when its store is unreachable. */
  probes: Record<string, () => Promise<void>>;
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
export async function openStores(config: Config, logger?: Logger, onQuery?: (store: 'sqlite' | 'postgres', ms: number, ok: boolean) => void): Promise<Stores> {
  const log = (store: 'sqlite' | 'postgres') => (onQuery ? (e: LogEvent) => onQuery(store, e.queryDurationMillis, e.level === 'query') : undefined);
  const probes: Record<string, () => Promise<void>> = {};
  const closers: (() => Promise<void>)[] = [];
  let embedded: EmbeddedStore | undefined;
  let longReads: Kysely<PlatformDatabase> | undefined;
  const warnPermissions = (message: string) => logger?.warn({ event: 'data_dir_permissions' }, message);
  let db: Kysely<PlatformDatabase>;
  if (config.databaseUrl) {
    let pgDown = false;
    const pgStore = await openPostgresStore(config.databaseUrl, 10, log('postgres'), (err) => {
      // One line per burst of connection errors (a restart kills every pooled connection).
      if (pgDown) return;
      pgDown = true;
      logger?.warn({ event: 'postgres_connection_lost', err: { type: err.name, message: err.message } }, 'postgres connection lost');
      setTimeout(() => (pgDown = false), 5000).unref();
    });
    db = pgStore.db;
    probes.postgres = () => within(pgStore.ping(), 1000, 'postgres');
    closers.push(() => pgStore.close());
  } else {
    embedded = await openEmbeddedStore(config.dataDir, log('sqlite'), warnPermissions, config.sqliteSynchronous);
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
  if (config.redisUrl || config.redisClusterNodes) {
    const client = connectRedis({ url: config.redisUrl, clusterNodes: config.redisClusterNodes });
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
    redis = client;
    adapter = redisAdapterFactory(client, { prefix: config.redisKeyPrefix });
    probes.redis = async () => {
      if (client.status !== 'ready') throw new Error(`redis: connection ${client.status}`);
      await within(client.ping(), 1000, 'redis');
    };
    closers.unshift(async () => {
      await client.quit().catch(() => client.disconnect());
    });
  } else {
    embedded ??= await openEmbeddedStore(config.dataDir, undefined, warnPermissions, config.sqliteSynchronous);
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
    probes,
    async close() {
      for (const close of closers) await close();
    },
  };
}
