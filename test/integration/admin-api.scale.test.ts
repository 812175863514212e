/**
 * Issue #29 (lists silently stopped at 10,000 rows): with 10,005 orders, enrollments, members and
 * audit events of one client in one site, every operator list walks to its last row through
 * `nextCursor` over the real admin API (real HTTP, a real operator token): each row exactly once,
 * in list order, with no cap. docs/admin-api.md "Pagination".
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';
import { MAX_ADMIN_PAGE_SIZE, MAX_PAGE_SIZE } from '../../src/platform/paging.js';

const N = 10_005;

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  const clientId = await registerLoopbackClient(server.baseUrl, 'scale walker');
  token = await memberToken({
    baseUrl: server.baseUrl,
    email: 'owner@demo.test',
    clientId,
    scope: 'openid students:read orders:read members:read school:read',
    site: 'demo',
  });

  const sqlite = server.store.sqlite!;
  const course = sqlite.prepare(`SELECT id FROM courses WHERE site_id = 'demo' AND slug = 'sql-basics'`).get() as {
    id: string;
  };
  const n = (i: number) => String(i).padStart(5, '0');
  const user = sqlite.prepare(
    `INSERT INTO users (id, email, name, password_hash, created_at) VALUES (?, ?, ?, 'x', '2026-01-01T00:00:00.000Z')`,
  );
  // No e-mail or course slug given: the insert triggers of migration 0029 copy them.
  const membership = sqlite.prepare(`INSERT INTO memberships (site_id, user_id, role) VALUES ('demo', ?, 'student')`);
  const enrollment = sqlite.prepare(
    `INSERT INTO enrollments (id, site_id, user_id, course_id, expires_at, lifetime_access, created_at) VALUES (?, 'demo', ?, ?, NULL, 1, '2026-01-01T00:00:00.000Z')`,
  );
  const order = sqlite.prepare(
    `INSERT INTO orders (id, site_id, user_id, number, status, total_minor, currency, created_at) VALUES (?, 'demo', ?, ?, 'paid', 100, 'EUR', ?)`,
  );
  const event = sqlite.prepare(
    `INSERT INTO audit_events (id, site_id, at, kind, client_id, user_id, detail) VALUES (?, 'demo', ?, 'refresh', 'scale-rare-client', ?, '')`,
  );
  const base = Date.parse('2026-02-01T00:00:00.000Z');
  const recent = Date.now() - 86_400_000;
  sqlite.transaction(() => {
    for (let i = 0; i < N; i++) {
      const id = `usr_sc_${n(i)}`;
      user.run(id, `sc-${n(i)}@demo.test`, `Scale ${i}`);
      membership.run(id);
      enrollment.run(`enr_sc_${n(i)}`, id, course.id);
      // Pairs of orders share a creation time: the list's tie-break on id is walked too.
      order.run(`ord_sc_${n(i)}`, id, `SC-${n(i)}`, new Date(base + Math.floor(i / 2) * 1000).toISOString());
      // Within the retention (the purge runs a few seconds after start).
      event.run(`evt_sc_${n(i)}`, new Date(recent + Math.floor(i / 2) * 1000).toISOString(), id);
    }
  })();
}, 120_000);
afterAll(() => server.close());

/** Walks a list through `nextCursor` with `limit`; returns every row and the number of pages. */
async function walk<T>(path: string, field: string, limit: number): Promise<{ rows: T[]; pages: number }> {
  const rows: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const url = new URL(`${server.baseUrl}${path}`);
    url.searchParams.set('limit', String(limit));
    if (cursor) url.searchParams.set('cursor', cursor);
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown> & { nextCursor: string | null };
    rows.push(...(body[field] as T[]));
    cursor = body.nextCursor;
    pages += 1;
  } while (cursor !== null && pages < 1000);
  return { rows, pages };
}

/** `keys` strictly increasing (in `compare` order): every row once, in list order. */
function expectStrictOrder(
  keys: string[],
  compare: (a: string, b: string) => number = (a, b) => (a < b ? -1 : a > b ? 1 : 0),
): void {
  for (let i = 1; i < keys.length; i++)
    if (!(compare(keys[i - 1]!, keys[i]!) < 0))
      throw new Error(`row ${i} out of order: ${keys[i - 1]} then ${keys[i]}`);
}

test(`GET /api/v1/orders walks all ${N} orders of the site, newest first, past 10,000`, async () => {
  const { rows, pages } = await walk<{ number: string; createdAt: string }>(
    '/api/v1/orders',
    'orders',
    MAX_ADMIN_PAGE_SIZE,
  );
  const ours = rows.filter((o) => o.number.startsWith('SC-'));
  expect(ours).toHaveLength(N);
  expect(new Set(rows.map((o) => o.number)).size).toBe(rows.length);
  // Newest first; a tie on createdAt is broken by id (descending), here the same order as the number.
  expectStrictOrder(
    ours.map((o) => `${o.createdAt} ${o.number}`),
    (a, b) => (a > b ? -1 : a < b ? 1 : 0),
  );
  expect(pages).toBe(Math.ceil(rows.length / MAX_ADMIN_PAGE_SIZE));
}, 120_000);

test(`GET /api/v1/students walks all ${N} enrollments, by e-mail then course, past 10,000`, async () => {
  const { rows } = await walk<{ email: string; courseSlug: string }>(
    '/api/v1/students',
    'students',
    MAX_ADMIN_PAGE_SIZE,
  );
  expect(rows.filter((s) => s.email.startsWith('sc-'))).toHaveLength(N);
  expectStrictOrder(rows.map((s) => `${s.email}\u0000${s.courseSlug}`));
  const course = await walk<{ email: string; courseSlug: string }>(
    '/api/v1/students?courseSlug=sql-basics&status=active',
    'students',
    137,
  );
  expect(course.rows.filter((s) => s.email.startsWith('sc-'))).toHaveLength(N);
  expectStrictOrder(course.rows.map((s) => s.email));
}, 120_000);

test(`GET /api/v1/members walks all ${N} members, by e-mail, each with their roles`, async () => {
  const { rows } = await walk<{ email: string; roles: string[] }>('/api/v1/members', 'members', MAX_ADMIN_PAGE_SIZE);
  expect(rows.filter((m) => m.email.startsWith('sc-'))).toHaveLength(N);
  expectStrictOrder(rows.map((m) => m.email));
  expect(rows.find((m) => m.email === 'owner@demo.test')?.roles).toContain('owner');
  const students = await walk<{ email: string; roles: string[] }>(
    '/api/v1/members?role=student',
    'members',
    MAX_ADMIN_PAGE_SIZE,
  );
  expect(students.rows.filter((m) => m.email.startsWith('sc-'))).toHaveLength(N);
  expect(students.rows.every((m) => m.roles.includes('student'))).toBe(true);
}, 120_000);

test(`GET /api/v1/audit-events?clientId walks all ${N} events of a client`, async () => {
  const { rows } = await walk<{ id: string; at: string }>(
    '/api/v1/audit-events?clientId=scale-rare-client',
    'events',
    MAX_PAGE_SIZE,
  );
  expect(rows).toHaveLength(N);
  expect(new Set(rows.map((e) => e.id)).size).toBe(N);
  expectStrictOrder(
    rows.map((e) => `${e.at} ${e.id}`),
    (a, b) => (a > b ? -1 : a < b ? 1 : 0),
  );
}, 120_000);

test('a cursor that is not one of the list answers 400, never 500', async () => {
  const res = await fetch(`${server.baseUrl}/api/v1/orders?cursor=${Buffer.from('["x"]').toString('base64url')}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(400);
});
