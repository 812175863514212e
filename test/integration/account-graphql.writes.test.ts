/**
 * SPEC §2.5 / §5.7 Account API mutations: `account:write` (403 `insufficient_scope` with the
 * `WWW-Authenticate` challenge of DESIGN D4), monotonic playback progress, display name.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { graphql, memberToken } from '../helpers/member-token.js';
import { challenge } from '../../src/http/challenge.js';

let server: TestServer;
let writer: string;
let reader: string;

beforeAll(async () => {
  server = await startTestServer();
  writer = await memberToken({
    baseUrl: server.baseUrl,
    email: 'student@demo.test',
    scope: 'openid profile email account:read account:write',
  });
  reader = await memberToken({ baseUrl: server.baseUrl, email: 'student@demo.test', scope: 'openid account:read' });
});
afterAll(() => server.close());

const RECORD = /* GraphQL */ `
  mutation Record($lectureId: ID!, $positionSeconds: Int!, $recordedAt: DateTime!) {
    recordLectureProgress(input: { lectureId: $lectureId, positionSeconds: $positionSeconds, recordedAt: $recordedAt }) {
      applied
      lectureProgress { lectureId positionSeconds updatedAt completed }
    }
  }`;
const RENAME = `mutation($name: String!) { updateDisplayName(input: { name: $name }) { viewer { id name } } }`;
const COURSES = `{ viewer { enrolledCourses { nodes { slug progress completedLectureCount lastWatchedLecture { lectureId positionSeconds updatedAt } } } } }`;

describe('SPEC §2.5 / §5.7 mutations need account:write', () => {
  test.each([
    [
      'recordLectureProgress',
      RECORD,
      { lectureId: 'lec_ts_3', positionSeconds: 1, recordedAt: '2026-11-21T00:00:00Z' },
    ],
    ['updateDisplayName', RENAME, { name: 'Not Allowed' }],
  ])(
    '%s with an account:read token: 403 insufficient_scope, exact challenge, nothing written',
    async (_name, query, variables) => {
      const res = await graphql(server.baseUrl, reader, query, variables);
      expect(res.status).toBe(403);
      const expected = challenge(
        server.baseUrl,
        403,
        'insufficient_scope',
        'a mutation needs the scope account:write',
        'account:write',
      ).headers['WWW-Authenticate'];
      expect(res.headers.get('www-authenticate')).toBe(expected);
      expect(expected).toBe(
        `Bearer error="insufficient_scope", error_description="a mutation needs the scope account:write", scope="account:write", resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource"`,
      );
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors?.[0]?.extensions).toEqual({ code: 'INSUFFICIENT_SCOPE', scope: 'account:write' });
      const user = await server.store.db
        .selectFrom('users')
        .select('name')
        .where('id', '=', 'usr_student')
        .executeTakeFirstOrThrow();
      expect(user.name).toBe('Sam Student');
      const progress = await server.store.db
        .selectFrom('lecture_progress')
        .selectAll()
        .where('lecture_id', '=', 'lec_ts_3')
        .execute();
      expect(progress).toEqual([]);
    },
  );

  test('a token with account:write but without account:read mutates and reads (write implies read, DESIGN D4)', async () => {
    const writeOnly = await memberToken({
      baseUrl: server.baseUrl,
      email: 'student@demo.test',
      scope: 'openid account:write',
    });
    const res = await graphql(server.baseUrl, writeOnly, RENAME, { name: 'Write Only' });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const read = await graphql(server.baseUrl, writeOnly, '{ viewer { name } }');
    expect(read.status).toBe(200);
    expect(read.body.data.viewer.name).toBe('Write Only');
  });

  test('the same read-only token still answers queries (account:read)', async () => {
    const res = await graphql(server.baseUrl, reader, '{ viewer { id } }');
    expect(res.status).toBe(200);
    expect(res.body.data.viewer.id).toBe('usr_student');
  });

  test('a named query in a document that also holds a mutation is a query', async () => {
    const doc = `query Q { viewer { id } } mutation M { updateDisplayName(input: { name: "x" }) { viewer { id } } }`;
    const res = await fetch(`${server.baseUrl}/account/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reader}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: doc, operationName: 'Q' }),
    });
    expect(res.status).toBe(200);
  });
});

describe('recordLectureProgress: monotonic by recordedAt', () => {
  test('a newer write is applied and becomes the last watched lecture', async () => {
    const res = await graphql(server.baseUrl, writer, RECORD, {
      lectureId: 'lec_ts_3',
      positionSeconds: 750,
      recordedAt: '2026-11-21T12:00:00+01:00',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.recordLectureProgress).toEqual({
      applied: true,
      // 750 of 780 s ≥ 90 %: completed; recordedAt normalised to UTC.
      lectureProgress: {
        lectureId: 'lec_ts_3',
        positionSeconds: 750,
        updatedAt: '2026-11-21T11:00:00.000Z',
        completed: true,
      },
    });
    const courses = await graphql(server.baseUrl, writer, COURSES);
    const ts = courses.body.data.viewer.enrolledCourses.nodes[0];
    expect(ts.lastWatchedLecture).toEqual({
      lectureId: 'lec_ts_3',
      positionSeconds: 750,
      updatedAt: '2026-11-21T11:00:00.000Z',
    });
    expect(ts.completedLectureCount).toBe(2);
    expect(ts.progress).toBeCloseTo(2 / 3);
  });

  test('an older write arriving late is not applied; the stored newer position is returned', async () => {
    const res = await graphql(server.baseUrl, writer, RECORD, {
      lectureId: 'lec_ts_3',
      positionSeconds: 10,
      recordedAt: '2026-11-21T10:59:59.999Z',
    });
    expect(res.body.data.recordLectureProgress).toEqual({
      applied: false,
      lectureProgress: {
        lectureId: 'lec_ts_3',
        positionSeconds: 750,
        updatedAt: '2026-11-21T11:00:00.000Z',
        completed: true,
      },
    });
  });

  test('a retry of the same write (same recordedAt) is a no-op', async () => {
    const res = await graphql(server.baseUrl, writer, RECORD, {
      lectureId: 'lec_ts_3',
      positionSeconds: 650,
      recordedAt: '2026-11-21T11:00:00Z',
    });
    expect(res.body.data.recordLectureProgress.applied).toBe(false);
    expect(res.body.data.recordLectureProgress.lectureProgress.positionSeconds).toBe(750);
  });

  test('an older write to the seeded lecture (lec_ts_2 @312, 2026-11-20T18:42Z) does not overwrite it', async () => {
    const res = await graphql(server.baseUrl, writer, RECORD, {
      lectureId: 'lec_ts_2',
      positionSeconds: 1,
      recordedAt: '2026-11-20T18:41:59Z',
    });
    expect(res.body.data.recordLectureProgress).toMatchObject({
      applied: false,
      lectureProgress: { positionSeconds: 312 },
    });
  });

  test('concurrent writes end with the newest one, whatever the arrival order', async () => {
    const times = Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(2026, 10, 21, 13, 0, i)).toISOString());
    const shuffled = [...times].sort(() => Math.random() - 0.5);
    await Promise.all(
      shuffled.map((t) =>
        graphql(server.baseUrl, writer, RECORD, {
          lectureId: 'lec_oa_2',
          positionSeconds: Number(t.slice(17, 19)),
          recordedAt: t,
        }),
      ),
    );
    const row = await server.store.db
      .selectFrom('lecture_progress')
      .selectAll()
      .where('user_id', '=', 'usr_student')
      .where('lecture_id', '=', 'lec_oa_2')
      .executeTakeFirstOrThrow();
    expect(row.recorded_at).toBe(times.at(-1));
    expect(row.position_seconds).toBe(11);
  });

  test.each([
    [{ lectureId: 'lec_ts_1', positionSeconds: -1, recordedAt: '2026-11-21T00:00:00Z' }, 'BAD_USER_INPUT'],
    [
      { lectureId: 'lec_ts_1', positionSeconds: 1, recordedAt: new Date(Date.now() + 3_600_000).toISOString() },
      'BAD_USER_INPUT',
    ],
    [{ lectureId: 'lec_ts_1', positionSeconds: 1, recordedAt: '2026-11-21 10:00' }, 'BAD_USER_INPUT'],
    [{ lectureId: 'lec_ts_1', positionSeconds: 1, recordedAt: '2026-11-21T10:00:00' }, 'BAD_USER_INPUT'],
    [{ lectureId: 'lec_ts_1', positionSeconds: 1, recordedAt: '2026-02-30T10:00:00Z' }, 'BAD_USER_INPUT'],
    [{ lectureId: 'lec_ts_1', positionSeconds: 1.5, recordedAt: '2026-11-21T00:00:00Z' }, 'BAD_USER_INPUT'],
    [{ lectureId: 'lec_sql_1', positionSeconds: 1, recordedAt: '2026-11-21T00:00:00Z' }, 'ACCESS_EXPIRED'],
  ])('%j → %s, never 500', async (variables, code) => {
    const res = await graphql(server.baseUrl, writer, RECORD, variables);
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors?.[0]?.extensions?.code).toBe(code);
  });
});

describe('updateDisplayName', () => {
  test('sets the name (trimmed, whitespace collapsed), visible in viewer and UserInfo', async () => {
    const res = await graphql(server.baseUrl, writer, RENAME, { name: '  Samantha   Student ' });
    expect(res.status).toBe(200);
    expect(res.body.data.updateDisplayName.viewer).toEqual({ id: 'usr_student', name: 'Samantha Student' });
    const viewer = await graphql(server.baseUrl, reader, '{ viewer { name } }');
    expect(viewer.body.data.viewer.name).toBe('Samantha Student');
    const userinfo = await fetch(`${server.baseUrl}/api/oauth/userinfo`, {
      headers: { authorization: `Bearer ${writer}` },
    });
    expect(((await userinfo.json()) as { name: string }).name).toBe('Samantha Student');
  });

  test.each([[''], ['   '], ['x'.repeat(81)], ['bad\u0000name'], ['zero\u200bwidth']])(
    '%j → BAD_USER_INPUT, name unchanged',
    async (name) => {
      const res = await graphql(server.baseUrl, writer, RENAME, { name });
      expect(res.status).toBe(200);
      expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      const user = await server.store.db
        .selectFrom('users')
        .select('name')
        .where('id', '=', 'usr_student')
        .executeTakeFirstOrThrow();
      expect(user.name).toBe('Samantha Student');
    },
  );

  test('80 characters (code points, not UTF-16 units) are accepted', async () => {
    const name = '😀'.repeat(80);
    const res = await graphql(server.baseUrl, writer, RENAME, { name });
    expect(res.body.data.updateDisplayName.viewer.name).toBe(name);
  });
});
