/**
 * The two platform stores every platform rule is tested on (DESIGN §1: one set of migrations, the
 * same Kysely queries on the embedded SQLite file and on PostgreSQL).
 *
 * `platformBackends(prefix)` maps `sqlite` to a fresh store in a temp directory and `postgres` to
 * a fresh database on the test PostgreSQL (test/helpers/services.ts), or to `undefined` when no
 * PostgreSQL is available (the suite then skips that backend; CI sets COURSEGATE_REQUIRE_SERVICES
 * so the global setup fails instead).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely, LogEvent } from 'kysely';
import type { PlatformDatabase } from '../../src/platform/schema.js';
import { PlatformError } from '../../src/platform/errors.js';
import { openEmbeddedStore } from '../../src/store/database.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { TEST_DATABASE_URL, createTestDatabase } from './services.js';

/** An open platform store and how to drop it. */
export interface OpenPlatformStore {
  db: Kysely<PlatformDatabase>;
  close(): Promise<void>;
}

/**
 * Openers of a fresh, migrated platform store per backend; `postgres` is undefined without one.
 * @param log the store's Kysely query log hook (every statement the handle runs, compiled: SQL and
 *   parameters; test/platform/query-plans.test.ts explains them)
 */
export function platformBackends(
  prefix: string,
  log?: (event: LogEvent) => void,
): Record<'sqlite' | 'postgres', (() => Promise<OpenPlatformStore>) | undefined> {
  return {
    sqlite: async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), `cg-${prefix}-`));
      const store = await openEmbeddedStore(dir, log);
      return { db: store.db, close: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
    },
    postgres: TEST_DATABASE_URL
      ? async () => {
          const database = await createTestDatabase();
          const store = await openPostgresStore(database.url, undefined, log);
          return { db: store.db, close: async () => (await store.close(), await database.drop()) };
        }
      : undefined,
  };
}

/** The PlatformError a call is refused with. @throws when the call succeeds or fails otherwise */
export async function refusal(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PlatformError) return e;
    throw e;
  }
  throw new Error('expected a PlatformError');
}
