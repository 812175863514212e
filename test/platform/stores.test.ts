/**
 * DESIGN.md §1 "one typed query layer": the platform queries, migrations, demo seed and key
 * storage run unchanged on the embedded SQLite file and on PostgreSQL (DATABASE_URL).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from '../../src/platform/schema.js';
import { openEmbeddedStore } from '../../src/store/database.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { migratePlatform } from '../../src/platform/migrations.js';
import { readSeed, seedDemo } from '../../src/platform/seed.js';
import { Accounts } from '../../src/platform/accounts.js';
import { PreparedQuery } from '../../src/platform/prepared.js';
import { Enrollments } from '../../src/platform/enrollments.js';
import { loadCookieKeys, loadSigningKeys } from '../../src/oauth/keys.js';
import { TEST_DATABASE_URL, createTestDatabase } from '../helpers/services.js';

interface Opened {
  db: Kysely<PlatformDatabase>;
  /** A second, independent connection (another process). */
  other(): Promise<{ db: Kysely<PlatformDatabase>; close(): Promise<void> }>;
  close(): Promise<void>;
}

const backends: Record<string, (() => Promise<Opened>) | undefined> = {
  sqlite: async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-platform-'));
    const store = await openEmbeddedStore(dir);
    return {
      db: store.db,
      other: () => openEmbeddedStore(dir),
      async close() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  postgres: TEST_DATABASE_URL
    ? async () => {
        const database = await createTestDatabase();
        const store = await openPostgresStore(database.url);
        return {
          db: store.db,
          other: () => openPostgresStore(database.url),
          async close() {
            await store.close();
            await database.drop();
          },
        };
      }
    : undefined,
};

const seed = readSeed(path.resolve('config/demo-seed.yaml'));

for (const [name, open] of Object.entries(backends)) {
  const d = open ? describe : describe.skip;
  if (!open) process.stderr.write(`\n*** SKIPPED platform store tests on ${name}: not available ***\n`);

  d(`platform data on ${name}`, () => {
    let s: Opened;
    beforeAll(async () => {
      s = await open!();
      await seedDemo(s.db, seed, 'pw-for-platform-tests');
    }, 30_000);
    afterAll(() => s.close());

    test('migrations are idempotent', async () => {
      await expect(migratePlatform(s.db)).resolves.toBeUndefined();
    });

    test("seeding an already seeded store writes no data; a given DEMO_PASSWORD becomes the demo accounts' again", async () => {
      expect(await seedDemo(s.db, seed)).toEqual({ seeded: false, passwordsReset: 0 });
      expect(await seedDemo(s.db, seed, 'pw-for-platform-tests')).toEqual({
        seeded: false,
        passwordsReset: seed.users.length,
      });
    });

    test('accounts: authenticate, memberships and roles', async () => {
      const accounts = new Accounts(s.db);
      const student = await accounts.authenticate('student@demo.test', 'pw-for-platform-tests');
      expect(student?.id).toBe('usr_student');
      expect(await accounts.authenticate('student@demo.test', 'wrong')).toBeUndefined();
      expect(await accounts.rolesAt('usr_student', 'demo')).toEqual(['student']);
      const owner = await accounts.membershipsOf('usr_owner');
      expect(owner.map((m) => m.site.id).sort()).toEqual(['demo', 'second']);
      expect((await accounts.findSite('demo'))?.name).toBe('Demo Academy');
    });

    test('accounts: the live member check reads user, site and roles in one query (issue #15)', async () => {
      const accounts = new Accounts(s.db);
      expect(await accounts.liveMemberAt('usr_student', 'demo')).toEqual({
        user: { id: 'usr_student', email: 'student@demo.test', name: expect.any(String) },
        site: { id: 'demo', name: 'Demo Academy', mcpConnectionsEnabled: expect.any(Boolean) },
        roles: ['student'],
        // Issue #25 finding 2c: the password-change cut-off (ms; 0 = never changed) rides along.
        sessionsValidAfter: 0,
      });
      expect(await accounts.liveRolesAt('usr_student', 'demo')).toEqual(['student']);
      expect(await accounts.liveMemberAt('usr_student', 'no-such-site')).toBeUndefined();
      expect(await accounts.liveMemberAt('no-such-user', 'demo')).toBeUndefined();
      const owner = await accounts.liveMemberAt('usr_owner', 'demo');
      expect(owner?.roles).toEqual([...(owner?.roles ?? [])].sort());
    });

    test('a prepared query (compiled once) binds new values at each run and refuses a parameter it does not bind', async () => {
      const byEmail = new PreparedQuery(2, (email: string, limit: number) =>
        s.db.selectFrom('users').select('id').where('email', '=', email).limit(limit),
      );
      expect((await s.db.executeQuery(byEmail.bind('student@demo.test', 1))).rows).toEqual([{ id: 'usr_student' }]);
      expect((await s.db.executeQuery(byEmail.bind('owner@demo.test', 1))).rows).toEqual([{ id: 'usr_owner' }]);
      expect((await s.db.executeQuery(byEmail.bind('nobody@demo.test', 1))).rows).toEqual([]);
      const unbound = new PreparedQuery(1, (_email: string) => s.db.selectFrom('users').select('id'));
      expect(() => unbound.bind('x')).toThrow(/parameter 0 is not bound/);
      // `rows` (the embedded store's direct reader, or Kysely on PostgreSQL) answers the same rows.
      for (const email of ['student@demo.test', 'owner@demo.test', 'nobody@demo.test']) {
        expect(await byEmail.rows(s.db, email, 1)).toEqual((await s.db.executeQuery(byEmail.bind(email, 1))).rows);
      }
    });

    test('a prepared read never sees the rows of a transaction still open, nor those it rolls back', async () => {
      const byEmail = new PreparedQuery(1, (email: string) =>
        s.db.selectFrom('users').select('id').where('email', '=', email),
      );
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let inserted!: () => void;
      const wrote = new Promise<void>((r) => (inserted = r));
      const transaction = s.db
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('users')
            .values({
              id: 'usr_uncommitted',
              email: 'uncommitted@demo.test',
              name: 'Not yet',
              password_hash: 'x',
              created_at: new Date().toISOString(),
            })
            .execute();
          inserted();
          await held;
          throw new Error('roll back');
        })
        .catch((e: Error) => e.message);
      await wrote;
      const read = byEmail.rows(s.db, 'uncommitted@demo.test');
      release();
      expect(await transaction).toBe('roll back');
      expect(await read).toEqual([]);
      expect(await byEmail.rows(s.db, 'uncommitted@demo.test')).toEqual([]);
    });

    test('enrollments: paginated list with last watched lecture', async () => {
      const enrollments = new Enrollments(s.db);
      const member = { siteId: 'demo', userId: 'usr_student' };
      const page = await enrollments.list(member, 1);
      expect(page.items).toHaveLength(1);
      expect(page.totalCount).toBeGreaterThanOrEqual(2);
      expect(page.hasNextPage).toBe(true);
      const next = await enrollments.list(member, 10, page.items[0]!.cursor);
      expect(next.items.length).toBe(page.totalCount - 1);
      const all = [page.items[0]!.node, ...next.items.map((i) => i.node)];
      expect(all.some((e) => e.hasLifetimeAccess)).toBe(true);
      expect(all.some((e) => e.expireDate !== null)).toBe(true);
      expect(all.some((e) => e.lastWatchedLecture !== null)).toBe(true);
      // The page's own last-watched lectures are what lastWatched() reads for the same courses.
      const last = await enrollments.lastWatched(
        member,
        all.map((e) => e.courseId),
      );
      for (const e of all) expect(e.lastWatchedLecture).toEqual(last.get(e.courseId) ?? null);
      // A first page holding every row counts itself; an empty page after a cursor still counts every row.
      const past = await enrollments.list(member, 10, 'zzzz');
      expect(past).toEqual({ items: [], hasNextPage: false, totalCount: page.totalCount });
      expect((await enrollments.list({ siteId: 'demo', userId: 'no-such-user' }, 10)).totalCount).toBe(0);
      const lean = await enrollments.list(member, 10, undefined, { lastWatched: false });
      expect(lean.totalCount).toBe(page.totalCount);
      expect(lean.items.every((i) => i.node.lastWatchedLecture === null)).toBe(true);
    });

    test('signing keys and cookie secrets: two processes starting together agree', async () => {
      const other = await s.other();
      try {
        const [k1, k2] = await Promise.all([loadSigningKeys(s.db), loadSigningKeys(other.db)]);
        expect(k1[0]!.kid).toBe(k2[0]!.kid);
        const [c1, c2] = await Promise.all([loadCookieKeys(s.db), loadCookieKeys(other.db)]);
        expect(c1).toEqual(c2);
        expect((await loadSigningKeys(s.db))[0]!.kid).toBe(k1[0]!.kid);
        // An operator deleted every key: the next start generates and claims a new one.
        await s.db.deleteFrom('signing_keys').execute();
        const fresh = await loadSigningKeys(s.db);
        expect(fresh[0]!.kid).not.toBe(k1[0]!.kid);
        expect((await loadSigningKeys(other.db))[0]!.kid).toBe(fresh[0]!.kid);
      } finally {
        await other.close();
      }
    });
  });
}
