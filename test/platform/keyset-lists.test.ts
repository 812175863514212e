/**
 * Issue #29: the operator lists page by keyset in SQL with the same results on SQLite and
 * PostgreSQL (row-value cursors, the sort keys copied by migration 0029's insert triggers), and the
 * audit retention purge deletes in bounded batches until nothing is due.
 */
import path from 'node:path';
import { readSeed, seedDemo } from '../../src/platform/seed.js';
import { PeopleAdmin } from '../../src/platform/operator/people.js';
import { CommerceAdmin } from '../../src/platform/operator/commerce.js';
import { AnalyticsAdmin } from '../../src/platform/operator/analytics.js';
import { AuditTrail } from '../../src/platform/audit.js';
import { PlatformError } from '../../src/platform/errors.js';
import type { KeysetPage } from '../../src/platform/paging.js';
import { platformBackends, refusal } from '../helpers/platform-stores.js';

const backends = platformBackends('keyset');
const N = 23;

/** Every row of a list, walking `nextCursor` with pages of `limit`. */
async function walk<T>(page: (cursor?: string) => Promise<KeysetPage<T>>): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const p = await page(cursor);
    rows.push(...p.items);
    if (p.nextCursor === null) return rows;
    cursor = p.nextCursor;
  }
  throw new Error('more pages than rows');
}

for (const [name, open] of Object.entries(backends)) {
  const d = open ? describe : describe.skip;
  if (!open) process.stderr.write(`\n*** SKIPPED keyset list tests on ${name}: not available ***\n`);
  d(`keyset operator lists on ${name}`, () => {
    let opened: Awaited<ReturnType<NonNullable<typeof open>>>;
    beforeAll(async () => {
      opened = await open!();
      await seedDemo(opened.db, readSeed(path.resolve('config/demo-seed.yaml')), 'pw-for-tests-only');
      const db = opened.db;
      const course = await db
        .selectFrom('courses')
        .select('id')
        .where('site_id', '=', 'demo')
        .where('slug', '=', 'sql-basics')
        .executeTakeFirstOrThrow();
      const n = (i: number) => String(i).padStart(3, '0');
      // E-mails in an order unlike the ids; every user gets two roles.
      const users = Array.from({ length: N }, (_, i) => ({
        id: `usr_k${n(i)}`,
        email: `k${n((i * 7) % N)}@demo.test`,
        name: `K ${i}`,
        password_hash: 'x',
        created_at: '2026-01-01T00:00:00.000Z',
      }));
      await db.insertInto('users').values(users).execute();
      await db
        .insertInto('memberships')
        .values(
          users.flatMap((u) => [
            { site_id: 'demo', user_id: u.id, role: 'student' },
            { site_id: 'demo', user_id: u.id, role: 'instructor' },
          ]),
        )
        .execute();
      await db
        .insertInto('enrollments')
        .values(
          users.map((u, i) => ({
            id: `enr_k${n(i)}`,
            site_id: 'demo',
            user_id: u.id,
            course_id: course.id,
            expires_at: i % 2 ? '2020-01-01T00:00:00.000Z' : null,
            lifetime_access: 0,
            created_at: '2026-01-01T00:00:00.000Z',
          })),
        )
        .execute();
      // Three orders share each creation time: the id breaks the tie.
      await db
        .insertInto('orders')
        .values(
          users.map((u, i) => ({
            id: `ord_k${n(i)}`,
            site_id: 'demo',
            user_id: u.id,
            number: `K-${n(i)}`,
            status: 'paid',
            total_minor: 100,
            currency: 'EUR',
            created_at: `2026-03-0${1 + (Math.floor(i / 3) % 9)}T00:00:00.000Z`,
          })),
        )
        .execute();
    }, 60_000);
    afterAll(() => opened?.close());

    test('members: every member once, by e-mail, with all their roles; by role too', async () => {
      const people = new PeopleAdmin(opened.db as never);
      const all = await walk((cursor) => people.membersPage('demo', { limit: 4, cursor }));
      const emails = all.map((m) => m.email);
      expect(emails).toEqual([...emails].sort());
      expect(new Set(emails).size).toBe(emails.length);
      expect(all.filter((m) => m.email.startsWith('k'))).toHaveLength(N);
      expect(all.find((m) => m.email === 'k005@demo.test')?.roles).toEqual(['instructor', 'student']);
      const instructors = await walk((cursor) => people.membersPage('demo', { limit: 5, role: 'instructor', cursor }));
      expect(instructors.filter((m) => m.email.startsWith('k'))).toHaveLength(N);
      expect(await people.members('demo')).toEqual(all);
    });

    test('students: by e-mail then course; status filters on accessActive', async () => {
      const people = new PeopleAdmin(opened.db as never);
      const all = await walk((cursor) => people.studentsPage('demo', { limit: 6, cursor }));
      const keys = all.map((s) => `${s.email}\u0000${s.courseSlug}`);
      expect(keys).toEqual([...keys].sort());
      expect(new Set(keys).size).toBe(keys.length);
      const expired = await walk((cursor) =>
        people.studentsPage('demo', { limit: 6, status: 'expired', courseSlug: 'sql-basics', cursor }),
      );
      expect(expired.filter((s) => s.email.startsWith('k'))).toHaveLength(Math.floor(N / 2));
      expect(expired.every((s) => s.status === 'expired')).toBe(true);
      const active = await walk((cursor) => people.studentsPage('demo', { limit: 6, status: 'active', cursor }));
      expect(
        active.length +
          (await walk((cursor) => people.studentsPage('demo', { limit: 6, status: 'expired', cursor }))).length,
      ).toBe(all.length);
    });

    test('orders: newest first, ties by id, every order once', async () => {
      const commerce = new CommerceAdmin(opened.db as never);
      const all = await walk((cursor) => commerce.ordersPage('demo', { limit: 4, cursor }));
      expect(all.filter((o) => o.number.startsWith('K-'))).toHaveLength(N);
      expect(new Set(all.map((o) => o.number)).size).toBe(all.length);
      const times = all.map((o) => o.createdAt);
      expect(times).toEqual([...times].sort().reverse());
      expect((await refusal(commerce.ordersPage('demo', { limit: 4, cursor: 'bm90LWEtY3Vyc29y' }))).code).toBe(
        'invalid',
      );
    });

    test('analytics: the counts agree with the lists', async () => {
      const figures = await new AnalyticsAdmin(opened.db as never).summary('demo');
      const people = new PeopleAdmin(opened.db as never);
      const students = await walk((cursor) => people.studentsPage('demo', { limit: 200, cursor }));
      expect(figures.enrollments.total).toBe(students.length);
      expect(figures.enrollments.active).toBe(students.filter((s) => s.status === 'active').length);
      expect(figures.members.total).toBe((await people.members('demo')).length);
      expect(figures.members.byRole.instructor).toBeGreaterThanOrEqual(N);
    });

    test('the audit purge deletes every due event in bounded batches and keeps the others', async () => {
      const audit = new AuditTrail(opened.db, 1);
      const now = new Date();
      for (let i = 0; i < 25; i++)
        await audit.record(
          { kind: 'refresh', siteId: 'demo', clientId: 'purge-client' },
          new Date(now.getTime() - 3 * 86_400_000 + i),
        );
      await audit.record({ kind: 'refresh', siteId: 'demo', clientId: 'purge-client' }, now);
      await audit.flush();
      expect(await audit.purge(now, 4)).toBe(25);
      expect(await audit.purge(now, 4)).toBe(0);
      expect(await audit.list('demo', { clientId: 'purge-client' })).toHaveLength(1);
      // Statements slower than the target time shrink the batch (here to one event): still every due event.
      for (let i = 0; i < 7; i++)
        await audit.record(
          { kind: 'token_issued', siteId: 'demo', clientId: 'purge-client' },
          new Date(now.getTime() - 3 * 86_400_000 + i),
        );
      await audit.flush();
      expect(await audit.purge(now, 4, 0)).toBe(7);
      expect(await audit.list('demo', { clientId: 'purge-client' })).toHaveLength(1);
    });

    test('a cursor of another list is refused as invalid', async () => {
      const err = await refusal(
        new PeopleAdmin(opened.db as never).membersPage('demo', {
          limit: 4,
          cursor: Buffer.from('["a","b"]').toString('base64url'),
        }),
      );
      expect(err).toBeInstanceOf(PlatformError);
      expect(err.code).toBe('invalid');
    });
  });
}
