/**
 * DESIGN.md §1 "stateless app processes": two coursegate servers share one Redis (OIDC state) and
 * one PostgreSQL database (platform data, keys and cookie secrets), as N processes behind a load
 * balancer would. Both run in this jest process (two `startServer` instances, separate ports,
 * separate adapter and Redis connections), with the same BASE_URL: the balancer's origin.
 */
import { startTestServer, freePort, type TestServer } from '../helpers/server.js';
import {
  TEST_REDIS_URL,
  createTestDatabase,
  deleteRedisPrefix,
  describeWith,
  randomPrefix,
  type TestDatabase,
} from '../helpers/services.js';
import { authorizeMember, postForm, redeemCode, refresh, viewerStatus, MEMBER_CLIENT } from '../helpers/flows.js';

describeWith('redis', 'postgres')('two processes on one Redis + one PostgreSQL', () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  let issuer: string;
  const prefix = randomPrefix();

  beforeAll(async () => {
    database = await createTestDatabase();
    const portA = await freePort();
    issuer = `http://127.0.0.1:${portA}`;
    // No DESIGN D3 grace window here: a replay is caught at once (test/scale/refresh-grace.test.ts covers the window).
    const env = {
      REDIS_URL: TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
      DATABASE_URL: database.url,
      BASE_URL: issuer,
      REFRESH_GRACE_SECONDS: '0',
    };
    // Started one after the other: the first one migrates and seeds PostgreSQL.
    a = await startTestServer(env, undefined, portA);
    b = await startTestServer(env);
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
    await deleteRedisPrefix(TEST_REDIS_URL!, prefix);
  });

  const originA = () => `http://127.0.0.1:${a.port}`;
  const originB = () => `http://127.0.0.1:${b.port}`;

  test('both processes publish the same signing key (agreed through PostgreSQL)', async () => {
    const [ja, jb] = await Promise.all(
      [originA(), originB()].map(async (o) => (await fetch(`${o}/.well-known/jwks.json`)).json()),
    );
    expect(ja).toEqual(jb);
  });

  test('a code issued by A is redeemed at B; the access token works at both', async () => {
    const issued = await authorizeMember(originA(), issuer);
    const res = await redeemCode(originB(), issuer, issued);
    expect(res.status).toBe(200);
    expect(await viewerStatus(originA(), String(res.body.access_token))).toBe(200);
    expect(await viewerStatus(originB(), String(res.body.access_token))).toBe(200);
  });

  test('a token revoked at A is refused at B at once', async () => {
    const tokens = (await redeemCode(originA(), issuer, await authorizeMember(originA(), issuer))).body;
    expect(await viewerStatus(originB(), String(tokens.access_token))).toBe(200);
    const revoked = await postForm(originA(), '/api/oauth/revoke', {
      token: String(tokens.access_token),
      client_id: MEMBER_CLIENT,
    });
    expect(revoked.status).toBe(200);
    expect(await viewerStatus(originB(), String(tokens.access_token))).toBe(401);
  });

  test('a replayed refresh token is caught across processes and revokes the grant', async () => {
    const first = (await redeemCode(originA(), issuer, await authorizeMember(originB(), issuer))).body;
    const rotated = await refresh(originA(), String(first.refresh_token));
    expect(rotated.status).toBe(200);
    const replay = await refresh(originB(), String(first.refresh_token));
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    // DESIGN D3: reuse of a rotated refresh token revokes the grant: the new pair is dead too.
    expect((await refresh(originA(), String(rotated.body.refresh_token))).body.error).toBe('invalid_grant');
    expect(await viewerStatus(originA(), String(rotated.body.access_token))).toBe(401);
  });

  test('20 concurrent redemptions of one code across both processes → exactly one success', async () => {
    const issued = await authorizeMember(originA(), issuer);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => redeemCode(i % 2 ? originA() : originB(), issuer, issued)),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_grant');
    }
  });
});
