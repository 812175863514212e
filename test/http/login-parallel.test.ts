/**
 * DESIGN D7 / issue #9: the failed-login limit reserves a point before the password check, so
 * parallel requests cannot pass it. 40 parallel sign-ins for one account from one address, one of
 * them with the right password: no more reach the password check than the limit allows, and the
 * right password is refused once the limit is spent. Same on Redis across two processes.
 */
import { startTestServer, freePort, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { CookieJar, parseForm } from '../helpers/user-agent.js';
import { pkcePair } from '../helpers/pkce.js';
import { MEMBER_CLIENT, REDIRECT_URI } from '../helpers/flows.js';
import { TEST_REDIS_URL, deleteRedisPrefix, describeWith, randomPrefix } from '../helpers/services.js';

const LIMIT = 5;
const ATTEMPTS = 40;
const RIGHT = 17;

/** Opens a login page at `origin`; returns a function that submits it. */
async function openLogin(origin: string, resource: string) {
  const jar = new CookieJar();
  const url = new URL('/oauth/authorize', origin);
  url.search = new URLSearchParams({
    client_id: MEMBER_CLIENT,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    resource,
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    state: `st-${Math.random().toString(36).slice(2)}`,
  }).toString();
  let res = await fetch(url, { redirect: 'manual' });
  jar.store(res);
  const page = new URL(res.headers.get('location')!, origin);
  res = await fetch(page, { headers: { cookie: jar.header() } });
  jar.store(res);
  const form = parseForm(await res.text());
  return async (password: string): Promise<number> => {
    const answer = await fetch(new URL(form.action, page), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form.hidden, email: 'student@demo.test', password }).toString(),
    });
    await answer.arrayBuffer();
    return answer.status;
  };
}

/** Fires the 40 attempts at once (spread over `origins`; the first is BASE_URL), then one more with the right password. */
async function burst(origins: string[]) {
  const submits = await Promise.all(
    Array.from({ length: ATTEMPTS + 1 }, (_, i) => openLogin(origins[i % origins.length]!, origins[0]!)),
  );
  const statuses = await Promise.all(
    submits.slice(0, ATTEMPTS).map((submit, i) => submit(i === RIGHT ? DEMO_PASSWORD : 'wrong-password')),
  );
  const count = (status: number) => statuses.filter((s) => s === status).length;
  const after = await submits[ATTEMPTS]!(DEMO_PASSWORD);
  return { statuses, reached: count(401) + count(303), limited: count(429), after };
}

function expectHeld(result: Awaited<ReturnType<typeof burst>>) {
  // 401: a wrong password reached the check; 303: the right one did and signed in; 429: refused before it.
  expect(result.statuses.every((s) => s === 401 || s === 303 || s === 429)).toBe(true);
  expect(result.reached).toBeLessThanOrEqual(LIMIT);
  expect(result.limited).toBeGreaterThanOrEqual(ATTEMPTS - LIMIT);
  // Once the limit is spent, even the right password is refused.
  expect(result.after).toBe(429);
}

describe('DESIGN D7: failed-login limit under 40 parallel attempts (one process)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_LOGIN_FAILURES: `${LIMIT}/900` });
  });
  afterAll(() => server.close());

  test('no more than the limit reach the password check', async () => {
    expectHeld(await burst([server.baseUrl]));
  });
});

describeWith('redis')('DESIGN D7: failed-login limit under 40 parallel attempts, two processes on Redis', () => {
  let a: TestServer;
  let b: TestServer;
  const prefix = randomPrefix();
  beforeAll(async () => {
    const portA = await freePort();
    const env = {
      REDIS_URL: TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_LOGIN_FAILURES: `${LIMIT}/900`,
      BASE_URL: `http://127.0.0.1:${portA}`,
    };
    a = await startTestServer(env, undefined, portA);
    b = await startTestServer(env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await deleteRedisPrefix(TEST_REDIS_URL!, prefix);
  });

  test('no more than the limit reach the password check across both processes', async () => {
    expectHeld(await burst([`http://127.0.0.1:${a.port}`, `http://127.0.0.1:${b.port}`]));
  });
});
