/**
 * adapters/sqlite-plans.ts (issue #15): parameters behind SQLite's no-op unary plus, so that
 * better-sqlite3 does not re-prepare statements whose plan looked at a bound value. The rewrite
 * must keep results and index use exactly as they were.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { stablePlan } from '../../adapters/sqlite-plans.js';
import { openEmbeddedStore, type EmbeddedStore } from '../../src/store/database.js';
import { PeopleAdmin } from '../../src/platform/operator/people.js';
import { CommerceAdmin } from '../../src/platform/operator/commerce.js';
import { AnalyticsAdmin } from '../../src/platform/operator/analytics.js';
import { AuditTrail } from '../../src/platform/audit.js';
import { ConnectedGrants } from '../../src/platform/connected-grants.js';
import { Comments } from '../../src/platform/comments.js';
import { Invitations } from '../../src/platform/invitations.js';
import { Lecturers } from '../../src/platform/lecturers.js';
import { Memberships } from '../../src/platform/memberships.js';
import { DigitalProducts } from '../../src/platform/digital-products.js';
import { EventAdmin } from '../../src/platform/operator/events.js';
import { SiteContent } from '../../src/platform/content.js';
import { CourseAdmin } from '../../src/platform/operator/courses.js';
import { Forms } from '../../src/platform/forms.js';
import { encodeCursor } from '../../src/platform/paging.js';

describe('stablePlan', () => {
  it('puts every kind of parameter behind a unary plus', () => {
    expect(stablePlan('select * from t where a = ? and b = ?2 and c = :c and d = @d and e = $e limit ? offset ?')).toBe(
      'select * from t where a = +? and b = +?2 and c = +:c and d = +@d and e = +$e limit +? offset +?',
    );
    expect(stablePlan('insert into t (a, b) values (?, ?)')).toBe('insert into t (a, b) values (+?, +?)');
  });

  it('leaves string literals, quoted identifiers and comments alone', () => {
    const sql = `select "a?b", [c?], \`d?\`, 'it''s ?', payload->>'$.x' /* ? */ from t -- ?\nwhere x = ?`;
    expect(stablePlan(sql)).toBe(
      `select "a?b", [c?], \`d?\`, 'it''s ?', payload->>'$.x' /* ? */ from t -- ?\nwhere x = +?`,
    );
  });

  it('keeps results, affinity and index use', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE t (model TEXT NOT NULL, id TEXT NOT NULL, n INTEGER, PRIMARY KEY (model, id)) WITHOUT ROWID;
      CREATE INDEX t_n ON t (n) WHERE model = 'A';`);
    const insert = db.prepare(stablePlan('INSERT INTO t (model, id, n) VALUES (@model, @id, @n)'));
    for (let i = 0; i < 20; i++) insert.run({ model: i % 2 ? 'A' : 'B', id: `x${i}`, n: i });
    const find = stablePlan('SELECT id, n FROM t WHERE model = ? AND id = ?');
    expect(db.prepare(find).get('A', 'x3')).toEqual({ id: 'x3', n: 3 });
    // The column's INTEGER affinity applies to the parameter as before: '3' finds 3.
    expect(db.prepare(stablePlan('SELECT id FROM t WHERE n = ?')).all('3')).toEqual([{ id: 'x3' }]);
    expect(
      db.prepare(stablePlan('SELECT id FROM t WHERE model = ? ORDER BY n LIMIT ? OFFSET ?')).all('A', 2, 1),
    ).toEqual([{ id: 'x3' }, { id: 'x5' }]);
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${stablePlan(sql)}`).all('A', 'x3') as { detail: string }[])
        .map((r) => r.detail)
        .join('; ');
    expect(plan('SELECT n FROM t WHERE model = ? AND id = ?')).toMatch(/USING PRIMARY KEY \(model=\? AND id=\?\)/);
  });
});

/**
 * Issue #29 (a platform with a million members): every operator list pages in SQL on an index that
 * holds its sort key, so a page reads at most limit + 1 index entries whatever the site's size; no
 * list sorts the site's rows in a temporary B-tree; the retention purge finds due events by a range
 * scan of an index. Plans are read with EXPLAIN QUERY PLAN on the migrated embedded store, for the
 * exact SQL (and parameters) each service sends.
 */
describe('operator list plans (issue #29)', () => {
  let dir: string;
  let store: EmbeddedStore;
  const sent: Array<{ sql: string; parameters: readonly unknown[] }> = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cg-plans-'));
    store = await openEmbeddedStore(dir, (event) => {
      if (event.level === 'query') sent.push({ sql: event.query.sql, parameters: event.query.parameters });
    });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The plans of the statements `run` sends that read or delete `table`, one text per statement. */
  async function plans(table: string, run: () => Promise<unknown>): Promise<string[]> {
    sent.length = 0;
    await run();
    const mine = sent.filter((q) => new RegExp(`\\b(from|into) "${table}"`, 'i').test(q.sql));
    expect(mine.length).toBeGreaterThan(0);
    return mine.map((q) =>
      (
        store.sqlite.prepare(`EXPLAIN QUERY PLAN ${stablePlan(q.sql)}`).all(...(q.parameters as unknown[])) as Array<{
          detail: string;
        }>
      )
        .map((r) => r.detail)
        .join('; '),
    );
  }

  /** A list statement: `table` found by a search of `index`, and no temporary sort. */
  function expectIndexed(plan: string, table: string, index: string): void {
    expect(plan).toMatch(new RegExp(`SEARCH ${table} USING (COVERING )?INDEX ${index} \\(`));
    expect(plan).not.toMatch(/TEMP B-TREE/);
    expect(plan).not.toMatch(new RegExp(`SCAN ${table}\\b`));
  }

  const cursor2 = (a: string, b: string) => encodeCursor([a, b]);

  it('members: by e-mail, and of one role, on the copied e-mail', async () => {
    const people = new PeopleAdmin(store.db as never);
    for (const options of [{ limit: 50 }, { limit: 50, cursor: encodeCursor(['m@x.test']) }]) {
      const [page] = await plans('memberships', () => people.membersPage('s1', options));
      expectIndexed(page!, 'memberships', 'memberships_site_email');
    }
    const [byRole] = await plans('memberships', () =>
      people.membersPage('s1', { limit: 50, role: 'owner', cursor: encodeCursor(['m@x.test']) }),
    );
    expectIndexed(byRole!, 'memberships', 'memberships_site_role_email');
  });

  it('students: by e-mail then course, of one course, of one status', async () => {
    const people = new PeopleAdmin(store.db as never);
    const [all] = await plans('enrollments', () =>
      people.studentsPage('s1', { limit: 50, cursor: cursor2('m@x.test', 'sql') }),
    );
    expectIndexed(all!, 'enrollments', 'enrollments_site_email');
    const [expired] = await plans('enrollments', () => people.studentsPage('s1', { limit: 50, status: 'expired' }));
    expectIndexed(expired!, 'enrollments', 'enrollments_site_email');
    const [course] = await plans('enrollments', () =>
      people.studentsPage('s1', { limit: 50, courseSlug: 'sql', cursor: cursor2('m@x.test', 'sql') }),
    );
    expectIndexed(course!, 'enrollments', 'enrollments_site_course_email');
  });

  it('orders: newest first, and of one status', async () => {
    const commerce = new CommerceAdmin(store.db as never);
    const [all] = await plans('orders', () =>
      commerce.ordersPage('s1', { limit: 50, cursor: cursor2('2026-01-01T00:00:00.000Z', 'ord_1') }),
    );
    expectIndexed(all!, 'orders', 'orders_site_created');
    const [paid] = await plans('orders', () =>
      commerce.ordersPage('s1', { limit: 50, status: 'paid', cursor: cursor2('2026-01-01T00:00:00.000Z', 'ord_1') }),
    );
    expectIndexed(paid!, 'orders', 'orders_site_status_created');
  });

  it('audit trail: newest first, of one client, of one user; the purge by time', async () => {
    const audit = new AuditTrail(store.db, 30);
    const after = { at: '2026-01-01T00:00:00.000Z', id: 'e1' };
    const [all] = await plans('audit_events', () => audit.list('s1', { after }));
    expectIndexed(all!, 'audit_events', 'audit_events_site_at_id');
    const [client] = await plans('audit_events', () => audit.list('s1', { clientId: 'rare-client', after }));
    expectIndexed(client!, 'audit_events', 'audit_events_site_client_at');
    expect(client).toMatch(/\(site_id=\? AND client_id=\? AND \(at,id\)<\(\?,\?\)\)/);
    // …merged with the operator actions on the client, read from their own index in list order.
    expectIndexed(client!, 'audit_events', 'audit_events_site_target_at');
    expect(client).toMatch(/\(site_id=\? AND target=\? AND \(at,id\)<\(\?,\?\)\)/);
    const [user] = await plans('audit_events', () => audit.list('s1', { userId: 'usr_1' }));
    expectIndexed(user!, 'audit_events', 'audit_events_site_user_at');
    const [purge] = await plans('audit_events', () => audit.purge());
    expect(purge).toMatch(/SEARCH audit_events USING COVERING INDEX audit_events_at \(at<\?\)/);
    expect(purge).not.toMatch(/SCAN audit_events\b|TEMP B-TREE/);
  });

  it('connected grants: newest first, of one client', async () => {
    const grants = new ConnectedGrants(store.db);
    const [all] = await plans('connected_grants', () =>
      grants.pageOfSite('s1', { limit: 50, cursor: cursor2('2026-01-01T00:00:00.000Z', 'g1') }),
    );
    expectIndexed(all!, 'connected_grants', 'connected_grants_site_created');
    const [client] = await plans('connected_grants', () => grants.pageOfSite('s1', { limit: 50, clientId: 'c1' }));
    expectIndexed(client!, 'connected_grants', 'connected_grants_site_client');
  });

  it('connected grants counted per client (the maintained tallies) and of one client in SQL on the site-client index (the /admin pages)', async () => {
    const grants = new ConnectedGrants(store.db);
    const [byClient] = await plans('site_tallies', () => grants.countsByClient('s1'));
    expect(byClient).toMatch(
      /SEARCH site_tallies USING INDEX sqlite_autoindex_site_tallies_1 \(site_id=\? AND metric=\?\)/,
    );
    expect(byClient).not.toMatch(/TEMP B-TREE|SCAN site_tallies\b/);
    const [ofClient] = await plans('connected_grants', () => grants.countOfClient('s1', 'c1'));
    expect(ofClient).toMatch(
      /SEARCH connected_grants USING COVERING INDEX connected_grants_site_client_user \(site_id=\? AND client_id=\?\)/,
    );
    expect(ofClient).not.toMatch(/SCAN connected_grants\b|TEMP B-TREE/);
  });

  it('invitations: newest first then id on invitations_site_created, each status on its partial index', async () => {
    const invitations = new Invitations(store.db);
    for (const options of [{ limit: 50 }, { limit: 50, cursor: cursor2('2026-01-01T00:00:00.000Z', 'inv_1') }]) {
      const [page] = await plans('invitations', () => invitations.page('s1', options));
      expectIndexed(page!, 'invitations', 'invitations_site_created');
    }
    const partial = {
      accepted: 'invitations_site_accepted',
      revoked: 'invitations_site_revoked',
      pending: 'invitations_site_open',
      expired: 'invitations_site_open',
    } as const;
    for (const [status, index] of Object.entries(partial)) {
      const [page] = await plans('invitations', () =>
        invitations.page('s1', {
          limit: 50,
          status: status as keyof typeof partial,
          cursor: cursor2('2026-01-01T00:00:00.000Z', 'inv_1'),
        }),
      );
      expectIndexed(page!, 'invitations', index);
    }
  });

  it('the other /api/v1 lists: each page one range of an index holding its sort key, no temporary sort', async () => {
    const lecturers = new Lecturers(store.db);
    const memberships = new Memberships(store.db);
    const products = new DigitalProducts(store.db);
    const events = new EventAdmin(store.db as never);
    const commerce = new CommerceAdmin(store.db as never);
    const content = new SiteContent(store.db);
    const courses = new CourseAdmin(store.db as never);
    const forms = new Forms(store.db);
    // A site with a course, a form and an event (the lecturers' course filter, the submissions and
    // the single reads look them up).
    store.sqlite.exec(`INSERT OR IGNORE INTO sites (id, name, mcp_connections_enabled, created_at) VALUES ('s1', 'S1', 1, 'x');
      INSERT OR IGNORE INTO courses (id, site_id, slug, title, description, is_public, created_at) VALUES ('crs_p', 's1', 'sql', 'SQL', '', 1, 'x');
      INSERT OR IGNORE INTO forms (id, site_id, title, description, fields, created_at) VALUES ('frm_p', 's1', 'Contact', '', '[]', 'x');
      INSERT OR IGNORE INTO events (id, site_id, title, starts_at, ends_at, location) VALUES ('evt_p', 's1', 'Talk', 'x', 'y', 'Online');`);
    const t = '2026-01-01T00:00:00.000Z';
    const cases: Array<[string, string, () => Promise<unknown>]> = [
      ['lecturers', 'lecturers_site_name', () => lecturers.page('s1', { limit: 50, cursor: cursor2('Ada', 'l1') })],
      ['lecturers', 'lecturers_site_name', () => lecturers.page('s1', { limit: 50, courseSlug: 'sql' })],
      [
        'membership_plans',
        'membership_plans_site_created',
        () => memberships.plansPage('s1', { limit: 50, cursor: cursor2(t, 'p') }),
      ],
      [
        'membership_plans',
        'membership_plans_site_status',
        () => memberships.plansPage('s1', { limit: 50, status: 'active', cursor: cursor2(t, 'p') }),
      ],
      [
        'subscriptions',
        'subscriptions_site_created',
        () => memberships.subscriptionsPage('s1', { limit: 50, cursor: cursor2(t, 's') }),
      ],
      [
        'subscriptions',
        'subscriptions_site_plan',
        () => memberships.subscriptionsPage('s1', { limit: 50, planId: 'p' }),
      ],
      [
        'subscriptions',
        'subscriptions_site_status',
        () => memberships.subscriptionsPage('s1', { limit: 50, status: 'past_due' }),
      ],
      [
        'subscriptions',
        'subscriptions_site_plan_status',
        () =>
          memberships.subscriptionsPage('s1', { limit: 50, planId: 'p', status: 'active', cursor: cursor2(t, 's') }),
      ],
      [
        'digital_products',
        'digital_products_site_created',
        () => products.page('s1', { limit: 50, cursor: cursor2(t, 'd') }),
      ],
      [
        'digital_products',
        'digital_products_site_published',
        () => products.page('s1', { limit: 50, published: false }),
      ],
      ['events', 'events_site_starts', () => events.page('s1', { limit: 50, cursor: cursor2(t, 'e') })],
      ['events', 'events_site_starts', () => events.page('s1', { limit: 50, upcomingOnly: true })],
      [
        'coupons',
        'sqlite_autoindex_coupons_\\d(?= \\(site_id=\\? AND code>\\?\\))',
        () => commerce.couponsPage('s1', { limit: 50, cursor: encodeCursor(['A10']) }),
      ],
      ['coupons', 'coupons_site_active', () => commerce.couponsPage('s1', { limit: 50, active: true })],
      [
        'site_content',
        'sqlite_autoindex_site_content_\\d(?= \\(site_id=\\? AND kind=\\? AND slug>\\?\\))',
        () => content.page('s1', 'page', { limit: 50, cursor: encodeCursor(['about']) }),
      ],
      ['site_content', 'site_content_status_slug', () => content.page('s1', 'page', { limit: 50, status: 'draft' })],
      [
        'site_content',
        'site_content_created',
        () => content.page('s1', 'post', { limit: 50, cursor: cursor2(t, 'news') }),
      ],
      [
        'site_content',
        'site_content_status_created',
        () => content.page('s1', 'post', { limit: 50, status: 'published', cursor: cursor2(t, 'news') }),
      ],
      ['courses', 'courses_site_title', () => courses.page('s1', { limit: 50, cursor: cursor2('SQL', 'sql') })],
      ['courses', 'courses_site_public_title', () => courses.page('s1', { limit: 50, isPublic: false })],
      ['forms', 'forms_site_title', () => forms.page('s1', { limit: 50, cursor: cursor2('Contact', 'frm_p') })],
      [
        'form_submissions',
        'form_submissions_form_submitted',
        () => forms.submissionsPage('s1', 'frm_p', { limit: 50, since: t, cursor: cursor2(t, 'sub') }),
      ],
    ];
    for (const [table, index, call] of cases) {
      const [page] = await plans(table, call);
      expectIndexed(page!, table, index);
    }
    // The counts beside a page and in one item's read (issue #29, "cost at volume"): an event's
    // registrations, a course's lectures and enrollments, a form's submissions are the item's
    // maintained tallies (migration 0029), one primary-key lookup per row; no child table is read.
    const tally =
      /SEARCH site_tallies USING INDEX sqlite_autoindex_site_tallies_1 \(site_id=\? AND metric=\? AND key=\?\)/;
    const children = /\b(enrollments|lectures|event_registrations|form_submissions)\b/;
    const counted: Array<[string, () => Promise<unknown>, number]> = [
      ['events', () => events.page('s1', { limit: 50 }), 1],
      ['events', () => events.get('s1', 'evt_p'), 1],
      ['courses', () => courses.page('s1', { limit: 50 }), 2],
      ['courses', () => courses.get('s1', 'sql'), 2],
      ['forms', () => forms.page('s1', { limit: 50 }), 1],
      ['site_tallies', () => forms.get('s1', 'frm_p'), 1],
      ['site_tallies', () => forms.list('s1'), 1],
    ];
    for (const [table, call, lookups] of counted) {
      const [plan] = await plans(table, call);
      expect(plan!.match(new RegExp(tally.source, 'g'))).toHaveLength(lookups);
      expect(plan).not.toMatch(children);
      expect(plan).not.toMatch(/TEMP B-TREE|SCAN site_tallies\b/);
    }
  });

  it('comments: newest first', async () => {
    const comments = new Comments(store.db);
    const [page] = await plans('comments', () =>
      comments.page('s1', { limit: 50, cursor: cursor2('2026-01-01T00:00:00.000Z', 'c1') }),
    );
    expectIndexed(page!, 'comments', 'comments_site_created_id');
  });

  it('analytics: the maintained tallies by primary key, the two time-bound counts on an index of the site', async () => {
    const analytics = new AnalyticsAdmin(store.db as never);
    sent.length = 0;
    await analytics.summary('s1');
    const statements = sent.filter((q) => /^select/i.test(q.sql));
    // site_tallies (migration 0026), enrollments expiring after now, learners of the last 30 days.
    expect(statements).toHaveLength(3);
    // Only the overview's metrics: not the per-item rows of migration 0029 (one per course, event, form).
    expect(statements.find((q) => /"site_tallies"/.test(q.sql))!.sql).toMatch(/"metric" in \(/);
    for (const q of statements) {
      // No statement hands the site's rows to JavaScript: the tallies, or an aggregate.
      expect(q.sql).toMatch(/"site_tallies"|count\(/);
      const plan = (
        store.sqlite.prepare(`EXPLAIN QUERY PLAN ${stablePlan(q.sql)}`).all(...(q.parameters as unknown[])) as Array<{
          detail: string;
        }>
      )
        .map((r) => r.detail)
        .join('; ');
      expect(plan).toMatch(/SEARCH \w+ USING (COVERING )?(INDEX|PRIMARY KEY)/);
      expect(plan).not.toMatch(/SCAN \w+(?! USING)/);
    }
  });
});
