/**
 * Issue #29, "analytics as aggregates in SQL (or maintained counters)": the analytics overview
 * reads `site_tallies` (migration 0026), counters kept by triggers. Whatever writes the rows
 * (the operator services, plain SQL, a foreign-key cascade, an upsert, a site's deletion), the
 * overview must equal the figures counted from the rows themselves — the aggregate queries the
 * overview ran before the counters, kept here as the oracle. Random write sequences
 * (fast-check) on SQLite and on PostgreSQL.
 *
 * Issue #29, "cost at volume" (migration 0029): the counts beside each row of the courses, events
 * and forms lists, and in one course's, event's or form's read, are per-item tallies. After the
 * same random writes (and lectures, registrations, submissions added, moved, cancelled, deleted
 * with their item, items moved to another site) every list and single read must show what the
 * child rows count, and no tally may outlive its item with a count. A store filled as 0028 left
 * it must show the same counts once 0029 has run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { readSeed, seedDemo } from '../../src/platform/seed.js';
import { AnalyticsAdmin, type SiteAnalytics } from '../../src/platform/operator/analytics.js';
import { PeopleAdmin } from '../../src/platform/operator/people.js';
import { CourseAdmin } from '../../src/platform/operator/courses.js';
import { EventAdmin } from '../../src/platform/operator/events.js';
import { seedCommunityDemo } from '../../src/platform/operator/community-seed.js';
import { ITEM_METRICS, type OperatorDatabase } from '../../src/platform/operator/schema.js';
import { ConnectedGrants } from '../../src/platform/connected-grants.js';
import { Forms, type FormSubmissionsTable, type FormsTable } from '../../src/platform/forms.js';
import { PlatformError } from '../../src/platform/errors.js';
import { migratePlatformTo } from '../../src/platform/migrations.js';
import type { PlatformDatabase } from '../../src/platform/schema.js';
import { openEmbeddedStore } from '../../src/store/database.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { platformBackends } from '../helpers/platform-stores.js';
import { TEST_DATABASE_URL, createTestDatabase } from '../helpers/services.js';

const backends = platformBackends('tallies');

/** The tables the writes below reach, forms included. */
type TallyDatabase = OperatorDatabase & { forms: FormsTable; form_submissions: FormSubmissionsTable };
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

/** The per-item counts of a site: what the lists and single reads show, or what the rows count. */
interface ItemCounts {
  /** By course slug. */
  courses: Record<string, { lectureCount: number; enrollmentCount: number }>;
  /** By event id: registrations not cancelled. */
  events: Record<string, number>;
  /** By form id: submissions. */
  forms: Record<string, number>;
}

/** The per-item counts counted from the child rows that name each item (the oracle). */
async function itemRecount(db: Kysely<OperatorDatabase>, siteId: string): Promise<ItemCounts> {
  const q = async <T>(text: string) => (await sql.raw<T>(text.replaceAll('$site', `'${siteId}'`)).execute(db)).rows;
  const courses = await q<{ slug: string; lectures: unknown; enrollments: unknown }>(
    `SELECT c.slug, (SELECT count(*) FROM lectures l WHERE l.course_id = c.id) AS lectures,
       (SELECT count(*) FROM enrollments e WHERE e.course_id = c.id) AS enrollments
     FROM courses c WHERE c.site_id = $site`,
  );
  const events = await q<{ id: string; n: unknown }>(
    `SELECT v.id, (SELECT count(*) FROM event_registrations r WHERE r.event_id = v.id AND r.status <> 'cancelled') AS n
     FROM events v WHERE v.site_id = $site`,
  );
  const forms = await q<{ id: string; n: unknown }>(
    `SELECT f.id, (SELECT count(*) FROM form_submissions s WHERE s.form_id = f.id) AS n FROM forms f WHERE f.site_id = $site`,
  );
  return {
    courses: Object.fromEntries(
      courses.map((c) => [c.slug, { lectureCount: Number(c.lectures), enrollmentCount: Number(c.enrollments) }]),
    ),
    events: Object.fromEntries(events.map((e) => [e.id, Number(e.n)])),
    forms: Object.fromEntries(forms.map((f) => [f.id, Number(f.n)])),
  };
}

/**
 * The per-item counts as the services show them: every page of the courses, events and forms
 * lists (small pages, so the walk crosses cursors), and each item's single read, which must agree.
 */
async function itemsShown(db: Kysely<OperatorDatabase>, siteId: string): Promise<ItemCounts> {
  const courseAdmin = new CourseAdmin(db);
  const eventAdmin = new EventAdmin(db);
  const forms = new Forms(db as unknown as Kysely<PlatformDatabase>);
  const shown: ItemCounts = { courses: {}, events: {}, forms: {} };
  let cursor: string | undefined;
  do {
    const page = await courseAdmin.page(siteId, { limit: 7, cursor });
    for (const c of page.items) {
      shown.courses[c.slug] = { lectureCount: c.lectureCount, enrollmentCount: c.enrollmentCount };
      const one = await courseAdmin.get(siteId, c.slug);
      expect({ lectureCount: one.lectureCount, enrollmentCount: one.enrollmentCount }).toEqual(shown.courses[c.slug]);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  do {
    const page = await eventAdmin.page(siteId, { limit: 7, cursor });
    for (const e of page.items) {
      shown.events[e.id] = e.registrations;
      expect((await eventAdmin.get(siteId, e.id)).registrations).toBe(e.registrations);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  do {
    const page = await forms.page(siteId, { limit: 7, cursor });
    for (const f of page.items) {
      shown.forms[f.id] = f.submissionCount;
      expect((await forms.get(siteId, f.id)).submissionCount).toBe(f.submissionCount);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  expect(Object.fromEntries((await forms.list(siteId)).map((f) => [f.id, f.submissionCount]))).toEqual(shown.forms);
  return shown;
}

/** Per-item tally rows with a count whose item is gone, or at another site (none may be left). */
async function strayItemTallies(db: Kysely<OperatorDatabase>): Promise<unknown[]> {
  const itemOf = {
    [ITEM_METRICS.courseEnrollments]: 'courses',
    [ITEM_METRICS.courseLectures]: 'courses',
    [ITEM_METRICS.eventRegistrations]: 'events',
    [ITEM_METRICS.formSubmissions]: 'forms',
  };
  const stray: unknown[] = [];
  for (const [metric, table] of Object.entries(itemOf))
    stray.push(
      ...(
        await sql
          .raw(
            `SELECT t.site_id, t.metric, t.key, t.n FROM site_tallies t WHERE t.metric = '${metric}' AND t.n <> 0
             AND NOT EXISTS (SELECT 1 FROM ${table} i WHERE i.id = t.key AND i.site_id = t.site_id)`,
          )
          .execute(db)
      ).rows,
    );
  return stray;
}

/** Runs a write that the store or a service may refuse (a moved item, a taken slug, a unique pair). */
async function refusable(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (e) {
    if (e instanceof PlatformError) return;
    if (/unique|constraint|foreign key|violates/i.test(String((e as Error).message))) return;
    throw e;
  }
}

/** One write to the counted tables, by whatever path a real writer takes. */
type Write =
  | { kind: 'user'; i: number }
  | { kind: 'role'; i: number; role: 'student' | 'instructor' | 'admin'; add: boolean }
  | { kind: 'enroll'; i: number; course: number; expiry: 'none' | 'past' | 'future' | 'lifetime' }
  | { kind: 'unenroll'; i: number }
  | { kind: 'move-enrollments'; i: number; course: number }
  | { kind: 'order'; i: number; status: 'paid' | 'pending' | 'refunded'; currency: 'EUR' | 'USD'; minor: number }
  | { kind: 'order-status'; i: number; status: 'paid' | 'pending' | 'refunded' }
  | { kind: 'register'; i: number; event: number; status: 'registered' | 'cancelled'; upsert: boolean }
  | { kind: 'registration-status'; i: number; status: 'registered' | 'cancelled' }
  | { kind: 'move-registrations'; i: number; event: number }
  | { kind: 'cancel-event'; event: number; service: boolean }
  | { kind: 'lecture'; course: number; count: number }
  | { kind: 'remove-lecture'; course: number; service: boolean }
  | { kind: 'move-lectures'; from: number; to: number }
  | { kind: 'delete-course'; course: number }
  | { kind: 'submit'; form: number; count: number }
  | { kind: 'delete-submission'; form: number }
  | { kind: 'move-submissions'; from: number; to: number }
  | { kind: 'delete-form'; form: number }
  | { kind: 'move-item'; item: 'courses' | 'events' | 'forms'; i: number }
  | { kind: 'course'; i: number; isPublic: boolean }
  | { kind: 'course-visibility'; i: number; isPublic: boolean }
  | { kind: 'delete-user'; i: number }
  | { kind: 'progress'; i: number; lecture: number; daysAgo: number }
  | { kind: 'forget-progress'; i: number; lecture: number };

// The writes that make rows to count, and those that move them, come more often than the rest.
const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), i: fc.nat(5) }),
  fc.record({
    kind: fc.constant('role' as const),
    i: fc.nat(5),
    role: fc.constantFrom('student' as const, 'instructor' as const, 'admin' as const),
    add: fc.boolean(),
  }),
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('enroll' as const),
      i: fc.nat(2),
      course: fc.nat(2),
      expiry: fc.constantFrom('none' as const, 'past' as const, 'future' as const, 'lifetime' as const),
    }),
  },
  fc.record({ kind: fc.constant('unenroll' as const), i: fc.nat(5) }),
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('move-enrollments' as const), i: fc.nat(2), course: fc.nat(2) }),
  },
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
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('register' as const),
      i: fc.nat(2),
      event: fc.nat(2),
      status: fc.constantFrom('registered' as const, 'cancelled' as const),
      upsert: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('registration-status' as const),
      i: fc.nat(2),
      status: fc.constantFrom('registered' as const, 'cancelled' as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('move-registrations' as const), i: fc.nat(2), event: fc.nat(2) }),
  },
  fc.record({ kind: fc.constant('cancel-event' as const), event: fc.nat(2), service: fc.boolean() }),
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('lecture' as const),
      course: fc.nat(2),
      count: fc.integer({ min: 1, max: 3 }),
    }),
  },
  fc.record({ kind: fc.constant('remove-lecture' as const), course: fc.nat(2), service: fc.boolean() }),
  fc.record({ kind: fc.constant('move-lectures' as const), from: fc.nat(2), to: fc.nat(2) }),
  fc.record({ kind: fc.constant('delete-course' as const), course: fc.nat(2) }),
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('submit' as const),
      form: fc.nat(2),
      count: fc.integer({ min: 1, max: 3 }),
    }),
  },
  fc.record({ kind: fc.constant('delete-submission' as const), form: fc.nat(2) }),
  fc.record({ kind: fc.constant('move-submissions' as const), from: fc.nat(2), to: fc.nat(2) }),
  fc.record({ kind: fc.constant('delete-form' as const), form: fc.nat(2) }),
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('move-item' as const),
      item: fc.constantFrom('courses' as const, 'events' as const, 'forms' as const),
      i: fc.nat(2),
    }),
  },
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
    let tdb: Kysely<TallyDatabase>;
    beforeAll(async () => {
      opened = await open!();
      db = opened.db as unknown as Kysely<OperatorDatabase>;
      tdb = db as unknown as Kysely<TallyDatabase>;
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
      await seedCommunityDemo(opened.db, NOW);
    });
    afterAll(async () => opened?.close());

    test('the demo seed: the overview equals the recount', async () => {
      const figures = await new AnalyticsAdmin(db).summary('demo', NOW);
      const { asOf: _asOf, ...shown } = figures;
      expect(shown).toEqual(await recount(db, 'demo'));
      expect(figures.members.total).toBeGreaterThan(0);
      const items = await itemsShown(db, 'demo');
      expect(items).toEqual(await itemRecount(db, 'demo'));
      // The seed has lectures, enrollments, registrations and submissions to count.
      expect(Object.values(items.courses).some((c) => c.lectureCount > 0 && c.enrollmentCount > 0)).toBe(true);
      expect(Object.values(items.events).some((n) => n > 0)).toBe(true);
      expect(Object.values(items.forms).some((n) => n > 0)).toBe(true);
    });

    test('random writes by services, plain SQL, upserts and cascades keep the overview equal to the recount', async () => {
      const people = new PeopleAdmin(db);
      const courses = new CourseAdmin(db);
      const events = new EventAdmin(db);
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(write, { minLength: 5, maxLength: 40 }), async (writes) => {
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
              // Not at all when the id or the slug is taken (a course moved here from the other site).
              .onConflict((oc) => oc.doNothing())
              .execute();
          const eventId = (i: number) => `evt_t${site}_${i}`;
          const ensureEvent = async (i: number) =>
            db
              .insertInto('events')
              .values({
                id: eventId(i),
                site_id: site,
                title: `Tally ${i}`,
                starts_at: '2026-07-01T10:00:00.000Z',
                ends_at: '2026-07-01T11:00:00.000Z',
                location: 'Online',
              } as never)
              .onConflict((oc) => oc.doNothing())
              .execute();
          const formId = (i: number) => `frm_t${site}_${i}`;
          const ensureForm = async (i: number) =>
            tdb
              .insertInto('forms')
              .values({
                id: formId(i),
                site_id: site,
                title: `Tally ${i}`,
                description: '',
                fields: '[]',
                created_at: NOW.toISOString(),
              } as never)
              .onConflict((oc) => oc.doNothing())
              .execute();
          const random = () => Math.random().toString(36).slice(2);
          const apply = async (w: Write) => {
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
                await ensureCourse(w.course);
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
                      courseSlug: `tally-${w.course}`,
                      expiresAt,
                      lifetimeAccess: w.expiry === 'lifetime',
                    },
                    NOW,
                  );
                } else
                  await db
                    .insertInto('enrollments')
                    .values({
                      id: `enr_${site}_${uid(w.i)}_${w.course}`,
                      site_id: site,
                      user_id: uid(w.i),
                      course_id: courseId(w.course),
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
              case 'move-enrollments':
                // Another course for the person's enrollments (refused when one is there already).
                await ensureCourse(w.course);
                await db
                  .updateTable('enrollments')
                  .set({ course_id: courseId(w.course) } as never)
                  .where('site_id', '=', site)
                  .where('user_id', '=', uid(w.i))
                  .execute();
                break;
              case 'register': {
                await ensureUser(w.i);
                await ensureEvent(w.event);
                const insert = db.insertInto('event_registrations').values({
                  // An upsert finds the person's registration to the event by its id.
                  id: w.upsert ? `reg_${site}_${uid(w.i)}_${w.event}` : `reg_${run}_${w.i}_${random()}`,
                  site_id: site,
                  user_id: uid(w.i),
                  event_id: eventId(w.event),
                  status: w.status,
                  created_at: NOW.toISOString(),
                } as never);
                await (w.upsert
                  ? insert.onConflict((oc) => oc.column('id').doUpdateSet({ status: w.status } as never))
                  : insert
                ).execute();
                break;
              }
              case 'registration-status':
                await db
                  .updateTable('event_registrations')
                  .set({ status: w.status } as never)
                  .where('site_id', '=', site)
                  .where('user_id', '=', uid(w.i))
                  .execute();
                break;
              case 'move-registrations':
                await ensureEvent(w.event);
                await db
                  .updateTable('event_registrations')
                  .set({ event_id: eventId(w.event) } as never)
                  .where('site_id', '=', site)
                  .where('user_id', '=', uid(w.i))
                  .execute();
                break;
              case 'cancel-event':
                // The service deletes the registrations, then the event; plain SQL leaves them to the cascade.
                if (w.service) await events.cancel(site, eventId(w.event));
                else await db.deleteFrom('events').where('id', '=', eventId(w.event)).execute();
                break;
              case 'lecture':
                await ensureCourse(w.course);
                if (site === 'demo' && w.count === 1)
                  await courses.addLecture(site, `tally-${w.course}`, { title: 'L', durationSeconds: 60 });
                else
                  await db
                    .insertInto('lectures')
                    .values(
                      Array.from({ length: w.count }, (_, k) => ({
                        id: `lec_${random()}`,
                        course_id: courseId(w.course),
                        title: 'L',
                        position: 10 + k,
                      })) as never,
                    )
                    .execute();
                break;
              case 'remove-lecture': {
                const lecture = await db
                  .selectFrom('lectures')
                  .select('id')
                  .where('course_id', '=', courseId(w.course))
                  .orderBy('id')
                  .executeTakeFirst();
                if (!lecture) break;
                if (w.service) await courses.removeLecture(site, lecture.id);
                else await db.deleteFrom('lectures').where('id', '=', lecture.id).execute();
                break;
              }
              case 'move-lectures':
                await ensureCourse(w.to);
                await db
                  .updateTable('lectures')
                  .set({ course_id: courseId(w.to) } as never)
                  .where('course_id', '=', courseId(w.from))
                  .execute();
                break;
              case 'delete-course':
                // Cascades to its lectures (and their progress) and enrollments.
                await db.deleteFrom('courses').where('id', '=', courseId(w.course)).execute();
                break;
              case 'submit':
                await ensureForm(w.form);
                await tdb
                  .insertInto('form_submissions')
                  .values(
                    Array.from({ length: w.count }, () => ({
                      id: `sub_${random()}`,
                      form_id: formId(w.form),
                      data: '{}',
                      submitted_at: NOW.toISOString(),
                    })) as never,
                  )
                  .execute();
                break;
              case 'delete-submission': {
                const one = await tdb
                  .selectFrom('form_submissions')
                  .select('id')
                  .where('form_id', '=', formId(w.form))
                  .orderBy('id')
                  .executeTakeFirst();
                if (one) await tdb.deleteFrom('form_submissions').where('id', '=', one.id).execute();
                break;
              }
              case 'move-submissions':
                await ensureForm(w.to);
                await tdb
                  .updateTable('form_submissions')
                  .set({ form_id: formId(w.to) } as never)
                  .where('form_id', '=', formId(w.from))
                  .execute();
                break;
              case 'delete-form':
                await tdb.deleteFrom('forms').where('id', '=', formId(w.form)).execute();
                break;
              case 'move-item': {
                // An item moved to the other site (a course whose slug is taken there is refused).
                const id = { courses: courseId, events: eventId, forms: formId }[w.item](w.i);
                await tdb
                  .updateTable(w.item)
                  .set({ site_id: site === 'demo' ? 'other' : 'demo' } as never)
                  .where('id', '=', id)
                  .execute();
                break;
              }
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
          };
          for (const w of writes) await refusable(apply(w));
          for (const s of ['demo', 'other']) {
            const { asOf: _asOf, ...shown } = await new AnalyticsAdmin(db).summary(s, NOW);
            expect(shown).toEqual(await recount(db, s));
            expect(await itemsShown(db, s)).toEqual(await itemRecount(db, s));
          }
          expect(await strayItemTallies(db)).toEqual([]);
        }),
        { numRuns: 40, seed: 29 },
      );
    }, 120_000);

    test('each way a counted row arrives, moves or goes, one step at a time: the lists follow the rows', async () => {
      const courses = new CourseAdmin(db);
      const events = new EventAdmin(db);
      const at = NOW.toISOString();
      const step = async (label: string, write: () => Promise<unknown>) => {
        await write();
        for (const site of ['demo', 'other']) {
          const shown = await itemsShown(db, site);
          // The label names the step in a failure.
          expect({ label, site, shown }).toEqual({ label, site, shown: await itemRecount(db, site) });
        }
        expect({ label, stray: await strayItemTallies(db) }).toEqual({ label, stray: [] });
      };
      const course = (id: string, site: string, slug: string) =>
        db
          .insertInto('courses')
          .values({ id, site_id: site, slug, title: slug, description: '', is_public: 1, created_at: at } as never)
          .execute();
      const event = (id: string, site: string) =>
        db
          .insertInto('events')
          .values({
            id,
            site_id: site,
            title: id,
            starts_at: '2026-09-01T10:00:00.000Z',
            ends_at: '2026-09-01T11:00:00.000Z',
            location: 'Online',
          } as never)
          .execute();
      const form = (id: string, site: string) =>
        tdb
          .insertInto('forms')
          .values({ id, site_id: site, title: id, description: '', fields: '[]', created_at: at })
          .execute();
      const users = ['s1', 's2', 's3'].map((u) => `usr_step_${u}`);
      await db
        .insertInto('users')
        .values(
          users.map((id) => ({ id, email: `${id}@tally.test`, name: id, password_hash: 'x', created_at: at })) as never,
        )
        .execute();
      await db
        .insertInto('memberships')
        .values(users.map((u) => ({ site_id: 'demo', user_id: u, role: 'student' })) as never)
        .execute();
      await step('items', async () => {
        await course('crs_step_a', 'demo', 'step-a');
        await course('crs_step_b', 'demo', 'step-b');
        await event('evt_step_e', 'demo');
        await event('evt_step_f', 'demo');
        await form('frm_step_x', 'demo');
        await form('frm_step_y', 'demo');
      });
      await step('lectures, one statement', () =>
        db
          .insertInto('lectures')
          .values(
            [1, 2, 3].map((p) => ({ id: `lec_step_${p}`, course_id: 'crs_step_a', title: 'L', position: p })) as never,
          )
          .execute(),
      );
      await step('a lecture by the service', () =>
        courses.addLecture('demo', 'step-b', { title: 'B1', durationSeconds: 60 }),
      );
      await step('enrollments by the service', async () => {
        for (const u of users.slice(0, 2))
          await new PeopleAdmin(db).enroll(
            'demo',
            { email: `${u}@tally.test`, courseSlug: 'step-a', lifetimeAccess: true },
            NOW,
          );
      });
      await step('an enrollment renewed (upsert)', () =>
        new PeopleAdmin(db).enroll(
          'demo',
          { email: `${users[0]}@tally.test`, courseSlug: 'step-a', expiresAt: '2027-01-01T00:00:00.000Z' },
          NOW,
        ),
      );
      await step('an enrollment moved to another course', () =>
        db
          .updateTable('enrollments')
          .set({ course_id: 'crs_step_b' } as never)
          .where('user_id', '=', users[1]!)
          .execute(),
      );
      await step('registrations, one cancelled', () =>
        db
          .insertInto('event_registrations')
          .values(
            users.map((u, i) => ({
              id: `reg_step_${i}`,
              site_id: 'demo',
              user_id: u,
              event_id: 'evt_step_e',
              status: i === 2 ? 'cancelled' : 'registered',
              created_at: at,
            })) as never,
          )
          .execute(),
      );
      await step('a registration cancelled', () =>
        db
          .updateTable('event_registrations')
          .set({ status: 'cancelled' } as never)
          .where('id', '=', 'reg_step_0')
          .execute(),
      );
      await step('a registration restored by an upsert', () =>
        db
          .insertInto('event_registrations')
          .values({
            id: 'reg_step_2',
            site_id: 'demo',
            user_id: users[2]!,
            event_id: 'evt_step_e',
            status: 'registered',
            created_at: at,
          } as never)
          .onConflict((oc) => oc.column('id').doUpdateSet({ status: 'registered' } as never))
          .execute(),
      );
      await step('a registration moved to another event', () =>
        db
          .updateTable('event_registrations')
          .set({ event_id: 'evt_step_f' } as never)
          .where('id', '=', 'reg_step_1')
          .execute(),
      );
      await step('a cancelled registration moved (it counts nowhere)', () =>
        db
          .updateTable('event_registrations')
          .set({ event_id: 'evt_step_f' } as never)
          .where('id', '=', 'reg_step_0')
          .execute(),
      );
      await step('submissions, one statement', () =>
        tdb
          .insertInto('form_submissions')
          .values([1, 2, 3].map((k) => ({ id: `sub_step_${k}`, form_id: 'frm_step_x', data: '{}', submitted_at: at })))
          .execute(),
      );
      await step('a submission moved to another form', () =>
        tdb.updateTable('form_submissions').set({ form_id: 'frm_step_y' }).where('id', '=', 'sub_step_1').execute(),
      );
      await step('a submission deleted', () =>
        tdb.deleteFrom('form_submissions').where('id', '=', 'sub_step_2').execute(),
      );
      await step('lectures moved to another course', () =>
        db
          .updateTable('lectures')
          .set({ course_id: 'crs_step_b' } as never)
          .where('id', 'in', ['lec_step_1', 'lec_step_2'])
          .execute(),
      );
      await step('a lecture removed by the service', () => courses.removeLecture('demo', 'lec_step_3'));
      await step('a course, an event and a form moved to the other site', async () => {
        await db
          .updateTable('courses')
          .set({ site_id: 'other' } as never)
          .where('id', '=', 'crs_step_b')
          .execute();
        await db
          .updateTable('events')
          .set({ site_id: 'other' } as never)
          .where('id', '=', 'evt_step_f')
          .execute();
        await tdb.updateTable('forms').set({ site_id: 'other' }).where('id', '=', 'frm_step_y').execute();
      });
      await step('a lecture added to the moved course', () =>
        db
          .insertInto('lectures')
          .values({ id: 'lec_step_4', course_id: 'crs_step_b', title: 'L', position: 9 } as never)
          .execute(),
      );
      await step('an event cancelled by the service', () => events.cancel('demo', 'evt_step_e'));
      await step('a course, an event and a form deleted in SQL (their rows go by the cascade)', async () => {
        await db.deleteFrom('courses').where('id', '=', 'crs_step_b').execute();
        await db.deleteFrom('events').where('id', '=', 'evt_step_f').execute();
        await tdb.deleteFrom('forms').where('id', '=', 'frm_step_y').execute();
      });
      await step('the same ids created again start at zero', async () => {
        await course('crs_step_b', 'other', 'step-b-again');
        await event('evt_step_f', 'other');
        await event('evt_step_e', 'demo');
        await form('frm_step_y', 'other');
      });
      await step('a person deleted (their enrollments and registrations go by the cascade)', () =>
        db.deleteFrom('users').where('id', 'in', users).execute(),
      );
      const last = await itemsShown(db, 'demo');
      expect(last.courses['step-a']).toEqual({ lectureCount: 0, enrollmentCount: 0 });
      expect(last.forms.frm_step_x).toBe(1);
    });

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
      // Items created again under the ids they had there (unless moved to demo) start at zero too.
      for (let i = 0; i < 3; i++) {
        await db
          .insertInto('courses')
          .values({
            id: `crs_tother_${i}`,
            site_id: 'other',
            slug: `again-${i}`,
            title: 'Again',
            description: '',
            is_public: 1,
            created_at: NOW.toISOString(),
          } as never)
          .onConflict((oc) => oc.doNothing())
          .execute();
        await db
          .insertInto('events')
          .values({
            id: `evt_tother_${i}`,
            site_id: 'other',
            title: 'Again',
            starts_at: '2026-07-01T10:00:00.000Z',
            ends_at: '2026-07-01T11:00:00.000Z',
            location: 'Online',
          } as never)
          .onConflict((oc) => oc.doNothing())
          .execute();
        await tdb
          .insertInto('forms')
          .values({
            id: `frm_tother_${i}`,
            site_id: 'other',
            title: 'Again',
            description: '',
            fields: '[]',
            created_at: NOW.toISOString(),
          } as never)
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      const items = await itemsShown(db, 'other');
      expect(items).toEqual(await itemRecount(db, 'other'));
      expect(Object.keys(items.courses).length).toBeGreaterThan(0);
      for (const c of Object.values(items.courses)) expect(c).toEqual({ lectureCount: 0, enrollmentCount: 0 });
      expect([...Object.values(items.events), ...Object.values(items.forms)].every((n) => n === 0)).toBe(true);
      expect(await strayItemTallies(db)).toEqual([]);
    });
  });
}

/**
 * Openers of a store that has the migrations up to 0028 only (as the previous release left it):
 * `fill` writes its rows through a plain Kysely handle, then the real store opener applies 0029.
 */
const olderStores: Record<
  'sqlite' | 'postgres',
  | ((
      fill: (db: Kysely<PlatformDatabase>) => Promise<void>,
    ) => Promise<{ db: Kysely<PlatformDatabase>; close(): Promise<void> }>)
  | undefined
> = {
  sqlite: async (fill) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-tallies-0029-'));
    const file = new Database(path.join(dir, 'coursegate.db'));
    file.pragma('foreign_keys = ON');
    const older = new Kysely<PlatformDatabase>({ dialect: new SqliteDialect({ database: file }) });
    await migratePlatformTo(older, '0028_list_keyset_indexes');
    await fill(older);
    await older.destroy();
    const store = await openEmbeddedStore(dir);
    return { db: store.db, close: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
  },
  postgres: TEST_DATABASE_URL
    ? async (fill) => {
        const database = await createTestDatabase();
        const older = new Kysely<PlatformDatabase>({
          dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }),
        });
        await migratePlatformTo(older, '0028_list_keyset_indexes');
        await fill(older);
        await older.destroy();
        const store = await openPostgresStore(database.url);
        return { db: store.db, close: async () => (await store.close(), await database.drop()) };
      }
    : undefined,
};

for (const [name, open] of Object.entries(olderStores)) {
  const d = open ? describe : describe.skip;
  d(`migration 0029 on ${name}`, () => {
    test('counts the rows a store already has once: the lists show what the rows count', async () => {
      const opened = await open!(async (older) => {
        await seedDemo(older, readSeed(path.resolve('config/demo-seed.yaml')), 'pw-for-tests-only');
        await seedCommunityDemo(older, NOW);
        // A cancelled registration (not counted) and a second event with none.
        await older
          .insertInto('events')
          .values({
            id: 'evt_none',
            site_id: 'demo',
            title: 'None',
            starts_at: '2026-08-01T10:00:00.000Z',
            ends_at: '2026-08-01T11:00:00.000Z',
            location: 'Online',
          } as never)
          .execute();
        const [registration] = await sql<{ id: string; event_id: string }>`
          SELECT id, event_id FROM event_registrations ORDER BY id`
          .execute(older)
          .then((r) => r.rows);
        await older
          .updateTable('event_registrations')
          .set({ status: 'cancelled' } as never)
          .where('id', '=', registration!.id)
          .execute();
      });
      try {
        const db = opened.db as unknown as Kysely<OperatorDatabase>;
        for (const site of ['demo', 'second']) expect(await itemsShown(db, site)).toEqual(await itemRecount(db, site));
        const demo = await itemsShown(db, 'demo');
        expect(Object.values(demo.courses).some((c) => c.lectureCount > 0 && c.enrollmentCount > 0)).toBe(true);
        expect(Object.values(demo.forms).some((n) => n > 0)).toBe(true);
        expect(demo.events.evt_none).toBe(0);
        expect(await strayItemTallies(db)).toEqual([]);
        // The triggers count from here on: one more submission, one lecture fewer.
        const [form] = Object.entries(demo.forms);
        await db
          .insertInto('form_submissions' as never)
          .values({ id: 'sub_after', form_id: form![0], data: '{}', submitted_at: NOW.toISOString() } as never)
          .execute();
        const course = await db
          .selectFrom('lectures')
          .select(['id', 'course_id'])
          .orderBy('id')
          .executeTakeFirstOrThrow();
        await db.deleteFrom('lectures').where('id', '=', course.id).execute();
        const after = await itemsShown(db, 'demo');
        expect(after.forms[form![0]]).toBe(form![1] + 1);
        expect(after).toEqual(await itemRecount(db, 'demo'));
      } finally {
        await opened.close();
      }
    }, 60_000);
  });
}
