/**
 * docs/admin-api.md "Pagination" / issue #9 (one page-size rule): an operator list pages through
 * every row of the site, also past the largest page (MAX_ADMIN_PAGE_SIZE = 200), and enrolling
 * someone answers their enrollment however many students the course has. Real HTTP, real tokens.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';
import { MAX_ADMIN_PAGE_SIZE } from '../../src/platform/paging.js';

const EXTRA = MAX_ADMIN_PAGE_SIZE + 30;

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  const base = server.baseUrl;
  const clientId = await registerLoopbackClient(base, 'paging walker');
  token = await memberToken({
    baseUrl: base,
    email: 'owner@demo.test',
    clientId,
    scope: 'openid students:read students:write orders:read',
    site: 'demo',
  });

  const db = server.store.db;
  const course = await db
    .selectFrom('courses')
    .select('id')
    .where('site_id', '=', 'demo')
    .where('slug', '=', 'sql-basics')
    .executeTakeFirstOrThrow();
  const at = '2026-01-01T00:00:00.000Z';
  const n = (i: number) => String(i).padStart(4, '0');
  const users = Array.from({ length: EXTRA + 1 }, (_, i) => ({
    id: `usr_pg_${n(i)}`,
    email: `pg-${n(i)}@demo.test`,
    name: `PG ${i}`,
    password_hash: 'x',
    created_at: at,
  }));
  await db.insertInto('users').values(users).execute();
  await db
    .insertInto('memberships')
    .values(users.map((u) => ({ site_id: 'demo', user_id: u.id, role: 'student' })))
    .execute();
  // Every user but the last (the one enrolled over HTTP below) is enrolled in sql-basics and has an order.
  const enrolled = users.slice(0, EXTRA);
  await db
    .insertInto('enrollments')
    .values(
      enrolled.map((u) => ({
        id: `enr_pg_${u.id}`,
        site_id: 'demo',
        user_id: u.id,
        course_id: course.id,
        expires_at: null,
        lifetime_access: 1,
        created_at: at,
      })),
    )
    .execute();
  await db
    .insertInto('orders')
    .values(
      enrolled.map((u, i) => ({
        id: `ord_pg_${n(i)}`,
        site_id: 'demo',
        user_id: u.id,
        number: `PG-${n(i)}`,
        status: 'paid',
        total_minor: 100,
        currency: 'EUR',
        created_at: `2026-01-02T00:00:00.${n(i).slice(1)}Z`,
      })),
    )
    .execute();
});
afterAll(() => server.close());

/** Walks a list through `nextCursor` with the largest page; returns every row. */
async function walk<T>(path: string, field: string): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 10; pages++) {
    const url = new URL(`${server.baseUrl}${path}`);
    url.searchParams.set('limit', String(MAX_ADMIN_PAGE_SIZE));
    if (cursor) url.searchParams.set('cursor', cursor);
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown> & { nextCursor: string | null };
    rows.push(...(body[field] as T[]));
    cursor = body.nextCursor;
    if (!cursor) return rows;
  }
  throw new Error('more pages than expected');
}

test(`GET /api/v1/students pages past ${MAX_ADMIN_PAGE_SIZE} rows to the last student`, async () => {
  const students = await walk<{ email: string; courseSlug: string }>(
    '/api/v1/students?courseSlug=sql-basics',
    'students',
  );
  const ours = students.filter((s) => s.email.startsWith('pg-'));
  expect(ours).toHaveLength(EXTRA);
  expect(new Set(students.map((s) => `${s.email} ${s.courseSlug}`)).size).toBe(students.length);
});

test(`GET /api/v1/orders pages past ${MAX_ADMIN_PAGE_SIZE} rows to the oldest order`, async () => {
  const orders = await walk<{ number: string }>('/api/v1/orders', 'orders');
  expect(orders.filter((o) => o.number.startsWith('PG-'))).toHaveLength(EXTRA);
});

test('enrolling a student whose e-mail sorts after the first 200 of the course answers the enrollment', async () => {
  const email = `pg-${String(EXTRA).padStart(4, '0')}@demo.test`;
  const res = await fetch(`${server.baseUrl}/api/v1/courses/sql-basics/students/${encodeURIComponent(email)}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ lifetimeAccess: true }),
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({
    email,
    courseSlug: 'sql-basics',
    hasLifetimeAccess: true,
    status: 'active',
  });
});
