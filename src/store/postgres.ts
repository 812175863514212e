/**
 * Platform data on PostgreSQL (DESIGN.md §1 scale-out): the same Kysely queries and migrations as
 * the embedded SQLite file, through the `pg` driver. Several processes may share one database;
 * Kysely's migrator serialises concurrent migration runs with its lock table.
 */
import pg from 'pg';
import { Kysely, PostgresDialect, sql, type KyselyConfig } from 'kysely';
import type { PlatformDatabase } from '../platform/schema.js';
import { migratePlatform } from '../platform/migrations.js';

/** An open PostgreSQL platform store. */
export interface PostgresStore {
  db: Kysely<PlatformDatabase>;
  /** Round trip to the server; rejects when it is unreachable (readiness, /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connects (pool of `poolSize` connections), runs the platform migrations.
 * @param url `postgres://user[:password]@host[:port]/database` (DATABASE_URL)
 * @param log optional Kysely query log hook (metrics: query latency)
 * @throws when the server is unreachable or a migration fails
 */
export async function openPostgresStore(url: string, poolSize = 10, log?: KyselyConfig['log']): Promise<PostgresStore> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => undefined);
  const db = new Kysely<PlatformDatabase>({ dialect: new PostgresDialect({ pool }), log });
  await migratePlatform(db);
  return {
    db,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}
