/**
 * DESIGN D3 refresh grace window, atomic on SQLite and on Redis across two processes: a rotated
 * refresh token presented again within the window gets the same successor as its first rotation
 * (a lost response, two refreshes at once: one chain, never a second; issue #25 finding 5); after
 * the window its reuse, or that of any stale token of the chain, revokes the grant. The window is 2 s here
 * (REFRESH_GRACE_SECONDS) so the "after" case needs no 30 s wait.
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
import { authorizeMember, redeemCode, refresh, viewerStatus } from '../helpers/flows.js';

const GRACE = 2;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the D3 rules against `origins` (one or two processes sharing the store). */
function graceWindowRules(origins: () => string[], issuer: () => string) {
  const pick = (i: number) => origins()[i % origins().length]!;
  const newChain = async () => (await redeemCode(pick(0), issuer(), await authorizeMember(pick(1), issuer()))).body;

  test('DESIGN D3: 10 concurrent refreshes with one refresh token → every answer is the same working pair, one chain', async () => {
    const first = await newChain();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => refresh(pick(i), String(first.refresh_token))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.refresh_token)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.access_token)).size).toBe(1);
    expect(await viewerStatus(pick(1), String(answers[0]!.body.access_token))).toBe(200);
    const next = await refresh(pick(0), String(answers[0]!.body.refresh_token));
    expect(next.status).toBe(200);
  });

  test('issue #25 finding 5: 3 replays inside the window (lost responses) → the same successor each time; after the window a stale token revokes the one chain', async () => {
    const first = await newChain();
    const lost = await refresh(pick(0), String(first.refresh_token));
    expect(lost.status).toBe(200);
    const replays = [];
    for (let i = 1; i <= 3; i++) replays.push(await refresh(pick(i), String(first.refresh_token)));
    for (const retry of replays) {
      expect(retry.status).toBe(200);
      expect(retry.body.refresh_token).toBe(lost.body.refresh_token);
      expect(retry.body.access_token).toBe(lost.body.access_token);
      expect(retry.body.token_type).toBe('Bearer');
      expect(Number(retry.body.expires_in)).toBeGreaterThan(0);
      expect(Number(retry.body.expires_in)).toBeLessThanOrEqual(Number(lost.body.expires_in));
      expect(retry.body.scope).toBe(lost.body.scope);
    }
    expect(await viewerStatus(pick(0), String(lost.body.access_token))).toBe(200);
    // One chain: its successor moves it on; the next use of a stale token after the window is reuse.
    const moved = await refresh(pick(1), String(lost.body.refresh_token));
    expect(moved.status).toBe(200);
    await sleep((GRACE + 1.2) * 1000);
    const stale = await refresh(pick(0), String(lost.body.refresh_token));
    expect(stale.status).toBe(400);
    expect(stale.body.error).toBe('invalid_grant');
    // The whole grant is gone: every refresh token and every access token of the chain is refused.
    expect((await refresh(pick(1), String(moved.body.refresh_token))).body.error).toBe('invalid_grant');
    expect((await refresh(pick(0), String(first.refresh_token))).body.error).toBe('invalid_grant');
    for (const access of [lost.body.access_token, moved.body.access_token])
      expect(await viewerStatus(pick(1), String(access))).toBe(401);
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
  graceWindowRules(
    () => [server.baseUrl],
    () => server.baseUrl,
  );
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
    const env = {
      REDIS_URL: TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
      DATABASE_URL: database.url,
      BASE_URL: issuer,
      REFRESH_GRACE_SECONDS: String(GRACE),
    };
    a = await startTestServer(env, undefined, portA);
    b = await startTestServer(env);
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
    await deleteRedisPrefix(TEST_REDIS_URL!, prefix);
  });
  graceWindowRules(
    () => [`http://127.0.0.1:${a.port}`, `http://127.0.0.1:${b.port}`],
    () => issuer,
  );
});
