/**
 * DESIGN D3 refresh grace window, atomic on SQLite and on Redis across two processes: a rotated
 * refresh token presented again within the window gets a working pair (a lost response, two
 * refreshes at once); after the window its reuse revokes the grant. The window is 2 s here
 * (REFRESH_GRACE_SECONDS) so the "after" case needs no 30 s wait.
 */
import { startTestServer, freePort, type TestServer } from '../helpers/server.js';
import { TEST_REDIS_URL, createTestDatabase, deleteRedisPrefix, describeWith, randomPrefix, type TestDatabase } from '../helpers/services.js';
import { authorizeMember, redeemCode, refresh, viewerStatus } from '../helpers/flows.js';

const GRACE = 2;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the D3 rules against `origins` (one or two processes sharing the store). */
function graceWindowRules(origins: () => string[], issuer: () => string) {
  const pick = (i: number) => origins()[i % origins().length]!;
  const newChain = async () => (await redeemCode(pick(0), issuer(), await authorizeMember(pick(1), issuer()))).body;

  test('DESIGN D3: 10 concurrent refreshes with one refresh token → every answer is a working pair, the grant survives', async () => {
    const first = await newChain();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => refresh(pick(i), String(first.refresh_token))));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    for (const [i, a] of answers.entries()) {
      expect(await viewerStatus(pick(i + 1), String(a.body.access_token))).toBe(200);
      const next = await refresh(pick(i), String(a.body.refresh_token));
      expect(next.status).toBe(200);
    }
  });

  test('DESIGN D3: a retry inside the window (lost response) gets a working pair; the first successor stays valid', async () => {
    const first = await newChain();
    const lost = await refresh(pick(0), String(first.refresh_token));
    expect(lost.status).toBe(200);
    const retry = await refresh(pick(1), String(first.refresh_token));
    expect(retry.status).toBe(200);
    expect(retry.body.refresh_token).not.toBe(lost.body.refresh_token);
    expect((await refresh(pick(0), String(retry.body.refresh_token))).status).toBe(200);
    expect((await refresh(pick(1), String(lost.body.refresh_token))).status).toBe(200);
  });

  test('DESIGN D3: reuse after the window → invalid_grant and the whole grant is revoked', async () => {
    const first = await newChain();
    const rotated = await refresh(pick(0), String(first.refresh_token));
    expect(rotated.status).toBe(200);
    await sleep((GRACE + 1.2) * 1000);
    const reuse = await refresh(pick(1), String(first.refresh_token));
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    expect((await refresh(pick(0), String(rotated.body.refresh_token))).body.error).toBe('invalid_grant');
    expect(await viewerStatus(pick(1), String(rotated.body.access_token))).toBe(401);
  });
}

describe('DESIGN D3 refresh grace window on the embedded SQLite store', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ REFRESH_GRACE_SECONDS: String(GRACE) });
  });
  afterAll(async () => server?.close());
  graceWindowRules(() => [server.baseUrl], () => server.baseUrl);
});

describeWith('redis', 'postgres')('DESIGN D3 refresh grace window on Redis, two processes', () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  let issuer = '';
  const prefix = randomPrefix();
  beforeAll(async () => {
    database = await createTestDatabase();
    const portA = await freePort();
    issuer = `http://127.0.0.1:${portA}`;
    const env = { REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: prefix, DATABASE_URL: database.url, BASE_URL: issuer, REFRESH_GRACE_SECONDS: String(GRACE) };
    a = await startTestServer(env, undefined, portA);
    b = await startTestServer(env);
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
    await deleteRedisPrefix(TEST_REDIS_URL!, prefix);
  });
  graceWindowRules(() => [`http://127.0.0.1:${a.port}`, `http://127.0.0.1:${b.port}`], () => issuer);
});
