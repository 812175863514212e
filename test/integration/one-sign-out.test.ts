/**
 * DESIGN D14 "one sign-out": a browser signed in through the authorization pages holds two sessions,
 * oidc-provider's (`_session`) and the people's pages' (`cg_web`: `/admin`, `/account/connections`).
 * Ending either ends both, over real HTTP:
 * - RP-initiated logout (`/api/oauth/logout`, "Yes, sign me out") ends the web session too;
 * - "No, stay signed in" ends neither;
 * - signing out on the web pages (`POST /signout`) ends the OpenID Provider session too.
 */
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { CookieJar, completeAuthorization } from '../helpers/user-agent.js';
import { MEMBER_CLIENT, REDIRECT_URI } from '../helpers/flows.js';
import { pkcePair, randomString } from '../helpers/pkce.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(() => server?.close());

function authorizeUrl(): URL {
  const url = new URL('/oauth/authorize', server.baseUrl);
  url.search = new URLSearchParams({
    client_id: MEMBER_CLIENT,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: 'openid account:read',
    resource: server.baseUrl,
    state: randomString(8),
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
  }).toString();
  return url;
}

/** A browser signed in through the authorization pages: both sessions live. */
async function signedInBrowser(): Promise<CookieJar> {
  const jar = new CookieJar();
  const { visits } = await completeAuthorization(
    authorizeUrl(),
    { email: 'owner@demo.test', password: DEMO_PASSWORD },
    jar,
  );
  expect(visits.some((v) => v.body.includes('name="password"'))).toBe(true);
  expect(await webStatus(jar)).toBe(200);
  expect(await opSessionLive(jar)).toBe(true);
  return jar;
}

async function get(jar: CookieJar, path: string | URL) {
  const res = await fetch(new URL(path, server.baseUrl), { redirect: 'manual', headers: { cookie: jar.header() } });
  jar.store(res);
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

/** The status of `/account/connections` (200: the web session is live; 302 to sign-in: it is not). */
const webStatus = async (jar: CookieJar) => (await get(jar, '/account/connections')).status;

/** Whether an authorization resumes without asking for a password (the OP session is live). */
async function opSessionLive(jar: CookieJar): Promise<boolean> {
  let next: string = authorizeUrl().href;
  for (let step = 0; step < 10; step++) {
    const res = await get(jar, next);
    if (!res.location) return !res.body.includes('name="password"');
    next = new URL(res.location, next).href;
  }
  throw new Error('too many redirects');
}

/** Opens RP-initiated logout and answers its confirmation page (`yes`: "Yes, sign me out"). */
async function logout(jar: CookieJar, answer: 'yes' | 'no') {
  const page = await get(jar, '/api/oauth/logout');
  expect(page.status).toBe(200);
  expect(page.body).toContain('Yes, sign me out');
  const action = /<form id="op\.logoutForm" method="post" action="([^"]+)"/.exec(page.body)![1]!;
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)![1]!;
  const fields = new URLSearchParams({ xsrf, ...(answer === 'yes' ? { logout: 'yes' } : {}) });
  const res = await fetch(new URL(action, server.baseUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
  });
  jar.store(res);
  await res.arrayBuffer();
  expect(res.status).toBe(303);
}

describe('DESIGN D14: one sign-out', () => {
  test('RP-initiated logout, "Yes, sign me out": the web session ends too', async () => {
    const jar = await signedInBrowser();
    await logout(jar, 'yes');
    expect(await webStatus(jar)).toBe(302);
    expect(await opSessionLive(jar)).toBe(false);
    // Not just the cookie: the web session is ended server-side.
    const admin = await get(jar, '/admin/demo');
    expect(admin.status).toBe(302);
    expect(admin.location).toMatch(/^\/signin/);
  });

  test('RP-initiated logout, "No, stay signed in": both sessions stay', async () => {
    const jar = await signedInBrowser();
    await logout(jar, 'no');
    expect(await webStatus(jar)).toBe(200);
  });

  test('signing out on the web pages ends the OpenID Provider session too', async () => {
    const jar = await signedInBrowser();
    const csrf = /name="csrf" value="([^"]+)"/.exec((await get(jar, '/')).body)![1]!;
    const res = await fetch(new URL('/signout', server.baseUrl), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf }).toString(),
    });
    jar.store(res);
    expect(res.status).toBe(303);
    expect(await webStatus(jar)).toBe(302);
    expect(await opSessionLive(jar)).toBe(false);
  });
});
