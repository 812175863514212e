/**
 * Issue #14, "one outage answer on every surface": while the platform store (a PRIVATE PostgreSQL
 * started by this file, never the machine's own) is down, every surface that needs it answers 503
 * with `Retry-After` in its own shape, and nothing is signed out:
 *
 * - OAuth endpoints (RFC 6749 §5.2 JSON, `temporarily_unavailable`): a refresh,
 * - the admin API (RFC 9457 `application/problem+json`),
 * - `/account/graphql` and `/mcp` (an HTTP 503, never a 200 carrying an error),
 * - pages for people (an HTML page): the interaction login form.
 *
 * When the database is back, the same refresh token still works (the failed refresh left the grant
 * as it was) and the admin API answers again.
 */
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { memberToken } from '../helpers/member-token.js';
import { authorizeMember, redeemCode, refresh, MEMBER_CLIENT, REDIRECT_URI } from '../helpers/flows.js';
import { CookieJar, parseForm } from '../helpers/user-agent.js';
import { pkcePair, randomString } from '../helpers/pkce.js';
import { findBinary, startPrivatePostgres, type PrivateService } from '../services/global-setup.js';

const can = Boolean(findBinary('pg_ctl') && findBinary('initdb'));
const d = can ? describe : describe.skip;
if (!can && process.env.COURSEGATE_REQUIRE_SERVICES)
  throw new Error('PostgreSQL server binaries (initdb, pg_ctl) are required');

let pg: PrivateService;
let server: TestServer;
let base: string;
let operator: string;
let member: string;
let refreshToken: string;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

d('issue #14: a platform-store outage answers 503 in the shape of each surface', () => {
  beforeAll(async () => {
    pg = await startPrivatePostgres();
    server = await startTestServer({ DATABASE_URL: pg.url });
    base = server.baseUrl;
    const reg = await fetch(`${base}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'outage script',
        redirect_uris: ['http://127.0.0.1/callback'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const clientId = ((await reg.json()) as { client_id: string }).client_id;
    operator = await memberToken({
      baseUrl: base,
      email: 'owner@demo.test',
      clientId,
      scope: 'openid school:read',
      site: 'demo',
    });
    const issued = await redeemCode(base, base, await authorizeMember(base, base, 'openid account:read'));
    const tokens = issued.body as { access_token: string; refresh_token: string };
    member = tokens.access_token;
    refreshToken = tokens.refresh_token;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await pg?.stop();
  });

  test('every surface answers 503 + Retry-After while PostgreSQL is down, and recovers with nobody signed out', async () => {
    // A person's login form, opened before the outage.
    const jar = new CookieJar();
    const { challenge } = pkcePair();
    const authorize = new URL('/oauth/authorize', base);
    authorize.search = new URLSearchParams({
      client_id: MEMBER_CLIENT,
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      scope: 'openid account:read',
      resource: base,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: randomString(),
      nonce: randomString(),
    }).toString();
    let page = await fetch(authorize, { redirect: 'manual' });
    jar.store(page);
    page = await fetch(new URL(page.headers.get('location')!, base), {
      headers: { cookie: jar.header() },
      redirect: 'manual',
    });
    jar.store(page);
    const loginForm = parseForm(await page.text());

    await pg.stop({ keepDir: true });
    try {
      const admin = await fetch(`${base}/api/v1/site`, { headers: { authorization: `Bearer ${operator}` } });
      expect(admin.status).toBe(503);
      expect(admin.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(admin.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await admin.json()).toMatchObject({
        status: 503,
        error: 'temporarily_unavailable',
        detail: 'a backing store is unreachable; retry shortly',
      });

      const graphql = await fetch(`${base}/account/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${member}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ viewer { id } }' }),
      });
      expect(graphql.status).toBe(503);
      expect(graphql.headers.get('retry-after')).toMatch(/^\d+$/);

      const mcp = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${member}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'my_enrollments', arguments: {} },
        }),
      });
      expect(mcp.status).toBe(503);
      expect(mcp.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await mcp.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'a backing store is unreachable; retry shortly' },
        id: null,
      });

      const refused = await refresh(base, refreshToken);
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({
        error: 'temporarily_unavailable',
        error_description: 'a backing store is unreachable; retry shortly',
      });

      const fields = new URLSearchParams(loginForm.hidden);
      fields.set('email', 'student@demo.test');
      fields.set('password', DEMO_PASSWORD);
      const login = await fetch(new URL(loginForm.action, base), {
        method: 'POST',
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body: fields.toString(),
        redirect: 'manual',
      });
      expect(login.status).toBe(503);
      expect(login.headers.get('content-type')).toMatch(/^text\/html/);
      expect(login.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await login.text()).not.toMatch(/\n\s+at\s/);
    } finally {
      await pg.restart!();
    }

    // Back by itself once the database is: the admin API answers and the same refresh token works.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await fetch(`${base}/api/v1/site`, { headers: { authorization: `Bearer ${operator}` } })).status;
      if (status !== 200) await sleep(100);
    }
    expect(status).toBe(200);
    const renewed = await refresh(base, refreshToken);
    expect(renewed.status).toBe(200);
    expect(renewed.body).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });
  }, 60_000);
});
