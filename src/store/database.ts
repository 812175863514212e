/**
 * The embedded store (DESIGN.md §1): one SQLite file under DATA_DIR, opened once per process and
 * shared by the oidc-provider adapter (`adapters/sqlite.ts`) and the platform query layer (Kysely).
 *
 * WAL journal + `synchronous=NORMAL`: a committed transaction survives a process crash; a power
 * loss may lose the last few hundred milliseconds (research/perf-anchors.md: FULL costs ~2.3× on
 * the refresh grant). Operators who need FULL set `SQLITE_SYNCHRONOUS=FULL`.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type KyselyConfig } from 'kysely';
import type { PlatformDatabase } from '../platform/schema.js';
import { migratePlatform } from '../platform/migrations.js';

/** An open embedded store: the raw SQLite handle (adapters) and the typed query layer (platform). */
export interface EmbeddedStore {
  sqlite: Database.Database;
  db: Kysely<PlatformDatabase>;
  close(): Promise<void>;
}

/**
 * Opens (creating when absent) `<dataDir>/coursegate.db` and runs the schema migrations.
 * @param log optional Kysely query log hook (metrics: query latency)
 * @throws when the directory cannot be created or the file is not a SQLite database
 */
export async function openEmbeddedStore(dataDir: string, log?: KyselyConfig['log']): Promise<EmbeddedStore> {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new Database(path.join(dataDir, 'coursegate.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${process.env.SQLITE_SYNCHRONOUS === 'FULL' ? 'FULL' : 'NORMAL'}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<PlatformDatabase>({ dialect: new SqliteDialect({ database: sqlite }), log });
  await migratePlatform(db);
  return {
    sqlite,
    db,
    async close() {
      await db.destroy(); // closes the shared better-sqlite3 handle too
    },
  };
}
