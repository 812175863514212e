/**
 * Issue #29, "analytics as aggregates in SQL (or maintained counters)": the analytics overview
 * reads `site_tallies` (migration 0026), counters kept by triggers. Whatever writes the rows
 * (the operator services, plain SQL, a foreign-key cascade, an upsert, a site's deletion), the
 * overview must equal the figures counted from the rows themselves — the aggregate queries the
 * overview ran before the counters, kept here as the oracle. Random write sequences
 * (fast-check) on SQLite and on PostgreSQL.
 */
import path from 'node:path';
import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { readSeed, seedDemo } from '../../src/platform/seed.js';
import { AnalyticsAdmin, type SiteAnalytics } from '../../src/platform/operator/analytics.js';
import { PeopleAdmin } from '../../src/platform/operator/people.js';
import { CourseAdmin } from '../../src/platform/operator/courses.js';
import type { OperatorDatabase } from '../../src/platform/operator/schema.js';
import { ConnectedGrants } from '../../src/platform/connected-grants.js';
import { platformBackends } from '../helpers/platform-stores.js';

const backends = platformBackends('tallies');
const NOW = new Date('2026-06-01T12:00:00.000Z');

/** The overview counted from the rows (what `summary` computed before issue #29's counters). */
async function recount(db: Kysely<OperatorDatabase>, siteId: string): Promise<Omit<SiteAnalytics, 'asOf'>> {
  const nowIso = NOW.toISOString();
  const q = async <T>(text: string) => (await sql.raw<T>(text.replaceAll('$site', `'${siteId}'`)).execute(db)).rows;
  const n = (v: unknown) => Number(v ?? 0);
  const tally = (rows: Array<{ k: string; n: unknown }>) =>
    Object.fromEntries(rows.filter((r) => n(r.n) > 0).map((r) => [r.k, n(r.n)]));
  const [courses] = await q<{ total: unknown; pub: unknown }>(
    `SELECT count(*) AS total, sum(CASE WHEN is_public = 1 THEN 1 ELSE 0 END) AS pub FROM courses WHERE site_id = $site`,
  );
  const [people] = await q<{ n: unknown }>(
    `SELECT count(DISTINCT user_id) AS n FROM memberships WHERE site_id = $site`,
  );
  const roles = await q<{ k: string; n: unknown }>(
    `SELECT role AS k, count(*) AS n FROM memberships WHERE site_id = $site GROUP BY role`,
  );
  const [enr] = await q<{ total: unknown; lifetime: unknown; active: unknown }>(
    `SELECT count(*) AS total,
       sum(CASE WHEN lifetime_access = 1 OR expires_at IS NULL THEN 1 ELSE 0 END) AS lifetime,
       sum(CASE WHEN lifetime_access = 1 OR expires_at IS NULL OR expires_at > '${nowIso}' THEN 1 ELSE 0 END) AS active
     FROM enrollments WHERE site_id = $site`,
  );
  const orders = tally(await q(`SELECT status AS k, count(*) AS n FROM orders WHERE site_id = $site GROUP BY status`));
  const revenue = await q<{ currency: string; paid: unknown }>(
    `SELECT currency, sum(total_minor) AS paid FROM orders WHERE site_id = $site AND status = 'paid' GROUP BY currency ORDER BY currency`,
  );
  const registrations = tally(
    await q(`SELECT status AS k, count(*) AS n FROM event_registrations WHERE site_id = $site GROUP BY status`),
  );
  const since = new Date(NOW.getTime() - 30 * 86_400_000).toISOString();
  const [learners] = await q<{ n: unknown }>(
    `SELECT count(DISTINCT user_id) AS n FROM lecture_progress WHERE site_id = $site AND recorded_at >= '${since}'`,
  );
  const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
  return {
    courses: { total: n(courses!.total), public: n(courses!.pub) },
    members: { total: n(people!.n), byRole: tally(roles) },
    enrollments: {
      total: n(enr!.total),
      active: n(enr!.active),
      expired: n(enr!.total) - n(enr!.active),
      lifetime: n(enr!.lifetime),
    },
    orders: { total: sum(orders), byStatus: orders },
    revenue: revenue.filter((r) => n(r.paid) > 0).map((r) => ({ currency: r.currency, paidMinor: n(r.paid) })),
    eventRegistrations: { total: sum(registrations), byStatus: registrations },
    activeLearners30d: n(learners!.n),
  };
}

/** One write to the counted tables, by whatever path a real writer takes. */
type Write =
  | { kind: 'user'; i: number }
  | { kind: 'role'; i: number; role: 'student' | 'instructor' | 'admin'; add: boolean }
  | { kind: 'enroll'; i: number; expiry: 'none' | 'past' | 'future' | 'lifetime' }
  | { kind: 'unenroll'; i: number }
  | { kind: 'order'; i: number; status: 'paid' | 'pending' | 'refunded'; currency: 'EUR' | 'USD'; minor: number }
  | { kind: 'order-status'; i: number; status: 'paid' | 'pending' | 'refunded' }
  | { kind: 'register'; i: number; status: 'registered' | 'cancelled' }
  | { kind: 'course'; i: number; isPublic: boolean }
  | { kind: 'course-visibility'; i: number; isPublic: boolean }
  | { kind: 'delete-user'; i: number }
  | { kind: 'progress'; i: number; lecture: number; daysAgo: number }
  | { kind: 'forget-progress'; i: number; lecture: number };

const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), i: fc.nat(5) }),
  fc.record({
    kind: fc.constant('role' as const),
    i: fc.nat(5),
    role: fc.constantFrom('student' as const, 'instructor' as const, 'admin' as const),
    add: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('enroll' as const),
    i: fc.nat(5),
    expiry: fc.constantFrom('none' as const, 'past' as const, 'future' as const, 'lifetime' as const),
  }),
  fc.record({ kind: fc.constant('unenroll' as const), i: fc.nat(5) }),
  fc.record({
    kind: fc.constant('order' as const),
    i: fc.nat(5),
    status: fc.constantFrom('paid' as const, 'pending' as const, 'refunded' as const),
    currency: fc.constantFrom('EUR' as const, 'USD' as const),
    minor: fc.integer({ min: 100, max: 9_900 }),
  }),
  fc.record({
    kind: fc.constant('order-status' as const),
    i: fc.nat(5),
    status: fc.constantFrom('paid' as const, 'pending' as const, 'refunded' as const),
  }),
  fc.record({
    kind: fc.constant('register' as const),
    i: fc.nat(5),
    status: fc.constantFrom('registered' as const, 'cancelled' as const),
  }),
  fc.record({ kind: fc.constant('course' as const), i: fc.nat(3), isPublic: fc.boolean() }),
  fc.record({ kind: fc.constant('course-visibility' as const), i: fc.nat(3), isPublic: fc.boolean() }),
  fc.record({ kind: fc.constant('delete-user' as const), i: fc.nat(5) }),
  fc.record({
    kind: fc.constant('progress' as const),
    i: fc.nat(5),
    lecture: fc.nat(1),
    daysAgo: fc.constantFrom(0, 3, 29, 31, 60),
  }),
  fc.record({ kind: fc.constant('forget-progress' as const), i: fc.nat(5), lecture: fc.nat(1) }),
);

for (const [name, open] of Object.entries(backends)) {
  const d = open ? describe : describe.skip;
  if (!open) process.stderr.write(`\n*** SKIPPED site tally tests on ${name}: not available ***\n`);
  d(`site tallies on ${name}`, () => {
    let opened: Awaited<ReturnType<NonNullable<typeof open>>>;
    let db: Kysely<OperatorDatabase>;
    let eventId: string;
    beforeAll(async () => {
      opened = await open!();
      db = opened.db as unknown as Kysely<OperatorDatabase>;
      await seedDemo(opened.db, readSeed(path.resolve('config/demo-seed.yaml')), 'pw-for-tests-only');
      await db
        .insertInto('sites')
        .values({ id: 'other', name: 'Other', created_at: NOW.toISOString() } as never)
        .execute();
      await db
        .insertInto('events')
        .values({
          id: 'evt_tally',
          site_id: 'demo',
          title: 'Tally',
          starts_at: '2026-07-01T10:00:00.000Z',
          ends_at: '2026-07-01T11:00:00.000Z',
          location: 'Online',
        } as never)
        .execute();
      eventId = 'evt_tally';
    });
    afterAll(async () => opened?.close());

    test('the demo seed: the overview equals the recount', async () => {
      const figures = await new AnalyticsAdmin(db).summary('demo', NOW);
      const { asOf: _asOf, ...shown } = figures;
      expect(shown).toEqual(await recount(db, 'demo'));
      expect(figures.members.total).toBeGreaterThan(0);
    });

    test('random writes by services, plain SQL, upserts and cascades keep the overview equal to the recount', async () => {
      const people = new PeopleAdmin(db);
      const courses = new CourseAdmin(db);
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(write, { minLength: 5, maxLength: 25 }), async (writes) => {
          run += 1;
          const site = run % 2 ? 'demo' : 'other';
          const uid = (i: number) => `usr_t${run}_${i}`;
          const email = (i: number) => `t${run}-${i}@tally.test`;
          const courseId = (i: number) => `crs_t${site}_${i}`;
          const ensureUser = async (i: number) =>
            db
              .insertInto('users')
              .values({
                id: uid(i),
                email: email(i),
                name: `T ${i}`,
                password_hash: 'x',
                created_at: NOW.toISOString(),
              } as never)
              .onConflict((oc) => oc.column('id').doNothing())
              .execute();
          const ensureCourse = async (i: number, isPublic = true) =>
            db
              .insertInto('courses')
              .values({
                id: courseId(i),
                site_id: site,
                slug: `tally-${i}`,
                title: `Tally ${i}`,
                description: '',
                is_public: isPublic ? 1 : 0,
                created_at: NOW.toISOString(),
              } as never)
              .onConflict((oc) => oc.column('id').doNothing())
              .execute();
          for (const w of writes) {
            switch (w.kind) {
              case 'user':
                await ensureUser(w.i);
                break;
              case 'role':
                await ensureUser(w.i);
                if (w.add)
                  await db
                    .insertInto('memberships')
                    .values({ site_id: site, user_id: uid(w.i), role: w.role } as never)
                    .onConflict((oc) => oc.columns(['site_id', 'user_id', 'role']).doNothing())
                    .execute();
                else
                  await db
                    .deleteFrom('memberships')
                    .where('site_id', '=', site)
                    .where('user_id', '=', uid(w.i))
                    .where('role', '=', w.role)
                    .execute();
                break;
              case 'enroll': {
                await ensureUser(w.i);
                await ensureCourse(0);
                const expiresAt =
                  w.expiry === 'past'
                    ? '2026-01-01T00:00:00.000Z'
                    : w.expiry === 'future'
                      ? '2027-01-01T00:00:00.000Z'
                      : undefined;
                // The operator service (an enrolment renews an existing one) where it applies; plain SQL upserts otherwise.
                if (site === 'demo' && (w.expiry === 'future' || w.expiry === 'lifetime')) {
                  // The service enrols people who have a role at the site.
                  await db
                    .insertInto('memberships')
                    .values({ site_id: site, user_id: uid(w.i), role: 'student' } as never)
                    .onConflict((oc) => oc.columns(['site_id', 'user_id', 'role']).doNothing())
                    .execute();
                  await people.enroll(
                    'demo',
                    {
                      email: email(w.i),
                      courseSlug: 'tally-0',
                      expiresAt,
                      lifetimeAccess: w.expiry === 'lifetime',
                    },
                    NOW,
                  );
                } else
                  await db
                    .insertInto('enrollments')
                    .values({
                      id: `enr_${site}_${uid(w.i)}`,
                      site_id: site,
                      user_id: uid(w.i),
                      course_id: courseId(0),
                      expires_at: expiresAt ?? null,
                      lifetime_access: w.expiry === 'lifetime' ? 1 : 0,
                      created_at: NOW.toISOString(),
                    } as never)
                    .onConflict((oc) =>
                      oc.columns(['site_id', 'user_id', 'course_id']).doUpdateSet({
                        expires_at: expiresAt ?? null,
                        lifetime_access: w.expiry === 'lifetime' ? 1 : 0,
                      } as never),
                    )
                    .execute();
                break;
              }
              case 'unenroll':
                await db
                  .deleteFrom('enrollments')
                  .where('site_id', '=', site)
                  .where('user_id', '=', uid(w.i))
                  .execute();
                break;
              case 'order':
                await ensureUser(w.i);
                await db
                  .insertInto('orders')
                  .values({
                    id: `ord_${run}_${w.i}_${Math.random().toString(36).slice(2)}`,
                    site_id: site,
                    user_id: uid(w.i),
                    number: `T-${run}-${w.i}`,
                    status: w.status,
                    total_minor: w.minor,
                    currency: w.currency,
                    created_at: NOW.toISOString(),
                  } as never)
                  .execute();
                break;
              case 'order-status':
                await db
                  .updateTable('orders')
                  .set({ status: w.status } as never)
                  .where('site_id', '=', site)
                  .where('user_id', '=', uid(w.i))
                  .execute();
                break;
              case 'register':
                await ensureUser(w.i);
                if (site !== 'demo') break;
                await db
                  .insertInto('event_registrations')
                  .values({
                    id: `reg_${run}_${w.i}_${Math.random().toString(36).slice(2)}`,
                    site_id: 'demo',
                    user_id: uid(w.i),
                    event_id: eventId,
                    status: w.status,
                    created_at: NOW.toISOString(),
                  } as never)
                  .execute();
                break;
              case 'course':
                if (site === 'demo')
                  await courses
                    .create('demo', { slug: `tally-${run}-${w.i}`, title: 'T', isPublic: w.isPublic }, NOW)
                    .catch(() => undefined);
                else await ensureCourse(w.i, w.isPublic);
                break;
              case 'course-visibility':
                await db
                  .updateTable('courses')
                  .set({ is_public: w.isPublic ? 1 : 0 } as never)
                  .where('id', '=', courseId(w.i))
                  .execute();
                break;
              case 'progress': {
                // A progress upsert, as Progress.record writes it (a newer or an older time).
                await ensureUser(w.i);
                await ensureCourse(0);
                const lectureId = `lec_t${site}_${w.lecture}`;
                await db
                  .insertInto('lectures')
                  .values({ id: lectureId, course_id: courseId(0), title: 'L', position: w.lecture } as never)
                  .onConflict((oc) => oc.column('id').doNothing())
                  .execute();
                const at = new Date(NOW.getTime() - w.daysAgo * 86_400_000).toISOString();
                await db
                  .insertInto('lecture_progress')
                  .values({
                    user_id: uid(w.i),
                    site_id: site,
                    course_id: courseId(0),
                    lecture_id: lectureId,
                    position_seconds: 10,
                    recorded_at: at,
                    updated_at: at,
                  } as never)
                  .onConflict((oc) =>
                    oc.columns(['user_id', 'lecture_id']).doUpdateSet({ recorded_at: at, updated_at: at } as never),
                  )
                  .execute();
                break;
              }
              case 'forget-progress':
                await db
                  .deleteFrom('lecture_progress')
                  .where('user_id', '=', uid(w.i))
                  .where('lecture_id', '=', `lec_t${site}_${w.lecture}`)
                  .execute();
                break;
              case 'delete-user':
                // Cascades to memberships, enrollments, orders and registrations.
                await db.deleteFrom('users').where('id', '=', uid(w.i)).execute();
                break;
            }
          }
          for (const s of ['demo', 'other']) {
            const { asOf: _asOf, ...shown } = await new AnalyticsAdmin(db).summary(s, NOW);
            expect(shown).toEqual(await recount(db, s));
          }
        }),
        { numRuns: 30, seed: 29 },
      );
    }, 120_000);

    test('two roles of one person written by one statement count one member, and go together', async () => {
      const figures = () => new AnalyticsAdmin(db).summary('demo', NOW);
      const before = (await figures()).members.total;
      await db
        .insertInto('users')
        .values(
          ['a', 'b'].map((x) => ({
            id: `usr_multi_${x}`,
            email: `multi-${x}@tally.test`,
            name: x,
            password_hash: 'x',
            created_at: NOW.toISOString(),
          })) as never,
        )
        .execute();
      await db
        .insertInto('memberships')
        .values(
          ['a', 'b'].flatMap((x) =>
            ['student', 'instructor', 'admin'].map((role) => ({ site_id: 'demo', user_id: `usr_multi_${x}`, role })),
          ) as never,
        )
        .execute();
      expect((await figures()).members.total).toBe(before + 2);
      await db.deleteFrom('memberships').where('user_id', 'in', ['usr_multi_a', 'usr_multi_b']).execute();
      expect((await figures()).members.total).toBe(before);
      const { asOf: _asOf, ...shown } = await figures();
      expect(shown).toEqual(await recount(db, 'demo'));
    });

    test('connected grants per client: the tallies equal a GROUP BY after inserts, deletes and a user cascade', async () => {
      const grants = new ConnectedGrants(opened.db);
      const users = ['g1', 'g2', 'g3'];
      await db
        .insertInto('users')
        .values(
          users.map((u) => ({
            id: `usr_${u}`,
            email: `${u}@tally.test`,
            name: u,
            password_hash: 'x',
            created_at: NOW.toISOString(),
          })) as never,
        )
        .execute();
      await db
        .insertInto('connected_grants')
        .values(
          users.flatMap((u, i) =>
            ['app-a', 'app-b'].slice(0, i + 1).map((client) => ({
              grant_id: `grt_${u}_${client}`,
              site_id: 'demo',
              client_id: client,
              user_id: `usr_${u}`,
              scope: 'openid',
              created_at: NOW.toISOString(),
              last_used_at: NOW.toISOString(),
            })),
          ) as never,
        )
        .execute();
      const grouped = async () =>
        (
          await db
            .selectFrom('connected_grants')
            .select((eb) => ['client_id', eb.fn.countAll().as('n')])
            .where('site_id', '=', 'demo')
            .groupBy('client_id')
            .orderBy('client_id')
            .execute()
        ).map((r) => ({ clientId: r.client_id, grants: Number(r.n) }));
      expect(await grants.countsByClient('demo')).toEqual(await grouped());
      expect((await grants.countsByClient('demo')).find((c) => c.clientId === 'app-a')?.grants).toBe(3);
      await db.deleteFrom('connected_grants').where('grant_id', '=', 'grt_g3_app-b').execute();
      await db.deleteFrom('users').where('id', '=', 'usr_g2').execute();
      expect(await grants.countsByClient('demo')).toEqual(await grouped());
      expect((await grants.countsByClient('demo')).find((c) => c.clientId === 'app-a')?.grants).toBe(2);
    });

    test("a site's deletion removes its tallies, and a site created again under its id starts at zero", async () => {
      const before = await new AnalyticsAdmin(db).summary('other', NOW);
      expect(before.courses.total + before.members.total + before.orders.total).toBeGreaterThan(0);
      await db.deleteFrom('sites').where('id', '=', 'other').execute();
      expect(
        await db.selectFrom('site_tallies').select('metric').where('site_id', '=', 'other').execute(),
      ).toHaveLength(0);
      await db
        .insertInto('sites')
        .values({ id: 'other', name: 'Other again', created_at: NOW.toISOString() } as never)
        .execute();
      const { asOf: _asOf, ...fresh } = await new AnalyticsAdmin(db).summary('other', NOW);
      expect(fresh).toEqual(await recount(db, 'other'));
      expect(fresh.members.total).toBe(0);
    });
  });
}
