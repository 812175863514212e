/**
 * Platform data on PostgreSQL (DESIGN.md §1 scale-out): the same Kysely queries and migrations as
 * the embedded SQLite file, through the `pg` driver. Several processes may share one database;
 * Kysely's migrator serialises concurrent migration runs with its lock table.
 */
import pg from 'pg';
import { Kysely, PostgresDialect, sql, type KyselyConfig } from 'kysely';
import type { PlatformDatabase } from '../platform/schema.js';
import { applyMigrations, migrateOrCheck } from '../platform/migrations.js';

/** An open PostgreSQL platform store. */
export interface PostgresStore {
  db: Kysely<PlatformDatabase>;
  /** Round trip to the server; rejects when it is unreachable (readiness, /readyz). */
  ping(): Promise<void>;
  /** The pool's connections (all, idle) and the queries waiting for one (metrics). */
  poolStats(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** How long a starting process waits for PostgreSQL to answer before it gives up, in milliseconds. */
export const START_WAIT_MS = 30_000;

/**
 * Waits until the database answers `select 1`, retrying with a growing pause (100 ms … 2 s): a
 * process started together with its database, or while the server restarts or a busy machine makes
 * the first connection slower than the pool's 1 s connect timeout, starts instead of exiting.
 * @param waitMs the longest wait, in milliseconds
 * @throws Error "PostgreSQL did not answer within N s: <last error>" when the time is up
 */
async function waitForDatabase(db: Kysely<PlatformDatabase>, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let pause = 100; ; pause = Math.min(pause * 2, 2000)) {
    try {
      await sql`select 1`.execute(db);
      return;
    } catch (err) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`PostgreSQL did not answer within ${Math.round(waitMs / 1000)} s: ${(err as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    }
  }
}

/**
 * Connects (pool of `poolSize` connections), waits for the server (at most `START_WAIT_MS`), runs the
 * platform migrations ({@link migratePostgres}) unless `options.migrate` is false, and checks that
 * the schema is current.
 * @param url `postgres://user[:password]@host[:port]/database` (DATABASE_URL)
 * @param log optional Kysely query log hook (metrics: query latency)
 * @param onFault told of connection errors outside any query (logging); never throws
 * @param waitMs how long to wait for an unreachable server at start, in milliseconds
 * @param options.migrate apply pending migrations first (default true; `MIGRATE_ON_START`)
 * @throws when the server stays unreachable for `waitMs` or a migration fails; SchemaBehindError
 *   (src/platform/migrations.ts) when migrations are pending and `options.migrate` is false
 */
export async function openPostgresStore(
  url: string,
  poolSize = 10,
  log?: KyselyConfig['log'],
  onFault?: (err: Error) => void,
  waitMs = START_WAIT_MS,
  options: { migrate?: boolean } = {},
): Promise<PostgresStore> {
  // Issue #28: migrations (and the wait for the migration lock another process holds) run on a
  // connection of their own without the pool's 5 s statement timeout; then the pool checks.
  if (options.migrate ?? true) await migratePostgres(url, waitMs);
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    // Fail fast while the server is down (issue #14): no request waits more than ~1 s to connect,
    // and a query on a hung connection gives up instead of holding the request.
    connectionTimeoutMillis: 1000,
    query_timeout: 5000,
    statement_timeout: 5000,
  });
  // No store fault may crash the process (issue #14). An idle client's error reaches the pool's
  // 'error' event; a checked-out client's (57P01 "terminating connection due to administrator
  // command", "Connection terminated unexpectedly" during a restart) reaches only the client, so
  // every client gets a listener when it connects. The query in flight rejects on its own and
  // becomes a 503 (src/ops/store-outage.ts); pg discards the broken client.
  pool.on('error', (err) => onFault?.(err));
  pool.on('connect', (client) => client.on('error', (err) => onFault?.(err)));
  const db = new Kysely<PlatformDatabase>({ dialect: new PostgresDialect({ pool }), log });
  try {
    await waitForDatabase(db, waitMs);
    await migrateOrCheck(db, false);
  } catch (err) {
    await db.destroy().catch(() => undefined);
    throw err;
  }
  return {
    db,
    async ping() {
      await sql`select 1`.execute(db);
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await db.destroy();
    },
  };
}

/**
 * Applies pending platform migrations on a dedicated single connection with no statement or lock
 * timeout (issue #28): the wait for the migration lock held by another process's run, and a long
 * index build, are not cut short by the serving pool's 5 s `statement_timeout`. Kysely's migrator
 * serialises concurrent runs with a session-level advisory lock, so two processes (or a migration
 * job and a starting process) never migrate at once.
 * @param url DATABASE_URL
 * @param waitMs how long to wait for an unreachable server, in milliseconds
 * @returns the names of the migrations applied (empty when the schema was current)
 * @throws when the server stays unreachable or a migration fails
 */
export async function migratePostgres(url: string, waitMs = START_WAIT_MS): Promise<string[]> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    connectionTimeoutMillis: 5000,
    options: '-c statement_timeout=0 -c lock_timeout=0',
  });
  pool.on('error', () => undefined); // a broken idle connection surfaces at the next query
  const db = new Kysely<PlatformDatabase>({ dialect: new PostgresDialect({ pool }) });
  try {
    await waitForDatabase(db, waitMs);
    return await applyMigrations(db);
  } finally {
    await db.destroy().catch(() => undefined);
  }
}
