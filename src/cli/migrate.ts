/**
 * `npm run migrate` (in the container image: `node dist/src/cli/migrate.js`): applies the pending
 * platform-store migrations and exits (issue #28, DESIGN D12). Meant for a migration job that runs
 * before a release's processes start with `MIGRATE_ON_START=false`; safe to run while the previous
 * release serves (migrations are additive, docs/deployment.md "Upgrades") and concurrently with
 * another run (a PostgreSQL advisory lock serialises them; the wait has no statement timeout).
 *
 * The store is the server's: DATABASE_URL, else DATA_DIR's SQLite file. Prints one line per
 * migration applied. Exit status: 0 done (also when nothing was pending), 1 failed (reason on
 * stderr, never the URL: it may carry a password).
 */
// First: refuses an unsupported Node.js before any module that would crash it is loaded.
import '../node-version.js';
import { ConfigError, loadConfig } from '../config.js';
import { migratePostgres } from '../store/postgres.js';
import { openEmbeddedStore } from '../store/database.js';
import { SchemaBehindError } from '../platform/migrations.js';

try {
  const config = loadConfig();
  let applied: string[];
  if (config.databaseUrl) {
    applied = await migratePostgres(config.databaseUrl);
  } else {
    // The embedded store migrates when it opens: first ask what is pending (SchemaBehindError names it).
    const pending = await openEmbeddedStore(config.dataDir, undefined, undefined, config.sqliteSynchronous, false).then(
      async (store) => {
        await store.close();
        return [];
      },
      (err: unknown) => {
        if (err instanceof SchemaBehindError) return err.pending;
        throw err;
      },
    );
    const store = await openEmbeddedStore(config.dataDir, undefined, undefined, config.sqliteSynchronous, true);
    await store.close();
    applied = pending;
  }
  for (const name of applied) process.stdout.write(`migrate: applied ${name}\n`);
  process.stdout.write(
    `migrate: the platform store (${config.databaseUrl ? 'PostgreSQL' : 'SQLite'}) is up to date (${applied.length} applied)\n`,
  );
  process.exit(0);
} catch (err) {
  const message =
    err instanceof ConfigError ? `configuration error: ${err.message}` : ((err as Error)?.message ?? String(err));
  process.stderr.write(`migrate: ${message}\n`);
  process.exit(1);
}
