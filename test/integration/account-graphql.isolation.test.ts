/**
 * SPEC §1 "that one person's data at that one site": a member token never reaches another member's
 * rows or another site's rows, whatever the query asks. Tokens come from the real flow:
 * student@ and student2@ at demo (demo-member-cli), owner@ at demo (demo-member-cli) and at
 * second (second-member-cli, a member client of the second site).
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { graphql, memberToken } from '../helpers/member-token.js';
import { SiteSettings } from '../../src/platform/sites.js';

let server: TestServer;
const tokens: Record<string, string> = {};

const ALL = /* GraphQL */ `{
  viewer {
    id site { id }
    enrolledCourses(first: 100) { totalCount nodes { slug lastWatchedLecture { lectureId } } }
    orders(first: 100) { totalCount nodes { id number items { courseSlug } } }
    eventRegistrations(first: 100) { totalCount nodes { id event { id } } }
  }
}`;

beforeAll(async () => {
  server = await startTestServer();
  const base = server.baseUrl;
  // second-member-cli is suspended while Second School's "MCP connections" beta is off (SPEC §5.4).
  await new SiteSettings(server.store.db).update('second', { mcpConnectionsEnabled: true });
  tokens.student = await memberToken({ baseUrl: base, email: 'student@demo.test' });
  tokens.student2 = await memberToken({ baseUrl: base, email: 'student2@demo.test' });
  tokens.ownerDemo = await memberToken({ baseUrl: base, email: 'owner@demo.test', site: 'demo' });
  tokens.ownerSecond = await memberToken({
    baseUrl: base,
    email: 'owner@demo.test',
    clientId: 'second-member-cli',
    site: 'second',
  });
});
afterAll(() => server.close());

async function everything(who: string) {
  const res = await graphql(server.baseUrl, tokens[who]!, ALL);
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.viewer;
}

describe('SPEC §1 cross-user isolation at one site', () => {
  test('student2 sees only her enrollment, order and registration', async () => {
    const v = await everything('student2');
    expect(v.id).toBe('usr_student2');
    expect(v.site.id).toBe('demo');
    expect(v.enrolledCourses.nodes.map((n: any) => n.slug)).toEqual(['oauth-in-practice']);
    expect(v.enrolledCourses.nodes[0].lastWatchedLecture).toEqual({ lectureId: 'lec_oa_2' });
    expect(v.orders.nodes.map((n: any) => n.id)).toEqual(['ord_2001']);
    expect(v.eventRegistrations.nodes.map((n: any) => n.id)).toEqual(['reg_4']);
    expect([v.enrolledCourses.totalCount, v.orders.totalCount, v.eventRegistrations.totalCount]).toEqual([1, 1, 1]);
  });

  test("student sees none of student2's rows (same course, same event)", async () => {
    const v = await everything('student');
    expect(v.orders.nodes.map((n: any) => n.id)).toEqual(['ord_1003', 'ord_1002', 'ord_1001']);
    expect(v.eventRegistrations.nodes.map((n: any) => n.id)).toEqual(['reg_1', 'reg_2', 'reg_3']);
    // Both are enrolled in oauth-in-practice; each sees only their own last watched lecture.
    const oauth = v.enrolledCourses.nodes.find((n: any) => n.slug === 'oauth-in-practice');
    expect(oauth.lastWatchedLecture).toEqual({ lectureId: 'lec_oa_1' });
  });

  test("a cursor taken from another member's list reveals nothing of theirs", async () => {
    const theirs = await graphql(
      server.baseUrl,
      tokens.student2!,
      '{ viewer { orders(first: 1) { edges { cursor } } } }',
    );
    const cursor = theirs.body.data.viewer.orders.edges[0].cursor;
    const mine = await graphql(
      server.baseUrl,
      tokens.student!,
      'query($a: String) { viewer { orders(first: 10, after: $a) { nodes { id } } } }',
      { a: cursor },
    );
    expect(mine.body.errors).toBeUndefined();
    for (const n of mine.body.data.viewer.orders.nodes) expect(n.id).toMatch(/^ord_1/);
  });
});

describe('SPEC §1 cross-site isolation: one user, two sites, two tokens', () => {
  test('owner at demo: only the demo order, no enrollments, no second-site rows', async () => {
    const v = await everything('ownerDemo');
    expect(v.id).toBe('usr_owner');
    expect(v.site.id).toBe('demo');
    expect(v.enrolledCourses.nodes).toEqual([]);
    expect(v.orders.nodes.map((n: any) => n.number)).toEqual(['DA-3002']);
    expect(v.eventRegistrations.nodes).toEqual([]);
  });

  test('owner at second: only the second-site enrollment, order and registration', async () => {
    const v = await everything('ownerSecond');
    expect(v.site.id).toBe('second');
    expect(v.enrolledCourses.nodes).toEqual([
      { slug: 'second-school-intro', lastWatchedLecture: { lectureId: 'lec_2_1' } },
    ]);
    expect(v.orders.nodes).toEqual([
      { id: 'ord_3001', number: 'SS-3001', items: [{ courseSlug: 'second-school-intro' }] },
    ]);
    expect(v.eventRegistrations.nodes).toEqual([{ id: 'reg_5', event: { id: 'evt_second_open' } }]);
  });

  test('roles follow the token site', async () => {
    const demo = await graphql(server.baseUrl, tokens.ownerDemo!, '{ viewer { roles } }');
    const second = await graphql(server.baseUrl, tokens.ownerSecond!, '{ viewer { roles } }');
    expect(demo.body.data.viewer.roles).toEqual(['owner']);
    expect(second.body.data.viewer.roles).toEqual(['admin']);
  });
});

describe('SPEC §1 writes stay inside the member and the site', () => {
  const record = `mutation($l: ID!) { recordLectureProgress(input: { lectureId: $l, positionSeconds: 5, recordedAt: "2026-11-21T00:00:00Z" }) { applied } }`;

  test.each([
    ['student', 'lec_2_1', 'a lecture of another site'],
    ['student2', 'lec_ts_1', 'a course of the same site she is not enrolled in'],
    ['ownerDemo', 'lec_2_1', 'her own second-site course, with a demo token'],
    ['student', 'lec_does_not_exist', 'no such lecture'],
  ])('%s → %s (%s): NOT_FOUND, nothing written', async (who, lecture) => {
    const res = await graphql(server.baseUrl, tokens[who]!, record, { l: lecture });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(res.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const rows = await server.store.db
      .selectFrom('lecture_progress')
      .selectAll()
      .where('lecture_id', '=', lecture)
      .where('position_seconds', '=', 5)
      .execute();
    expect(rows).toEqual([]);
  });
});
