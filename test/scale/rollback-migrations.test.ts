/**
 * DESIGN D12, docs/deployment.md "Rolling back": a release runs on a schema a newer release has
 * migrated. The newer release's migrations (recorded in `kysely_migration`, with a real additive
 * change to the schema) are unknown to this one; it starts with the default
 * `MIGRATE_ON_START=true` and with `MIGRATE_ON_START=false`, and serves a member's sign-in and
 * token. It still refuses a schema that lacks one of its own migrations when start-up migrations are
 * off. On SQLite (the embedded store) and on PostgreSQL.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { memberToken } from '../helpers/member-token.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createTestDatabase, describeWith, type TestDatabase } from '../helpers/services.js';

/** A migration of a release after this one: its name sorts after ours, as the next release's would. */
const NEWER = '9001_newer_release_column';
/** One of this release's own migrations, removed from the record to make the schema "behind". */
const OWN = '0025_durable_clients';

/** What a newer release's migration did to a store: one more column and its record. */
const NEWER_SQL = {
  column: 'ALTER TABLE users ADD COLUMN newer_release_note text',
  table: 'CREATE TABLE newer_release_things (id text primary key, note text)',
};

/** Serves: discovery and readiness answer, and a member signs in and gets a token. */
async function expectServes(server: TestServer): Promise<void> {
  expect((await fetch(`${server.baseUrl}/.well-known/openid-configuration`)).status).toBe(200);
  expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
  const token = await memberToken({ baseUrl: server.baseUrl, email: 'student@demo.test', scope: 'openid' });
  const userinfo = await fetch(`${server.baseUrl}/api/oauth/userinfo`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(userinfo.status).toBe(200);
}

describe('a release on a schema migrated by a newer release: SQLite', () => {
  let dataDir = '';
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  /** Runs SQL on the embedded store's file while no server holds it. */
  const onFile = (statements: string[], params: unknown[][] = []) => {
    const db = new Database(path.join(dataDir, 'coursegate.db'));
    try {
      for (const [i, s] of statements.entries()) db.prepare(s).run(...(params[i] ?? []));
    } finally {
      db.close();
    }
  };

  test('starts with the default MIGRATE_ON_START=true and with false, and serves', async () => {
    const first = await startTestServer();
    dataDir = first.dataDir;
    await first.close({ keepData: true });
    onFile(
      [NEWER_SQL.column, NEWER_SQL.table, 'INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)'],
      [[], [], [NEWER, new Date().toISOString()]],
    );

    const onDefault = await startTestServer({}, dataDir);
    await expectServes(onDefault);
    await onDefault.close({ keepData: true });

    const noMigrate = await startTestServer({ MIGRATE_ON_START: 'false' }, dataDir);
    servers.push(noMigrate);
    await expectServes(noMigrate);
  }, 120_000);

  test('MIGRATE_ON_START=false still refuses a schema lacking one of its own migrations', async () => {
    await servers.pop()?.close({ keepData: true });
    onFile(['DELETE FROM kysely_migration WHERE name = ?'], [[OWN]]);
    await expect(startTestServer({ MIGRATE_ON_START: 'false' }, dataDir)).rejects.toThrow(
      new RegExp(`schema is behind this release \\(1 pending migration: ${OWN}\\)`),
    );
  }, 60_000);
});

describeWith('postgres')('a release on a schema migrated by a newer release: PostgreSQL', () => {
  let database: TestDatabase | undefined;
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
    await database?.drop();
  });

  /** Runs SQL on the test database. */
  const onDatabase = async (statements: Array<[string, unknown[]?]>) => {
    const client = new pg.Client({ connectionString: database?.url });
    await client.connect();
    try {
      for (const [text, values] of statements) await client.query(text, values);
    } finally {
      await client.end();
    }
  };

  test('starts with the default MIGRATE_ON_START=true and with false, and serves', async () => {
    database = await createTestDatabase();
    const url = database.url;
    const first = await startTestServer({ DATABASE_URL: url });
    await first.close();
    await onDatabase([
      [NEWER_SQL.column],
      [NEWER_SQL.table],
      ['INSERT INTO kysely_migration (name, timestamp) VALUES ($1, $2)', [NEWER, new Date().toISOString()]],
    ]);

    const onDefault = await startTestServer({ DATABASE_URL: url });
    servers.push(onDefault);
    await expectServes(onDefault);
    // A second process of this release beside the first, without start-up migrations.
    const noMigrate = await startTestServer({ DATABASE_URL: url, MIGRATE_ON_START: 'false' });
    servers.push(noMigrate);
    await expectServes(noMigrate);
  }, 120_000);

  test('MIGRATE_ON_START=false still refuses a schema lacking one of its own migrations', async () => {
    await onDatabase([['DELETE FROM kysely_migration WHERE name = $1', [OWN]]]);
    await expect(startTestServer({ DATABASE_URL: database?.url ?? '', MIGRATE_ON_START: 'false' })).rejects.toThrow(
      new RegExp(`schema is behind this release \\(1 pending migration: ${OWN}\\)`),
    );
  }, 60_000);
});
