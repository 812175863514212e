/**
 * Unit rules behind the Account API: keyset pagination with ties (paging.ts, orders.ts,
 * events.ts), monotonic progress and expiry (progress.ts), display names (profiles.ts), the
 * DateTime scalar (scalars.ts) and the connection-rows budget (page-budget.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { readFileSync } from 'node:fs';
import { openEmbeddedStore, type EmbeddedStore } from '../../src/store/database.js';
import { Orders } from '../../src/platform/orders.js';
import { EventRegistrations } from '../../src/platform/events.js';
import { Progress } from '../../src/platform/progress.js';
import { normaliseDisplayName } from '../../src/platform/profiles.js';
import { PlatformError } from '../../src/platform/errors.js';
import { InvalidPageRequestError } from '../../src/platform/paging.js';
import { parseDateTime } from '../../src/resource/account-graphql/scalars.js';
import { pageBudgetRule } from '../../src/resource/account-graphql/page-budget.js';

let dir: string;
let store: EmbeddedStore;
const me = { siteId: 's1', userId: 'u1' };
const now = '2026-01-01T00:00:00.000Z';

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-unit-'));
  store = await openEmbeddedStore(dir);
  const db = store.db;
  await db
    .insertInto('sites')
    .values([
      { id: 's1', name: 'S1', mcp_connections_enabled: 0, created_at: now },
      { id: 's2', name: 'S2', mcp_connections_enabled: 0, created_at: now },
    ])
    .execute();
  await db
    .insertInto('users')
    .values([
      { id: 'u1', email: 'u1@x.test', name: 'U1', password_hash: 'x', created_at: now },
      { id: 'u2', email: 'u2@x.test', name: 'U2', password_hash: 'x', created_at: now },
    ])
    .execute();
  // Five orders of u1 at s1, three of them at the same instant (ties broken by id), one of u2, one at s2.
  const order = (id: string, site: string, user: string, created_at: string) => ({
    id,
    site_id: site,
    user_id: user,
    number: id,
    status: 'paid',
    total_minor: 100,
    currency: 'EUR',
    created_at,
  });
  await db
    .insertInto('orders')
    .values([
      order('o1', 's1', 'u1', '2026-01-01T00:00:00.000Z'),
      order('o2', 's1', 'u1', '2026-02-01T00:00:00.000Z'),
      order('o3', 's1', 'u1', '2026-02-01T00:00:00.000Z'),
      order('o4', 's1', 'u1', '2026-02-01T00:00:00.000Z'),
      order('o5', 's1', 'u1', '2026-03-01T00:00:00.000Z'),
      order('x1', 's1', 'u2', '2026-02-01T00:00:00.000Z'),
      order('x2', 's2', 'u1', '2026-02-01T00:00:00.000Z'),
    ])
    .execute();
  await db
    .insertInto('events')
    .values([
      {
        id: 'e1',
        site_id: 's1',
        title: 'E1',
        starts_at: '2026-05-01T00:00:00.000Z',
        ends_at: '2026-05-01T01:00:00.000Z',
        location: 'Online',
      },
    ])
    .execute();
  await db
    .insertInto('event_registrations')
    .values(
      ['r3', 'r1', 'r2'].map((id) => ({
        id,
        site_id: 's1',
        user_id: 'u1',
        event_id: 'e1',
        status: 'registered',
        created_at: now,
      })),
    )
    .execute();
  await db
    .insertInto('courses')
    .values([{ id: 'c1', site_id: 's1', slug: 'c1', title: 'C1', description: '', is_public: 1, created_at: now }])
    .execute();
  await db
    .insertInto('lectures')
    .values([{ id: 'l1', course_id: 'c1', title: 'L1', position: 1, duration_seconds: 100 }])
    .execute();
  await db
    .insertInto('enrollments')
    .values([
      {
        id: 'en1',
        site_id: 's1',
        user_id: 'u1',
        course_id: 'c1',
        expires_at: '2026-06-01T00:00:00.000Z',
        lifetime_access: 0,
        created_at: now,
      },
    ])
    .execute();
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function walkAll<T>(
  list: (after?: string) => Promise<{ items: Array<{ cursor: string; node: T }>; hasNextPage: boolean }>,
): Promise<T[]> {
  const out: T[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await list(after);
    out.push(...page.items.map((i) => i.node));
    if (!page.hasNextPage) return out;
    after = page.items.at(-1)!.cursor;
  }
}

describe('keyset pagination with ties', () => {
  test('orders: newest first, equal createdAt ordered by id desc, page size 1 loses and repeats nothing', async () => {
    const orders = new Orders(store.db);
    const all = await walkAll((after) => orders.list(me, { first: 1, after }));
    expect(all.map((o) => o.id)).toEqual(['o5', 'o4', 'o3', 'o2', 'o1']);
  });

  test('event registrations at the same start: by registration id', async () => {
    const regs = new EventRegistrations(store.db);
    const all = await walkAll((after) => regs.list(me, { first: 2, after }));
    expect(all.map((r) => r.id)).toEqual(['r1', 'r2', 'r3']);
  });

  test('page size and key are checked', async () => {
    const orders = new Orders(store.db);
    await expect(orders.list(me, { first: 101 })).rejects.toBeInstanceOf(InvalidPageRequestError);
    await expect(orders.list(me, { first: 1, after: '["only one"]' })).rejects.toBeInstanceOf(InvalidPageRequestError);
    await expect(orders.list(me, { first: 1, after: 'garbage' })).rejects.toBeInstanceOf(InvalidPageRequestError);
  });
});

describe('progress', () => {
  const at = (iso: string) => new Progress(store.db, () => new Date(iso));

  test('monotonic: newer applies, older and equal do not', async () => {
    const p = at('2026-01-02T00:00:00.000Z');
    expect(
      (await p.record(me, { lectureId: 'l1', positionSeconds: 50, recordedAt: '2026-01-01T10:00:00.000Z' })).applied,
    ).toBe(true);
    const older = await p.record(me, { lectureId: 'l1', positionSeconds: 10, recordedAt: '2026-01-01T09:00:00.000Z' });
    expect(older).toMatchObject({ applied: false, lecture: { positionSeconds: 50 } });
    expect(
      (await p.record(me, { lectureId: 'l1', positionSeconds: 20, recordedAt: '2026-01-01T10:00:00.000Z' })).applied,
    ).toBe(false);
    const newer = await p.record(me, { lectureId: 'l1', positionSeconds: 95, recordedAt: '2026-01-01T11:00:00.000Z' });
    expect(newer).toMatchObject({ applied: true, lecture: { positionSeconds: 95, completed: true } });
    expect(await p.ofCourses(me, ['c1'])).toEqual(
      new Map([['c1', { completedLectures: 1, totalLectures: 1, fraction: 1 }]]),
    );
  });

  test('another member or another site cannot write to the course', async () => {
    const p = at('2026-01-02T00:00:00.000Z');
    for (const member of [
      { siteId: 's1', userId: 'u2' },
      { siteId: 's2', userId: 'u1' },
    ]) {
      await expect(
        p.record(member, { lectureId: 'l1', positionSeconds: 1, recordedAt: '2026-01-01T12:00:00.000Z' }),
      ).rejects.toMatchObject({ code: 'not_found' });
    }
  });

  test('one millisecond before the expiry instant the write is still accepted (accessActive)', async () => {
    const p = at('2026-05-31T23:59:59.999Z');
    await expect(
      p.record(me, { lectureId: 'l1', positionSeconds: 1, recordedAt: '2026-05-31T12:00:00.000Z' }),
    ).resolves.toMatchObject({ lecture: { lectureId: 'l1' } });
  });

  test('at the expiry instant: forbidden, reason access_expired (GraphQL ACCESS_EXPIRED)', async () => {
    const p = at('2026-06-01T00:00:00.000Z');
    const err = await p
      .record(me, { lectureId: 'l1', positionSeconds: 1, recordedAt: '2026-05-31T12:00:00.000Z' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({ code: 'forbidden', reason: 'access_expired' });
  });
});

describe('display names', () => {
  test.each([
    ['  Ada   Lovelace ', 'Ada Lovelace'],
    ['Ada\nLovelace', 'Ada Lovelace'],
    ['Zoë', 'Zoë'],
  ])('%j → %j', (input, expected) => expect(normaliseDisplayName(input)).toBe(expected));
  test.each([[''], [' \t '], ['a'.repeat(81)], ['a\u0007b'], ['a\u202eb']])('%j is refused', (input) => {
    expect(() => normaliseDisplayName(input)).toThrow(PlatformError);
  });
});

describe('DateTime scalar', () => {
  test.each([
    ['2026-11-21T10:00:00Z', '2026-11-21T10:00:00.000Z'],
    ['2026-11-21T10:00Z', '2026-11-21T10:00:00.000Z'],
    ['2026-11-21T12:30:00.5+02:30', '2026-11-21T10:00:00.500Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
  ])('%s → %s', (input, expected) => expect(parseDateTime(input)).toBe(expected));
  test.each([
    ['2026-11-21'],
    ['2026-11-21T10:00:00'],
    ['2025-02-29T00:00:00Z'],
    ['2026-11-21T24:00:00Z'],
    ['1969-12-31T23:59:59Z'],
    [42],
    [''],
  ])('%j is refused', (input) => {
    expect(() => parseDateTime(input)).toThrow(/DateTime/);
  });
});

describe('connection-rows budget', () => {
  const schema = buildSchema(
    readFileSync(new URL('../../src/resource/account-graphql/schema.graphql', import.meta.url), 'utf8'),
  );
  const rows = (doc: string) => validate(schema, parse(doc), [pageBudgetRule(300)]).map((e) => e.message);
  test('literal, default and variable page sizes; fragments are counted where spread', () => {
    expect(
      rows(
        '{ viewer { orders(first: 100) { totalCount } enrolledCourses(first: 100) { totalCount } eventRegistrations(first: 100) { totalCount } } }',
      ),
    ).toEqual([]);
    expect(
      rows(
        '{ viewer { a: orders(first: 100) { totalCount } b: orders(first: 100) { totalCount } c: orders(first: 100) { totalCount } d: orders { totalCount } } }',
      ),
    ).toHaveLength(1);
    expect(
      rows(
        'query($n: Int) { viewer { a: orders(first: $n) { totalCount } b: orders(first: $n) { totalCount } c: orders(first: $n) { totalCount } d: orders(first: 1) { totalCount } } }',
      ),
    ).toHaveLength(1);
    const fragment = 'fragment F on Viewer { orders(first: 100) { totalCount } }';
    expect(rows(`{ a: viewer { ...F } b: viewer { ...F } c: viewer { ...F } } ${fragment}`)).toEqual([]);
    expect(
      rows(`{ a: viewer { ...F } b: viewer { ...F } c: viewer { ...F } d: viewer { ...F } } ${fragment}`),
    ).toHaveLength(1);
  });
});
