/**
 * Issue #25 findings 6 and 9 on PostgreSQL (a pool of connections, so requests really run at the
 * same time), through the real server and real operator tokens:
 *
 *   6  the last-owner rule is a serialised check-and-write: two owners removing each other's owner
 *      role at the same moment, round after round, never leave the site without an owner;
 *   9  If-Match is atomic: parallel PATCHes sent with one ETag give exactly one 200, the others 412.
 *
 * The same rules on the embedded SQLite store run through operations.findings.test.ts and the
 * admin API tests (SQLite serialises every transaction on its one connection).
 */
import pg from 'pg';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createTestDatabase, describeWith, type TestDatabase } from '../helpers/services.js';
import { callApi, operatorToken } from '../helpers/operator-surfaces.js';

const ROUNDS = 15;

describeWith('postgres')('issue #25 findings 6 and 9 on PostgreSQL', () => {
  let database: TestDatabase;
  let server: TestServer;
  let base: string;
  let a: string;
  let b: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startTestServer({ DATABASE_URL: database.url });
    base = server.baseUrl;
    a = (await operatorToken(base, 'owner@demo.test', 'demo', 'race owner A')).token;
    // B: instructor made owner; A: also admin, so that either keeps a role at the site after a round.
    expect((await callApi(base, a, '/api/v1/members/instructor%40demo.test/roles/owner', 'PUT')).status).toBe(200);
    b = (await operatorToken(base, 'instructor@demo.test', 'demo', 'race owner B')).token;
    expect((await callApi(base, b, '/api/v1/members/owner%40demo.test/roles/admin', 'PUT')).status).toBe(200);
  }, 90_000);
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  /** Owners of `demo`, read straight from the platform store. */
  async function owners(): Promise<string[]> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ user_id: string }>(
        "SELECT user_id FROM memberships WHERE site_id = 'demo' AND role = 'owner' ORDER BY user_id",
      );
      return rows.map((r) => r.user_id);
    } finally {
      await client.end();
    }
  }

  test(`6: two owners removing each other at the same moment (${ROUNDS} rounds) never leave zero owners`, async () => {
    const tokens: Record<string, string> = { usr_owner: a, usr_instructor: b };
    const emails: Record<string, string> = { usr_owner: 'owner%40demo.test', usr_instructor: 'instructor%40demo.test' };
    for (let round = 0; round < ROUNDS; round++) {
      expect(await owners()).toEqual(['usr_instructor', 'usr_owner']);
      const [byA, byB] = await Promise.all([
        callApi(base, a, '/api/v1/members/instructor%40demo.test/roles/owner', 'DELETE'),
        callApi(base, b, '/api/v1/members/owner%40demo.test/roles/owner', 'DELETE'),
      ]);
      const left = await owners();
      expect(left).toHaveLength(1);
      // Exactly one removal happened; the other owner was no owner any more when theirs ran.
      expect([byA.status, byB.status].sort()).toEqual([204, 403]);
      const winner = left[0]!;
      const loser = winner === 'usr_owner' ? 'usr_instructor' : 'usr_owner';
      expect((await callApi(base, tokens[winner]!, `/api/v1/members/${emails[loser]}/roles/owner`, 'PUT')).status).toBe(
        200,
      );
    }
  }, 120_000);

  test(`9: ${ROUNDS} rounds of 5 parallel PATCHes with one ETag give exactly one 200, the others 412`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const etag = (await callApi(base, a, '/api/v1/site')).headers.get('etag')!;
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          callApi(base, a, '/api/v1/site', 'PATCH', { name: `Demo Academy ${round}.${i}` }, { 'if-match': etag }),
        ),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 412, 412, 412, 412]);
      const winner = answers.find((r) => r.status === 200)!;
      // The winner's ETag is the one a read now answers; the first one no longer matches.
      const now = await callApi(base, a, '/api/v1/site');
      expect(now.body.name).toBe(winner.body.name);
      expect(now.headers.get('etag')).toBe(winner.headers.get('etag'));
      expect(now.headers.get('etag')).not.toBe(etag);
    }
    // An update sent without If-Match moves the version on: a tag read before it is stale.
    const before = (await callApi(base, a, '/api/v1/site')).headers.get('etag')!;
    expect((await callApi(base, a, '/api/v1/site', 'PATCH', { name: 'Demo Academy' })).status).toBe(200);
    expect((await callApi(base, a, '/api/v1/site', 'PATCH', { name: 'Stale' }, { 'if-match': before })).status).toBe(
      412,
    );
  }, 120_000);
});
