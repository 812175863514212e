/**
 * The embedded store (DESIGN.md §1): one SQLite file under DATA_DIR, opened once per process and
 * shared by the oidc-provider adapter (`adapters/sqlite.ts`) and the platform query layer (Kysely).
 *
 * WAL journal + `synchronous=NORMAL`: a committed transaction survives a process crash; a power
 * loss may lose the last few hundred milliseconds (research/perf-anchors.md: FULL costs ~2.3× on
 * the refresh grant). Operators who need FULL set `SQLITE_SYNCHRONOUS=FULL`.
 */
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type KyselyConfig, type LogEvent } from 'kysely';
import type { PlatformDatabase } from '../platform/schema.js';
import { registerDirectReader, type DirectReader } from '../platform/prepared.js';
import { migrateOrCheck } from '../platform/migrations.js';
import { stablePlan } from '../../adapters/sqlite-plans.js';
import { BACKSTOP_PAGES, startCheckpointer, type Checkpointer } from './checkpointer.js';

/** An open embedded store: the raw SQLite handle (adapters) and the typed query layer (platform). */
export interface EmbeddedStore {
  sqlite: Database.Database;
  db: Kysely<PlatformDatabase>;
  /** The WAL checkpoint worker, when the store was opened with `backgroundCheckpoints`. */
  checkpointer?: Checkpointer;
  close(): Promise<void>;
}

/**
 * Opens (creating when absent) `<dataDir>/coursegate.db` and runs the schema migrations.
 * @param log optional Kysely query log hook (metrics: query latency)
 * @param synchronous SQLite `synchronous` pragma (`config.sqliteSynchronous`, env SQLITE_SYNCHRONOUS)
 * @param migrate apply pending migrations (default); false: refuse with SchemaBehindError while any is pending (`MIGRATE_ON_START=false`)
 * @param backgroundCheckpoints WAL checkpoints from a worker thread (src/store/checkpointer.ts),
 *   the main connection's automatic ones kept as a backstop, `onError` told of failures: the
 *   server's setting. Absent: SQLite's automatic checkpoints on the committing connection (the CLI
 *   and other short-lived users).
 * @throws when the directory cannot be created or the file is not a SQLite database
 */
export async function openEmbeddedStore(
  dataDir: string,
  log?: KyselyConfig['log'],
  warn: (message: string) => void = () => {},
  synchronous: 'FULL' | 'NORMAL' = 'NORMAL',
  migrate = true,
  backgroundCheckpoints?: { onError: (message: string) => void },
): Promise<EmbeddedStore> {
  const file = path.join(dataDir, 'coursegate.db');
  const created = secureDataDir(dataDir, file, warn);
  const sqlite = new Database(file);
  if (created) restrictFiles(dataDir);
  sqlite.pragma('journal_mode = WAL');
  if (created) restrictFiles(dataDir); // the WAL files, created by the pragma
  sqlite.pragma(`synchronous = ${synchronous}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const statements = statementCache(sqlite);
  const db = new Kysely<PlatformDatabase>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite, statements) }),
    log,
  });
  registerDirectReader(db, directReader(sqlite, statements, typeof log === 'function' ? log : undefined));
  try {
    await migrateOrCheck(db, migrate);
  } catch (err) {
    await db.destroy().catch(() => undefined);
    throw err;
  }
  let checkpointer: Checkpointer | undefined;
  if (backgroundCheckpoints) {
    checkpointer = startCheckpointer(file, synchronous, backgroundCheckpoints.onError);
    sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  }
  return {
    sqlite,
    db,
    checkpointer,
    async close() {
      await checkpointer?.stop();
      await db.destroy(); // closes the shared better-sqlite3 handle too
    },
  };
}

/** Store files SQLite creates beside the database (WAL mode). */
const STORE_FILES = ['coursegate.db', 'coursegate.db-wal', 'coursegate.db-shm'];

/**
 * DATA_DIR holds live tokens and, in development, the signing and cookie keys (issue #13 finding 6):
 * a directory the server creates is 0700; a database file it creates is 0600 (as are its WAL
 * files). Existing ones are left as the operator set them, with a warning when group or others
 * may read them.
 * @returns true when the database file did not exist yet (the caller restricts it once created)
 */
function secureDataDir(dataDir: string, file: string, warn: (message: string) => void): boolean {
  if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  else if ((statSync(dataDir).mode & 0o077) !== 0)
    warn(
      `DATA_DIR ${dataDir} is readable by other users (mode ${(statSync(dataDir).mode & 0o777).toString(8)}); chmod 700 it`,
    );
  if (!existsSync(file)) return true;
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0) warn(`${file} is readable by other users (mode ${mode.toString(8)}); chmod 600 it`);
  return false;
}

function restrictFiles(dataDir: string): void {
  for (const name of STORE_FILES) {
    const p = path.join(dataDir, name);
    if (existsSync(p)) chmodSync(p, 0o600);
  }
}

/** One prepared statement per SQL text (see {@link withStatementCache}); `source` as Kysely compiled it. */
type Statements = (source: string) => Database.Statement;

/**
 * Kysely's SQLite driver prepares every statement anew (`db.prepare(sql)` per query, ~4 % of a
 * token request). better-sqlite3 statements are reusable, so keep one per SQL text. The cache is
 * bounded (Kysely builds a small, fixed set of statements; parameters are bound, not inlined).
 * Each is prepared with its parameters behind SQLite's no-op unary plus (`stablePlan`,
 * adapters/sqlite-plans.ts): a `limit ?` or a join's `where … = ?` would otherwise make SQLite
 * re-prepare the statement on every run (`liveMemberAt`'s join: 10.6 µs instead of 0.5 µs).
 */
function statementCache(sqlite: Database.Database, max = 500): Statements {
  const cache = new Map<string, Database.Statement>();
  return (source) => {
    let stmt = cache.get(source);
    if (!stmt) {
      stmt = sqlite.prepare(stablePlan(source));
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(source, stmt);
    }
    return stmt;
  };
}

/** The handle Kysely's driver is given: `prepare` answers from `statements`. */
function withStatementCache(sqlite: Database.Database, statements: Statements): Database.Database {
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop === 'prepare') return statements;
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The embedded store's direct reader (src/platform/prepared.ts, issue #15): runs a compiled read
 * on its cached statement at once, as Kysely's SQLite driver would (`stmt.all(parameters)`: the
 * same rows), and reports it to the query log hook as Kysely does (`level: 'query'` or `'error'`,
 * duration in milliseconds: the store latency metrics). better-sqlite3 runs every statement
 * synchronously, so Kysely's connection mutex only serialises its transactions: while one is open
 * (`sqlite.inTransaction`) a read would see its uncommitted rows, so it answers undefined and the
 * read waits for the connection through Kysely.
 */
function directReader(
  sqlite: Database.Database,
  statements: Statements,
  log?: (event: LogEvent) => void,
): DirectReader {
  return (query) => {
    if (sqlite.inTransaction) return undefined;
    const stmt = statements(query.sql);
    if (!stmt.reader) return undefined;
    const started = performance.now();
    try {
      const rows = stmt.all(query.parameters as unknown[]);
      log?.({ level: 'query', isStream: false, query, queryDurationMillis: performance.now() - started });
      return rows;
    } catch (error) {
      log?.({ level: 'error', error, query, queryDurationMillis: performance.now() - started });
      throw error;
    }
  };
}
