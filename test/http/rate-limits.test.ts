/**
 * DESIGN.md D7 limits: 429 + Retry-After + `{"error":"too_many_requests"}` keyed by client_id
 * (token, revocation, introspection), by account + IP (failed logins, shown on the login page),
 * by IP (registration); bodies over 64 KiB → 413. With Redis, the counters hold across processes.
 */
import { startTestServer, freePort, type TestServer } from '../helpers/server.js';
import { CookieJar, parseForm } from '../helpers/user-agent.js';
import { pkcePair } from '../helpers/pkce.js';
import { postForm, MEMBER_CLIENT, REDIRECT_URI } from '../helpers/flows.js';
import { TEST_REDIS_URL, deleteRedisPrefix, describeWith, randomPrefix } from '../helpers/services.js';

const LIMITS = {
  RATE_LIMIT_TOKEN: '3/60',
  RATE_LIMIT_REVOCATION: '2/60',
  RATE_LIMIT_INTROSPECTION: '2/60',
  RATE_LIMIT_REGISTRATION: '2/60',
  RATE_LIMIT_LOGIN_FAILURES: '2/60',
};

const badGrant = (clientId: string) => ({
  grant_type: 'authorization_code',
  code: 'nope',
  code_verifier: 'x'.repeat(43),
  redirect_uri: REDIRECT_URI,
  client_id: clientId,
});

function expect429(res: { status: number; body: Record<string, unknown>; headers: Headers }) {
  expect(res.status).toBe(429);
  expect(res.body.error).toBe('too_many_requests');
  expect(typeof res.body.error_description).toBe('string');
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(res.headers.get('cache-control')).toBe('no-store');
}

/** Opens the login page of a fresh authorization request; returns the form and the cookie jar. */
async function loginPage(origin: string) {
  const jar = new CookieJar();
  const url = new URL('/oauth/authorize', origin);
  url.search = new URLSearchParams({
    client_id: MEMBER_CLIENT,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    resource: origin,
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    state: 'st', // SPEC §4.2: required
  }).toString();
  let res = await fetch(url, { redirect: 'manual' });
  jar.store(res);
  const page = new URL(res.headers.get('location')!, origin);
  res = await fetch(page, { headers: { cookie: jar.header() } });
  jar.store(res);
  return { jar, form: parseForm(await res.text()), page };
}

async function submitLogin(origin: string, email: string, password: string) {
  const { jar, form, page } = await loginPage(origin);
  const res = await fetch(new URL(form.action, page), {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form.hidden, email, password }).toString(),
  });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

describe('DESIGN D7 limits (one process, in-memory counters)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(LIMITS);
  });
  afterAll(() => server.close());

  test('token endpoint: keyed by client_id (form field and HTTP Basic), not by IP', async () => {
    for (let i = 0; i < 3; i++)
      expect((await postForm(server.baseUrl, '/api/oauth/token', badGrant('client-a'))).status).toBe(401);
    expect429(await postForm(server.baseUrl, '/api/oauth/token', badGrant('client-a')));
    // Same IP, another client: its own budget.
    expect((await postForm(server.baseUrl, '/api/oauth/token', badGrant('client-b'))).status).toBe(401);
    // HTTP Basic credentials name the client too (RFC 6749 §2.3.1).
    const basic = { authorization: `Basic ${Buffer.from('client-a:secret').toString('base64')}` };
    const { client_id: _drop, ...noClientId } = badGrant('x');
    expect429(await postForm(server.baseUrl, '/api/oauth/token', noClientId, basic));
  });

  test('revocation and introspection: keyed by client_id', async () => {
    for (const path of ['/api/oauth/revoke', '/api/oauth/introspect']) {
      const form = { token: 'whatever', client_id: `client-${path}` };
      for (let i = 0; i < 2; i++) expect((await postForm(server.baseUrl, path, form)).status).not.toBe(429);
      expect429(await postForm(server.baseUrl, path, form));
      expect((await postForm(server.baseUrl, path, { ...form, client_id: 'fresh' })).status).not.toBe(429);
    }
  });

  test('the form field names the client under any spelling of the form type, and only in a form body', async () => {
    // Media types are case-insensitive and may carry parameters (RFC 9110 §8.3.1); each spelling is
    // sent three times (a cache of type-is's answer per Content-Type value was tried in issue #15).
    const path = '/api/oauth/introspect';
    const spellings = ['application/x-www-form-urlencoded; charset=UTF-8', 'Application/X-WWW-Form-Urlencoded'];
    for (const [i, type] of spellings.entries()) {
      const form = { token: 'whatever', client_id: `client-typed-${i}` };
      for (let n = 0; n < 2; n++)
        expect((await postForm(server.baseUrl, path, form, { 'content-type': type })).status).not.toBe(429);
      expect429(await postForm(server.baseUrl, path, form, { 'content-type': type }));
    }
    // A JSON body is not a form: its client_id spends nothing of that client's budget.
    const json = (clientId: string) =>
      fetch(new URL(path, server.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: 'whatever', client_id: clientId }),
      });
    for (let n = 0; n < 3; n++) await (await json('client-json')).text();
    expect((await postForm(server.baseUrl, path, { token: 'whatever', client_id: 'client-json' })).status).not.toBe(
      429,
    );
  });

  test('registration: keyed by IP', async () => {
    const register = () =>
      fetch(`${server.baseUrl}/api/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9999/cb'], token_endpoint_auth_method: 'none' }),
      }).then(async (r) => ({
        status: r.status,
        headers: r.headers,
        body: (await r.json()) as Record<string, unknown>,
      }));
    for (let i = 0; i < 2; i++) expect((await register()).status).not.toBe(429);
    expect429(await register());
  });

  test('failed logins: account + IP locked out with a message on the login page', async () => {
    for (let i = 0; i < 2; i++)
      expect((await submitLogin(server.baseUrl, 'student@demo.test', 'wrong')).status).toBe(401);
    // Even the right password is refused while locked out; the page says why.
    const locked = await submitLogin(server.baseUrl, 'student@demo.test', 'demo-password-for-tests');
    expect(locked.status).toBe(429);
    expect(locked.headers.get('content-type')).toMatch(/html/);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.body).toMatch(/Too many failed sign-in attempts for this account/);
    expect(locked.body).toContain('name="password"');
    // Another account from the same IP is not affected.
    expect((await submitLogin(server.baseUrl, 'owner@demo.test', 'demo-password-for-tests')).status).toBe(303);
  });

  test('bodies over 64 KiB → 413 with an RFC 6749 error body, declared or chunked', async () => {
    const big = 'x'.repeat(70 * 1024);
    const declared = await postForm(server.baseUrl, '/api/oauth/token', { ...badGrant('client-z'), pad: big });
    expect(declared.status).toBe(413);
    expect(declared.body.error).toBe('invalid_request');
    const chunked = await fetch(`${server.baseUrl}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(`client_id=c&pad=${big}`));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { error: string }).error).toBe('invalid_request');
  });

  test('429s are counted in /metrics', async () => {
    const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
    expect(text).toMatch(/coursegate_rate_limited_total\{limit="token"\} [1-9]/);
  });
});

describeWith('redis')('DESIGN D7 limits hold across processes (Redis counters)', () => {
  let a: TestServer;
  let b: TestServer;
  const prefix = randomPrefix();
  beforeAll(async () => {
    const portA = await freePort();
    const env = {
      REDIS_URL: TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_TOKEN: '4/60',
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

  test('2 requests at A + 2 at B exhaust one client’s budget at both', async () => {
    const origins = [`http://127.0.0.1:${a.port}`, `http://127.0.0.1:${b.port}`];
    for (const o of [...origins, ...origins])
      expect((await postForm(o, '/api/oauth/token', badGrant('shared'))).status).toBe(401);
    for (const o of origins) expect429(await postForm(o, '/api/oauth/token', badGrant('shared')));
  });
});
