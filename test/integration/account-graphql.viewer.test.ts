/**
 * SPEC §2.4 / §4.3 the member Account API over real HTTP with real member tokens
 * (demo-member-cli, authorization code + PKCE): every field of `viewer`, and Relay pagination.
 */
import type { TestServer } from '../helpers/server.js';
import { graphql, serverWithMemberToken } from '../helpers/member-token.js';

let server: TestServer;
let token: string;

beforeAll(async () => ({ server, token } = await serverWithMemberToken()));
afterAll(() => server.close());

const EVERY_FIELD = /* GraphQL */ `
  query Everything {
    viewer {
      id email name site { id name } roles
      enrolledCourses(first: 10) {
        totalCount pageInfo { hasNextPage endCursor }
        edges { cursor node { slug } }
        nodes {
          slug title expireDate hasLifetimeAccess progress completedLectureCount lectureCount
          lastWatchedLecture { lectureId positionSeconds updatedAt }
        }
      }
      orders(first: 10) {
        totalCount pageInfo { hasNextPage endCursor }
        edges { cursor node { id } }
        nodes {
          id number status createdAt total { amountMinor currency }
          items { id title courseSlug quantity unitPrice { amountMinor currency } total { amountMinor currency } }
        }
      }
      eventRegistrations(first: 10) {
        totalCount pageInfo { hasNextPage endCursor }
        edges { cursor node { id } }
        nodes { id status createdAt event { id title startsAt endsAt location } }
      }
    }
  }`;

describe('SPEC §2.4 viewer: every field for student@demo.test at demo', () => {
  let viewer: any;
  beforeAll(async () => {
    const res = await graphql(server.baseUrl, token, EVERY_FIELD);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    viewer = res.body.data.viewer;
  });

  test('identity: id = sub, email, name, site, roles', () => {
    expect(viewer.id).toBe('usr_student');
    expect(viewer.email).toBe('student@demo.test');
    expect(viewer.name).toBe('Sam Student');
    expect(viewer.site).toEqual({ id: 'demo', name: 'Demo Academy' });
    expect(viewer.roles).toEqual(['student']);
  });

  test('enrolledCourses: expiry, lifetime, expired enrollment, progress, last watched lecture', () => {
    const c = viewer.enrolledCourses;
    expect(c.totalCount).toBe(3);
    expect(c.pageInfo.hasNextPage).toBe(false);
    expect(c.nodes).toEqual([
      {
        slug: 'typescript-fundamentals',
        title: 'TypeScript Fundamentals',
        expireDate: '2027-12-31T23:59:59.000Z',
        hasLifetimeAccess: false,
        // lec_ts_1 watched to its end (420/420 s) = completed; lec_ts_2 at 312/900 s is not.
        progress: 1 / 3,
        completedLectureCount: 1,
        lectureCount: 3,
        lastWatchedLecture: { lectureId: 'lec_ts_2', positionSeconds: 312, updatedAt: '2026-11-20T18:42:00.000Z' },
      },
      {
        slug: 'oauth-in-practice',
        title: 'OAuth in Practice',
        expireDate: null,
        hasLifetimeAccess: true,
        progress: 0,
        completedLectureCount: 0,
        lectureCount: 2,
        lastWatchedLecture: { lectureId: 'lec_oa_1', positionSeconds: 75, updatedAt: '2026-11-21T07:30:00.000Z' },
      },
      {
        // Expired enrollments stay visible, with their expiry in the past.
        slug: 'sql-basics',
        title: 'SQL Basics',
        expireDate: '2025-01-31T23:59:59.000Z',
        hasLifetimeAccess: false,
        progress: 0,
        completedLectureCount: 0,
        lectureCount: 1,
        lastWatchedLecture: null,
      },
    ]);
    expect(c.edges.map((e: any) => e.node.slug)).toEqual(c.nodes.map((n: any) => n.slug));
    expect(c.pageInfo.endCursor).toBe(c.edges[2].cursor);
  });

  test('orders: newest first, status enum, integer minor units + ISO 4217, items', () => {
    const o = viewer.orders;
    expect(o.totalCount).toBe(3);
    expect(o.nodes.map((n: any) => n.number)).toEqual(['DA-1003', 'DA-1002', 'DA-1001']);
    expect(o.nodes[1]).toEqual({
      id: 'ord_1002',
      number: 'DA-1002',
      status: 'PAID',
      createdAt: '2026-01-15T09:00:00.000Z',
      total: { amountMinor: 20800, currency: 'EUR' },
      items: [
        {
          id: 'itm_1002_1',
          title: 'TypeScript Fundamentals (2 years)',
          courseSlug: 'typescript-fundamentals',
          quantity: 1,
          unitPrice: { amountMinor: 7900, currency: 'EUR' },
          total: { amountMinor: 7900, currency: 'EUR' },
        },
        {
          id: 'itm_1002_2',
          title: 'OAuth in Practice (lifetime)',
          courseSlug: 'oauth-in-practice',
          quantity: 1,
          unitPrice: { amountMinor: 12900, currency: 'EUR' },
          total: { amountMinor: 12900, currency: 'EUR' },
        },
      ],
    });
    expect(o.nodes[0].status).toBe('REFUNDED');
    expect(o.nodes[0].items[0]).toMatchObject({
      courseSlug: null,
      quantity: 2,
      total: { amountMinor: 3000, currency: 'EUR' },
    });
    for (const n of o.nodes) expect(Number.isInteger(n.total.amountMinor)).toBe(true);
  });

  test('eventRegistrations: ordered by event start, status enum, event fields', () => {
    const r = viewer.eventRegistrations;
    expect(r.totalCount).toBe(3);
    expect(r.nodes).toEqual([
      {
        id: 'reg_1',
        status: 'ATTENDED',
        createdAt: '2026-08-01T10:00:00.000Z',
        event: {
          id: 'evt_oauth_ws',
          title: 'OAuth workshop',
          startsAt: '2026-09-12T09:00:00.000Z',
          endsAt: '2026-09-12T16:00:00.000Z',
          location: 'Online',
        },
      },
      {
        id: 'reg_2',
        status: 'REGISTERED',
        createdAt: '2026-11-01T10:00:00.000Z',
        event: {
          id: 'evt_ts_live',
          title: 'TypeScript live Q&A',
          startsAt: '2026-12-03T17:00:00.000Z',
          endsAt: '2026-12-03T18:00:00.000Z',
          location: 'Online',
        },
      },
      {
        id: 'reg_3',
        status: 'WAITLISTED',
        createdAt: '2026-11-02T10:00:00.000Z',
        event: {
          id: 'evt_meetup',
          title: 'Demo Academy meetup',
          startsAt: '2027-02-10T18:30:00.000Z',
          endsAt: '2027-02-10T21:00:00.000Z',
          location: 'Main hall, 1 Example Street, Berlin',
        },
      },
    ]);
  });

  test('every DateTime is ISO 8601 UTC with milliseconds', () => {
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    const dates = [
      ...viewer.orders.nodes.map((n: any) => n.createdAt),
      ...viewer.eventRegistrations.nodes.flatMap((n: any) => [n.createdAt, n.event.startsAt, n.event.endsAt]),
      ...viewer.enrolledCourses.nodes
        .flatMap((n: any) => [n.expireDate, n.lastWatchedLecture?.updatedAt])
        .filter(Boolean),
    ];
    expect(dates.length).toBeGreaterThan(10);
    for (const d of dates) expect(d).toMatch(iso);
  });
});

describe('Relay pagination: first/after, opaque stable cursors, hasNextPage, totalCount', () => {
  const page = (field: string, selection: string) => /* GraphQL */ `
    query Page($first: Int!, $after: String) {
      viewer { ${field}(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ${selection} } } } }
    }`;

  async function walk(field: string, selection: string, key: (n: any) => string, first: number) {
    const seen: string[] = [];
    const cursors: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const res = await graphql(server.baseUrl, token, page(field, selection), { first, after });
      expect(res.body.errors).toBeUndefined();
      const conn = res.body.data.viewer[field];
      seen.push(...conn.edges.map((e: any) => key(e.node)));
      cursors.push(...conn.edges.map((e: any) => e.cursor));
      if (!conn.pageInfo.hasNextPage) break;
      expect(conn.edges.length).toBe(first);
      after = conn.pageInfo.endCursor;
    }
    return { seen, cursors };
  }

  test.each([
    ['enrolledCourses', 'slug', ['typescript-fundamentals', 'oauth-in-practice', 'sql-basics']],
    ['orders', 'number', ['DA-1003', 'DA-1002', 'DA-1001']],
    ['eventRegistrations', 'id', ['reg_1', 'reg_2', 'reg_3']],
  ])('%s: pages of 2 and of 1 walk the same rows in the same order', async (field, selection, expected) => {
    const byTwo = await walk(field, selection, (n) => n[selection], 2);
    const byOne = await walk(field, selection, (n) => n[selection], 1);
    expect(byTwo.seen).toEqual(expected);
    expect(byOne.seen).toEqual(expected);
    // Stable: the same row has the same cursor whatever the page size.
    expect(byOne.cursors).toEqual(byTwo.cursors);
    // Opaque: base64url, not the row id in clear.
    for (const c of byOne.cursors) {
      expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(c).not.toContain('ord_');
    }
  });

  test('first: 0 gives an empty page with hasNextPage and the totalCount', async () => {
    const res = await graphql(server.baseUrl, token, page('orders', 'id'), { first: 0 });
    expect(res.body.data.viewer.orders).toEqual({
      totalCount: 3,
      pageInfo: { hasNextPage: true, endCursor: null },
      edges: [],
    });
  });

  test('a cursor stays valid when rows are added before it (keyset, not offset)', async () => {
    const first = await graphql(server.baseUrl, token, page('orders', 'number'), { first: 1 });
    const cursor = first.body.data.viewer.orders.pageInfo.endCursor;
    await server.store.db
      .insertInto('orders')
      .values({
        id: 'ord_new',
        site_id: 'demo',
        user_id: 'usr_student',
        number: 'DA-9999',
        status: 'pending',
        total_minor: 100,
        currency: 'EUR',
        created_at: '2026-11-21T00:00:00.000Z',
      })
      .execute();
    try {
      const next = await graphql(server.baseUrl, token, page('orders', 'number'), { first: 10, after: cursor });
      expect(next.body.data.viewer.orders.edges.map((e: any) => e.node.number)).toEqual(['DA-1002', 'DA-1001']);
      expect(next.body.data.viewer.orders.totalCount).toBe(4);
    } finally {
      await server.store.db.deleteFrom('orders').where('id', '=', 'ord_new').execute();
    }
  });

  test('a cursor of another list, a forged cursor and first outside 0–100 are BAD_USER_INPUT, not 500', async () => {
    const orders = await graphql(server.baseUrl, token, page('orders', 'id'), { first: 1 });
    const orderCursor = orders.body.data.viewer.orders.pageInfo.endCursor;
    for (const variables of [
      { first: 1, after: orderCursor, field: 'eventRegistrations' },
      { first: 1, after: 'not-a-cursor!', field: 'orders' },
      { first: 1, after: Buffer.from('v1:orders:{"x":1}').toString('base64url'), field: 'orders' },
      { first: 101, after: null, field: 'orders' },
      { first: -1, after: null, field: 'enrolledCourses' },
    ]) {
      const res = await graphql(server.baseUrl, token, page(variables.field, 'id: __typename'), {
        first: variables.first,
        after: variables.after,
      });
      expect(res.status).toBe(200);
      expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
  });
});

describe('issue #15: a document yoga has run is answered by the short path exactly as yoga answered it', () => {
  /** The raw answer: status, Content-Type and body text. */
  async function raw(query: string, variables: Record<string, unknown> | undefined, accept?: string) {
    const res = await fetch(`${server.baseUrl}/account/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(accept ? { accept } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      cache: res.headers.get('cache-control'),
      body: await res.text(),
    };
  }

  test.each([undefined, 'application/json', 'application/graphql-response+json', '*/*'])(
    'Accept %s: same status, Content-Type and body the second and third time',
    async (accept) => {
      const first = await raw(EVERY_FIELD, undefined, accept);
      expect(first.status).toBe(200);
      expect(await raw(EVERY_FIELD, undefined, accept)).toEqual(first);
      expect(await raw(EVERY_FIELD, undefined, accept)).toEqual(first);
    },
  );

  test('a known document whose execution fails is still answered by yoga (codes, masking)', async () => {
    const query = 'query Page($n: Int!) { viewer { enrolledCourses(first: $n) { nodes { slug } } } }';
    const ok = await raw(query, { n: 2 });
    expect(JSON.parse(ok.body).errors).toBeUndefined();
    expect(await raw(query, { n: 2 })).toEqual(ok);
    const tooMany = JSON.parse((await raw(query, { n: 1000 })).body);
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const wrongType = JSON.parse((await raw(query, { n: 'two' })).body);
    expect(wrongType.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(wrongType.data).toBeUndefined();
  });
});
