/**
 * Issue #28 (DESIGN D12): migrations apart from serving, on PostgreSQL.
 *
 * - `npm run migrate` (the real command, a child process) on an empty database applies every
 *   migration and exits 0; a second run applies none.
 * - Two processes with `MIGRATE_ON_START=false` then start on it and serve.
 * - A process with `MIGRATE_ON_START=false` on a database whose schema is behind refuses to
 *   start, naming `npm run migrate`.
 * - A process that waits longer than the pool's 5 s statement timeout for the migration lock
 *   (another run holds it) still migrates and starts: the wait runs on its own connection.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createTestDatabase, describeWith, type TestDatabase } from '../helpers/services.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Kysely's PostgreSQL migration lock (kysely/dist/esm/dialect/postgres/postgres-adapter.js). */
const KYSELY_MIGRATION_LOCK = '3853314791062309107';

/** Runs `npm run migrate`'s command with `env`; resolves to its exit code and output. */
function runMigrate(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/on-lts.mjs', 'tsx', 'src/cli/migrate.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describeWith('postgres')('migrations apart from serving (issue #28)', () => {
  const databases: TestDatabase[] = [];
  const servers: TestServer[] = [];
  const fresh = async () => {
    const db = await createTestDatabase();
    databases.push(db);
    return db;
  };
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const d of databases) await d.drop();
  });

  test('npm run migrate on an empty database, then two processes with MIGRATE_ON_START=false', async () => {
    const database = await fresh();
    const first = await runMigrate({ DATABASE_URL: database.url });
    expect(first.stderr).not.toMatch(/migrate: /);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/applied 0001_platform/);
    expect(first.stdout).toMatch(/applied 0025_durable_clients/);
    expect(first.stdout).not.toContain(database.url); // the URL may carry a password
    const again = await runMigrate({ DATABASE_URL: database.url });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/up to date \(0 applied\)/);

    for (let i = 0; i < 2; i++)
      servers.push(await startTestServer({ DATABASE_URL: database.url, MIGRATE_ON_START: 'false' }));
    for (const s of servers) {
      expect((await fetch(`${s.baseUrl}/.well-known/openid-configuration`)).status).toBe(200);
      expect((await fetch(`${s.baseUrl}/readyz`)).status).toBe(200);
    }
  }, 120_000);

  test('MIGRATE_ON_START=false on a schema that is behind: the process refuses to start, naming the command', async () => {
    const database = await fresh();
    await expect(startTestServer({ DATABASE_URL: database.url, MIGRATE_ON_START: 'false' })).rejects.toThrow(
      /schema is behind this release .*run `npm run migrate`/,
    );
    // The same refusal from the real entry point: exit status 1 and the message on stderr.
    const child = spawn(process.execPath, ['scripts/on-lts.mjs', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'test',
        PORT: '0',
        DATABASE_URL: database.url,
        MIGRATE_ON_START: 'false',
        LOG_LEVEL: 'silent',
        DATA_DIR: path.join(os.tmpdir(), `cg-mig-${Date.now()}`),
      },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/npm run migrate/);
  }, 120_000);

  test('a wait for the migration lock longer than the 5 s statement timeout does not fail the start', async () => {
    const database = await fresh();
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    await holder.query(`select pg_advisory_lock(${KYSELY_MIGRATION_LOCK})`);
    const started = Date.now();
    const release = setTimeout(() => void holder.query(`select pg_advisory_unlock(${KYSELY_MIGRATION_LOCK})`), 7000);
    try {
      const server = await startTestServer({ DATABASE_URL: database.url });
      servers.push(server);
      expect(Date.now() - started).toBeGreaterThan(6500);
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    } finally {
      clearTimeout(release);
      await holder.end();
    }
  }, 60_000);
});
