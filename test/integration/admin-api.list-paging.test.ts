/**
 * Issue #29, "Keyset pagination in SQL for every list (no in-memory paging, no row cap: every row
 * reachable by cursor)": the `/api/v1` lists that used to load a site's rows and page them in
 * memory — invitations, lecturers, membership plans, subscriptions, digital products, events,
 * coupons, pages, posts, courses, forms and a form's submissions — each walked through
 * `nextCursor` over real HTTP with a real operator token, on more rows than two pages (with ties
 * on the first sort column, so the tie-break is walked too): every row exactly once, in the list's
 * documented order, and each filter's walk is exactly the unfiltered walk with the filter applied.
 * A cursor that is not one of the list's (an old in-memory cursor, another list's) is a 400
 * problem naming `cursor`. docs/admin-api.md "Pagination".
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';
import { OPERATOR_SCOPES } from '../../src/domain/scopes.js';

/** Rows of each list inserted here; walked `LIMIT` at a time (more than two pages each). */
const N = 24;
const LIMIT = 7;
const DAY = 86_400_000;

let server: TestServer;
let token: string;
/** The instant the rows are placed around (past events ended, future ones not). */
const now = Date.now();
const iso = (t: number) => new Date(t).toISOString();
const pad = (i: number) => String(i).padStart(3, '0');

beforeAll(async () => {
  server = await startTestServer();
  const clientId = await registerLoopbackClient(server.baseUrl, 'list paging walker');
  token = await memberToken({
    baseUrl: server.baseUrl,
    email: 'owner@demo.test',
    clientId,
    scope: `openid ${[...OPERATOR_SCOPES].join(' ')}`,
    site: 'demo',
  });

  const sqlite = server.store.sqlite!;
  const course = sqlite.prepare(`SELECT id FROM courses WHERE site_id = 'demo' AND slug = 'sql-basics'`).get() as {
    id: string;
  };
  // Pairs of rows share their first sort key (`tie(i)`), so each list's tie-break is walked.
  const tie = (i: number) => Math.floor(i / 2);
  const run = (sql: string, rows: unknown[][]) => {
    const statement = sqlite.prepare(sql);
    for (const row of rows) statement.run(...row);
  };
  const each = <T>(make: (i: number) => T) => Array.from({ length: N }, (_, i) => make(i));
  sqlite.transaction(() => {
    run(
      `INSERT INTO users (id, email, name, password_hash, created_at) VALUES (?, ?, ?, 'x', '2026-01-01T00:00:00.000Z')`,
      each((i) => [`usr_lp_${pad(i)}`, `lp-${pad(i)}@demo.test`, `LP ${i}`]),
    );
    run(
      `INSERT INTO memberships (site_id, user_id, role) VALUES ('demo', ?, 'student')`,
      each((i) => [`usr_lp_${pad(i)}`]),
    );
    // Invitations of every status: accepted, withdrawn, pending (expires later), expired.
    run(
      `INSERT INTO invitations (id, site_id, email, role, token_hash, invited_by, created_at, expires_at, accepted_at, accepted_by, revoked_at)
       VALUES (?, 'demo', ?, 'student', ?, 'x', ?, ?, ?, NULL, ?)`,
      each((i) => [
        `inv_lp_${pad(N - i)}`,
        `invited-${pad(i)}@demo.test`,
        `hash_lp_${i}`,
        iso(now - tie(i) * 60_000),
        iso(now + (i % 4 === 3 ? -DAY : DAY)),
        i % 4 === 0 ? iso(now) : null,
        i % 4 === 1 ? iso(now) : null,
      ]),
    );
    run(
      `INSERT INTO lecturers (id, site_id, name, bio, photo_url, user_id, created_at, updated_at)
       VALUES (?, 'demo', ?, '', NULL, NULL, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
      each((i) => [`lct_lp_${pad(N - i)}`, `LP lecturer ${pad(tie(i))}`]),
    );
    run(
      `INSERT INTO lecturer_courses (lecturer_id, course_id) VALUES (?, ?)`,
      each((i) => [`lct_lp_${pad(N - i)}`, course.id]).filter((_, i) => i % 3 === 0),
    );
    run(
      `INSERT INTO membership_plans (id, site_id, name, price_minor, currency, billing_interval, course_slugs, status, created_at, updated_at)
       VALUES (?, 'demo', ?, 1000, 'EUR', 'month', '[]', ?, ?, ?)`,
      each((i) => {
        const at = iso(now - (N - tie(i)) * 60_000);
        return [`pln_lp_${pad(N - i)}`, `LP plan ${i}`, i % 3 === 0 ? 'archived' : 'active', at, at];
      }),
    );
    run(
      `INSERT INTO subscriptions (id, site_id, plan_id, user_id, status, current_period_start, current_period_end, cancelled_at, created_at)
       VALUES (?, 'demo', ?, ?, ?, ?, ?, NULL, ?)`,
      each((i) => [
        `sub_lp_${pad(N - i)}`,
        `pln_lp_${pad(N - (i % 2))}`,
        `usr_lp_${pad(i)}`,
        ['active', 'past_due', 'cancelled'][i % 3],
        iso(now),
        iso(now + 30 * DAY),
        iso(now - tie(i) * 60_000),
      ]),
    );
    run(
      `INSERT INTO digital_products (id, site_id, name, price_minor, currency, file, published, created_at, updated_at)
       VALUES (?, 'demo', ?, 500, 'EUR', 'https://cdn.example.com/x.pdf', ?, ?, ?)`,
      each((i) => {
        const at = iso(now - (N - tie(i)) * 60_000);
        return [`dp_lp_${pad(N - i)}`, `LP product ${i}`, i % 2, at, at];
      }),
    );
    // Events around now: the first half ended yesterday or before, the rest are ahead.
    run(
      `INSERT INTO events (id, site_id, title, starts_at, ends_at, location) VALUES (?, 'demo', ?, ?, ?, 'Online')`,
      each((i) => {
        const start = now + (tie(i) - N / 4) * DAY;
        return [`evt_lp_${pad(N - i)}`, `LP event ${i}`, iso(start), iso(start + 3_600_000)];
      }),
    );
    run(
      `INSERT INTO event_registrations (id, site_id, user_id, event_id, status, created_at) VALUES (?, 'demo', ?, 'evt_lp_001', ?, '2026-01-01T00:00:00.000Z')`,
      [
        ['reg_lp_1', 'usr_lp_000', 'registered'],
        ['reg_lp_2', 'usr_lp_001', 'waitlisted'],
        ['reg_lp_3', 'usr_lp_002', 'cancelled'],
      ],
    );
    run(
      `INSERT INTO coupons (id, site_id, code, percent_off, max_redemptions, redemptions, expires_at, active, created_at)
       VALUES (?, 'demo', ?, 10, NULL, 0, NULL, ?, '2026-01-01T00:00:00.000Z')`,
      each((i) => [`cpn_lp_${i}`, `LP${pad((i * 7) % N)}`, i % 3 === 0 ? 0 : 1]),
    );
    run(
      `INSERT INTO site_content (id, site_id, kind, slug, title, body, status, published_at, created_at, updated_at)
       VALUES (?, 'demo', ?, ?, ?, '', ?, NULL, ?, ?)`,
      ['page', 'post'].flatMap((kind) =>
        each((i) => {
          const at = iso(now - tie(i) * 60_000);
          return [
            `cnt_lp_${kind}_${i}`,
            kind,
            `lp-${kind}-${pad((i * 5) % N)}`,
            `LP ${kind} ${i}`,
            i % 3 === 0 ? 'draft' : 'published',
            at,
            at,
          ];
        }),
      ),
    );
    run(
      `INSERT INTO courses (id, site_id, slug, title, description, is_public, created_at) VALUES (?, 'demo', ?, ?, '', ?, '2026-01-01T00:00:00.000Z')`,
      each((i) => [`crs_lp_${i}`, `lp-course-${pad(N - i)}`, `LP course ${pad(tie(i))}`, i % 3 === 0 ? 0 : 1]),
    );
    run(
      `INSERT INTO forms (id, site_id, title, description, fields, created_at) VALUES (?, 'demo', ?, '', '[]', '2026-01-01T00:00:00.000Z')`,
      each((i) => [`frm_lp_${pad(N - i)}`, `LP form ${pad(tie(i))}`]),
    );
    run(
      `INSERT INTO form_submissions (id, form_id, data, submitted_at) VALUES (?, 'frm_lp_001', '{}', ?)`,
      each((i) => [`fsb_lp_${pad(N - i)}`, iso(now - tie(i) * 60_000)]),
    );
  })();
}, 60_000);
afterAll(() => server.close());

/** GET `path` with the operator token. */
async function get(path: string, cursor?: string | null): Promise<Response> {
  const url = new URL(`${server.baseUrl}${path}`);
  url.searchParams.set('limit', String(LIMIT));
  if (cursor) url.searchParams.set('cursor', cursor);
  return fetch(url, { headers: { authorization: `Bearer ${token}` } });
}

/**
 * Walks a list through `nextCursor`, LIMIT rows a page; returns every row, the cursors it was
 * given and the number of pages (each full but the last, and the last one says null).
 */
async function walk<T>(path: string, field: string): Promise<{ rows: T[]; cursors: string[] }> {
  const rows: T[] = [];
  const cursors: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await get(path, cursor);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown> & { nextCursor: string | null };
    const page = body[field] as T[];
    if (body.nextCursor !== null) {
      expect(page).toHaveLength(LIMIT);
      cursors.push(body.nextCursor);
    } else expect(page.length).toBeLessThanOrEqual(LIMIT);
    rows.push(...page);
    cursor = body.nextCursor;
  } while (cursor !== null && cursors.length < 200);
  return { rows, cursors };
}

type Row = Record<string, unknown>;
/** Ascending (1) or descending (-1) on one field. */
type Key = [field: string, direction: 1 | -1];

/** `rows` strictly in the order of `keys` (the last key unique): every row once, in list order. */
function expectListOrder(rows: Row[], keys: Key[]): void {
  const compare = (a: Row, b: Row): number => {
    for (const [field, direction] of keys) {
      const x = String(a[field]);
      const y = String(b[field]);
      if (x !== y) return (x < y ? -1 : 1) * direction;
    }
    return 0;
  };
  for (let i = 1; i < rows.length; i++)
    if (!(compare(rows[i - 1]!, rows[i]!) < 0))
      throw new Error(`row ${i} out of order: ${JSON.stringify(rows[i - 1])} then ${JSON.stringify(rows[i])}`);
}

/** One list: where it is, its field, its order, the rows of ours, its filters. */
interface List {
  path: string;
  field: string;
  order: Key[];
  /** The unique key of a row (the last of `order`). */
  id: (row: Row) => string;
  /** Is this one of the rows inserted above? */
  ours: (row: Row) => boolean;
  /** Query strings and what each keeps. */
  filters: Array<[query: string, keeps: (row: Row) => boolean]>;
}

const LISTS: List[] = [
  {
    path: '/api/v1/invitations',
    field: 'invitations',
    order: [
      ['createdAt', -1],
      ['id', 1],
    ],
    id: (r) => String(r.id),
    ours: (r) => String(r.id).startsWith('inv_lp_'),
    filters: (['pending', 'expired', 'accepted', 'revoked'] as const).map((s) => [
      `status=${s}`,
      (r) => r.status === s,
    ]),
  },
  {
    path: '/api/v1/lecturers',
    field: 'lecturers',
    order: [
      ['name', 1],
      ['id', 1],
    ],
    id: (r) => String(r.id),
    ours: (r) => String(r.id).startsWith('lct_lp_'),
    filters: [['courseSlug=sql-basics', (r) => (r.courses as string[]).includes('sql-basics')]],
  },
  {
    path: '/api/v1/membership-plans',
    field: 'plans',
    order: [
      ['createdAt', 1],
      ['id', 1],
    ],
    id: (r) => String(r.id),
    ours: (r) => String(r.id).startsWith('pln_lp_'),
    filters: [
      ['status=archived', (r) => r.status === 'archived'],
      ['status=active', (r) => r.status === 'active'],
    ],
  },
  {
    path: '/api/v1/subscriptions',
    field: 'subscriptions',
    order: [
      ['createdAt', -1],
      ['id', 1],
    ],
    id: (r) => String(r.id),
    ours: (r) => String(r.id).startsWith('sub_lp_'),
    filters: [
      ['planId=pln_lp_024', (r) => r.planId === 'pln_lp_024'],
      ['status=cancelled', (r) => r.status === 'cancelled'],
      ['planId=pln_lp_023&status=past_due', (r) => r.planId === 'pln_lp_023' && r.status === 'past_due'],
    ],
  },
  {
    path: '/api/v1/digital-products',
    field: 'products',
    order: [
      ['createdAt', 1],
      ['id', 1],
    ],
    id: (r) => String(r.id),
    ours: (r) => String(r.id).startsWith('dp_lp_'),
    filters: [
      ['published=false', (r) => r.published === false],
      ['published=true', (r) => r.published === true],
    ],
  },
  {
    path: '/api/v1/events',
    field: 'events',
    order: [
      ['startsAt', 1],
      ['id', 1],
    ],
    id: (r) => String(r.id),
    ours: (r) => String(r.id).startsWith('evt_lp_'),
    filters: [['upcomingOnly=true', (r) => Date.parse(String(r.endsAt)) >= Date.now()]],
  },
  {
    path: '/api/v1/coupons',
    field: 'coupons',
    order: [['code', 1]],
    id: (r) => String(r.code),
    ours: (r) => String(r.code).startsWith('LP'),
    filters: [
      ['active=true', (r) => r.active === true],
      ['active=false', (r) => r.active === false],
    ],
  },
  {
    path: '/api/v1/pages',
    field: 'pages',
    order: [['slug', 1]],
    id: (r) => String(r.slug),
    ours: (r) => String(r.slug).startsWith('lp-page-'),
    filters: [['status=draft', (r) => r.status === 'draft']],
  },
  {
    path: '/api/v1/posts',
    field: 'posts',
    order: [
      ['createdAt', -1],
      ['slug', 1],
    ],
    id: (r) => String(r.slug),
    ours: (r) => String(r.slug).startsWith('lp-post-'),
    filters: [['status=published', (r) => r.status === 'published']],
  },
  {
    path: '/api/v1/courses',
    field: 'courses',
    order: [
      ['title', 1],
      ['slug', 1],
    ],
    id: (r) => String(r.slug),
    ours: (r) => String(r.slug).startsWith('lp-course-'),
    filters: [
      ['isPublic=false', (r) => r.isPublic === false],
      ['isPublic=true', (r) => r.isPublic === true],
    ],
  },
  {
    path: '/api/v1/forms',
    field: 'forms',
    order: [
      ['title', 1],
      ['id', 1],
    ],
    id: (r) => String(r.id),
    ours: (r) => String(r.id).startsWith('frm_lp_'),
    filters: [],
  },
  {
    path: '/api/v1/forms/frm_lp_001/submissions',
    field: 'submissions',
    order: [
      ['submittedAt', -1],
      ['id', 1],
    ],
    id: (r) => String(r.id),
    ours: (r) => String(r.id).startsWith('fsb_lp_'),
    filters: [
      [`since=${encodeURIComponent(iso(now - 5 * 60_000))}`, (r) => String(r.submittedAt) >= iso(now - 5 * 60_000)],
    ],
  },
];

describe.each(LISTS)('GET $path (issue #29: keyset pagination in SQL)', (list) => {
  test(`walks every row once, in list order, ${LIMIT} a page; each filter walks its rows of that order`, async () => {
    const { rows, cursors } = await walk<Row>(list.path, list.field);
    expect(rows.filter(list.ours)).toHaveLength(N);
    expect(cursors.length).toBeGreaterThanOrEqual(2);
    expect(cursors.length).toBe(Math.ceil(rows.length / LIMIT) - 1);
    expectListOrder(rows, list.order);
    expect(new Set(rows.map(list.id)).size).toBe(rows.length);
    for (const [query, keeps] of list.filters) {
      const path = `${list.path}${list.path.includes('?') ? '&' : '?'}${query}`;
      const filtered = (await walk<Row>(path, list.field)).rows;
      expect(filtered.length).toBeGreaterThan(0);
      expect(filtered.map(list.id)).toEqual(rows.filter(keeps).map(list.id));
    }
  });

  test('a cursor not of this list (an old in-memory cursor, a cursor of another shape) is a 400 naming cursor', async () => {
    // The in-memory pages' cursors were base64url of a row's id or slug.
    const old = Buffer.from(list.order.length === 1 ? 'LP001' : 'inv_lp_001', 'utf8').toString('base64url');
    // A list keyed by one column gets a two-column cursor, and the other way round.
    const other = Buffer.from(
      JSON.stringify(list.order.length === 1 ? ['2026-01-01T00:00:00.000Z', 'x'] : ['x']),
      'utf8',
    ).toString('base64url');
    for (const cursor of [old, other]) {
      const res = await get(list.path, cursor);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const body = (await res.json()) as { error?: string; errors?: Array<{ pointer?: string }> };
      expect(body.error).toBe('invalid_request');
      expect(body.errors?.map((e) => e.pointer)).toContain('/cursor');
    }
  });
});

test('the counts beside a page: registrations not cancelled, and a course enrollments counted by its slug', async () => {
  const events = (await walk<Row>('/api/v1/events', 'events')).rows;
  expect(events.find((e) => e.id === 'evt_lp_001')).toMatchObject({ registrations: 2 });
  expect(events.find((e) => e.id === 'evt_lp_002')).toMatchObject({ registrations: 0 });
  const courses = (await walk<Row>('/api/v1/courses', 'courses')).rows;
  const sqlite = server.store.sqlite!;
  const enrolled = sqlite
    .prepare(
      `SELECT count(*) AS n FROM enrollments WHERE course_id = (SELECT id FROM courses WHERE site_id = 'demo' AND slug = 'sql-basics')`,
    )
    .get() as { n: number };
  expect(enrolled.n).toBeGreaterThan(0);
  expect(courses.find((c) => c.slug === 'sql-basics')).toMatchObject({ enrollmentCount: enrolled.n });
  const one = await fetch(`${server.baseUrl}/api/v1/courses/sql-basics`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(await one.json()).toMatchObject({ slug: 'sql-basics', enrollmentCount: enrolled.n });
});
