/**
 * SPEC §5.7 (protected-resource behaviour) and §7 (errors), over raw HTTP: every rule answers
 * with its status, RFC error code, `error_description` and, for resources, `WWW-Authenticate`.
 */
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { completeAuthorization } from '../helpers/user-agent.js';
import { pkcePair, randomString } from '../helpers/pkce.js';

let server: TestServer;
let base: string;
const REDIRECT = 'http://127.0.0.1:61000/callback';

beforeAll(async () => {
  server = await startTestServer({ REFRESH_GRACE_SECONDS: '0' });
  base = server.baseUrl;
});
afterAll(() => server.close());

function authorizeUrl(params: Record<string, string | undefined>): string {
  const url = new URL(`${base}/oauth/authorize`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

/** Runs the member flow up to the code; returns what the token request needs. */
async function memberCode(scope = 'openid profile email account:read account:write') {
  const { verifier, challenge } = pkcePair();
  const state = randomString(8);
  const { callback } = await completeAuthorization(
    authorizeUrl({
      response_type: 'code',
      client_id: 'demo-member-cli',
      redirect_uri: REDIRECT,
      scope,
      resource: base,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
      nonce: randomString(8),
    }),
    { email: 'student@demo.test', password: DEMO_PASSWORD },
  );
  return { code: callback.searchParams.get('code')!, verifier, callback };
}

async function token(form: Record<string, string>) {
  const res = await fetch(`${base}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as Record<string, any> };
}

async function memberTokens(scope?: string) {
  const { code, verifier } = await memberCode(scope);
  const res = await token({
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: 'demo-member-cli',
    redirect_uri: REDIRECT,
    resource: base,
  });
  expect(res.status).toBe(200);
  return res.body as { access_token: string; refresh_token: string; id_token?: string };
}

function graphql(headers: Record<string, string>, query = '{ viewer { id } }') {
  return fetch(`${base}/account/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
}

const PRM = () => `resource_metadata="${base}/.well-known/oauth-protected-resource"`;

describe('SPEC 5.7 protected-resource behaviour (/account/graphql)', () => {
  test('no token → 401 invalid_token with WWW-Authenticate pointing at the metadata', async () => {
    const res = await graphql({});
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain(PRM());
    expect(await res.json()).toMatchObject({ error: 'invalid_token', error_description: expect.any(String) });
  });

  test('unknown token → 401 invalid_token', async () => {
    const res = await graphql({ authorization: `Bearer ${randomString(32)}` });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(res.headers.get('www-authenticate')).toContain(PRM());
  });

  test('DESIGN D4: every 401 names scope="account:read" and links the docs (error_uri), whatever the cause', async () => {
    for (const headers of [
      {},
      { authorization: `Bearer ${randomString(32)}` },
      { authorization: 'Basic dXNlcjpwYXNz' },
    ] as Array<Record<string, string>>) {
      const res = await graphql(headers);
      expect(res.status).toBe(401);
      const challenge = res.headers.get('www-authenticate')!;
      expect(challenge).toContain('scope="account:read"');
      expect(challenge).toContain(`error_uri="${server.config.docsUrl}/account-api.md#`);
      expect(challenge).not.toMatch(/SPEC|§/);
    }
  });

  test('malformed Authorization header → 401 invalid_token', async () => {
    for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', `Bearer ${'x'.repeat(5000)}`]) {
      const res = await graphql({ authorization: header });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
  });

  test('a JWT-looking forged token (alg none) → 401 invalid_token', async () => {
    const forged = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(`{"aud":"${base}","scope":"account:read"}`).toString('base64url')}.`;
    const res = await graphql({ authorization: `Bearer ${forged}` });
    expect(res.status).toBe(401);
  });

  test('token without account:read → 403 insufficient_scope with scope=', async () => {
    const { access_token } = await memberTokens('openid profile');
    const res = await graphql({ authorization: `Bearer ${access_token}` });
    expect(res.status).toBe(403);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="account:read"');
    expect(challenge).toContain(PRM());
    expect(await res.json()).toMatchObject({ error: 'insufficient_scope' });
  });

  test('a valid member token → 200', async () => {
    const { access_token } = await memberTokens();
    const res = await graphql({ authorization: `Bearer ${access_token}` });
    expect(res.status).toBe(200);
    expect((await res.json()).data.viewer.id).toBe('usr_student');
  });

  test('UserInfo: no token → 401 with challenge; valid resource-bound token → claims', async () => {
    const none = await fetch(`${base}/api/oauth/userinfo`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain(PRM());
    const { access_token } = await memberTokens();
    const ok = await fetch(`${base}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      sub: 'usr_student',
      email: 'student@demo.test',
      email_verified: true,
      name: 'Sam Student',
      org_id: 'demo',
      roles: ['student'],
    });
  });
});

describe('SPEC 5.6 resource binding and SPEC 4.2 token request rules', () => {
  test('member client without resource at /authorize → error redirect invalid_target with iss', async () => {
    const { challenge } = pkcePair();
    const res = await fetch(
      authorizeUrl({
        response_type: 'code',
        client_id: 'demo-member-cli',
        redirect_uri: REDIRECT,
        scope: 'openid account:read',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 's1',
      }),
      { redirect: 'manual' },
    );
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe('invalid_target');
    expect(location.searchParams.get('iss')).toBe(base);
    expect(location.searchParams.get('state')).toBe('s1');
  });

  test('a foreign resource at /authorize → invalid_target', async () => {
    const { challenge } = pkcePair();
    const res = await fetch(
      authorizeUrl({
        response_type: 'code',
        client_id: 'demo-member-cli',
        redirect_uri: REDIRECT,
        scope: 'account:read',
        resource: 'https://evil.example/',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 's2',
      }),
      { redirect: 'manual' },
    );
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_target');
  });

  test('missing PKCE → invalid_request; plain method → invalid_request', async () => {
    for (const extra of [{}, { code_challenge: 'abc'.repeat(15), code_challenge_method: 'plain' }]) {
      const res = await fetch(
        authorizeUrl({
          response_type: 'code',
          client_id: 'demo-member-cli',
          redirect_uri: REDIRECT,
          scope: 'account:read',
          resource: base,
          state: 's',
          ...extra,
        }),
        {
          redirect: 'manual',
        },
      );
      const location = new URL(res.headers.get('location')!);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('error_description')).toBeTruthy();
    }
  });

  test('unregistered redirect_uri → HTML error page, never a redirect', async () => {
    const { challenge } = pkcePair();
    for (const redirect of [
      'https://evil.example/callback',
      'http://127.0.0.1:61000/callback/extra',
      'http://127.0.0.1.evil.example/callback',
    ]) {
      const res = await fetch(
        authorizeUrl({
          response_type: 'code',
          client_id: 'demo-member-cli',
          redirect_uri: redirect,
          scope: 'account:read',
          resource: base,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state: 's',
        }),
        { redirect: 'manual' },
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html).toContain('redirect_uri');
      expect(html).not.toMatch(/at .*\.js:\d+/); // no stack trace
    }
  });

  test('unknown client at /authorize → HTML error page (invalid_client), no redirect', async () => {
    const res = await fetch(
      authorizeUrl({ response_type: 'code', client_id: 'nobody', redirect_uri: REDIRECT, scope: 'openid' }),
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('invalid_client');
  });

  test('wrong PKCE verifier → invalid_grant', async () => {
    const { code } = await memberCode();
    const res = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: pkcePair().verifier,
      client_id: 'demo-member-cli',
      redirect_uri: REDIRECT,
      resource: base,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_grant', error_description: expect.any(String) });
    expect(res.headers.get('cache-control')).toContain('no-store');
  });

  test('member client without resource at /token → invalid_target (must repeat)', async () => {
    const { code, verifier } = await memberCode();
    const res = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: 'demo-member-cli',
      redirect_uri: REDIRECT,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_target');
  });

  test('wrong resource at /token → invalid_target', async () => {
    const { code, verifier } = await memberCode();
    const res = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: 'demo-member-cli',
      redirect_uri: REDIRECT,
      resource: 'https://other.example',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_target');
  });

  test('wrong redirect_uri at /token → invalid_grant', async () => {
    const { code, verifier } = await memberCode();
    const res = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: 'demo-member-cli',
      redirect_uri: 'http://127.0.0.1:61000/other',
      resource: base,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  test('unknown client at /token → 401 invalid_client', async () => {
    const res = await token({
      grant_type: 'authorization_code',
      code: 'x',
      code_verifier: pkcePair().verifier,
      client_id: 'nobody',
      redirect_uri: REDIRECT,
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });

  test('malformed token requests → invalid_request, never 500', async () => {
    const cases: Array<[string, string]> = [
      ['application/x-www-form-urlencoded', ''],
      ['application/x-www-form-urlencoded', 'grant_type=authorization_code&client_id=demo-member-cli'],
      [
        'application/x-www-form-urlencoded',
        'grant_type=authorization_code&grant_type=refresh_token&client_id=demo-member-cli',
      ],
      ['application/x-www-form-urlencoded', '%%%&&&==='],
      ['application/json', '{"grant_type":"authorization_code"}'],
      ['text/plain', 'hello'],
    ];
    for (const [type, body] of cases) {
      const res = await fetch(`${base}/api/oauth/token`, { method: 'POST', headers: { 'content-type': type }, body });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      const json = (await res.json()) as Record<string, string>;
      expect(typeof json.error).toBe('string');
      expect(typeof json.error_description).toBe('string');
    }
  });

  test('grant types other than authorization_code and refresh_token → unsupported_grant_type (SPEC §5.5: no ID-JAG)', async () => {
    for (const grant of [
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
      'client_credentials',
      'password',
      'urn:ietf:params:oauth:grant-type:token-exchange',
      'implicit',
    ]) {
      const res = await token({
        grant_type: grant,
        client_id: 'demo-member-cli',
        assertion: 'eyJhbGciOiJub25lIn0.e30.',
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('unsupported_grant_type');
    }
  });

  test('DESIGN D3: reuse of a rotated refresh token → invalid_grant and the whole grant is revoked', async () => {
    const first = await memberTokens();
    const second = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: 'demo-member-cli',
    });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.id_token).toBeUndefined();
    const reuse = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: 'demo-member-cli',
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    expect((await graphql({ authorization: `Bearer ${second.body.access_token}` })).status).toBe(401);
    const next = await token({
      grant_type: 'refresh_token',
      refresh_token: second.body.refresh_token,
      client_id: 'demo-member-cli',
    });
    expect(next.body.error).toBe('invalid_grant');
  });

  test('introspection shows the audience binding and the site (RFC 7662)', async () => {
    const { access_token } = await memberTokens();
    const res = await fetch(`${base}/api/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: access_token, client_id: 'demo-member-cli' }).toString(),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      active: true,
      aud: base,
      iss: base,
      sub: 'usr_student',
      client_id: 'demo-member-cli',
      org_id: 'demo',
      scope: 'account:read account:write',
      token_type: 'Bearer',
    });
  });

  test('revocation answers 200 for an unknown token (RFC 7009 §2.2) and invalid_client for an unknown client', async () => {
    const ok = await fetch(`${base}/api/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=nothing&client_id=demo-member-cli',
    });
    expect(ok.status).toBe(200);
    const bad = await fetch(`${base}/api/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=nothing&client_id=nobody',
    });
    expect(bad.status).toBe(401);
    expect((await bad.json()).error).toBe('invalid_client');
  });
});

describe('interaction pages: malformed forms and headers', () => {
  test('login and consent pages send CSP with frame-ancestors, no-store, HttpOnly SameSite cookies', async () => {
    const { challenge } = pkcePair();
    const res = await fetch(
      authorizeUrl({
        response_type: 'code',
        client_id: 'demo-member-cli',
        redirect_uri: REDIRECT,
        scope: 'account:read',
        resource: base,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 's',
      }),
      { redirect: 'manual' },
    );
    const cookies = res.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const c of cookies) {
      expect(c.toLowerCase()).toContain('httponly');
      expect(c.toLowerCase()).toContain('samesite=lax');
    }
    const page = await fetch(new URL(res.headers.get('location')!, base), {
      headers: { cookie: cookies.map((c) => c.split(';')[0]).join('; ') },
    });
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(page.headers.get('cache-control')).toContain('no-store');
    expect(await page.text()).toContain('name="password"');
  });

  test('POST without the interaction cookie or with a bad CSRF token → error page, no 500', async () => {
    const { challenge } = pkcePair();
    const res = await fetch(
      authorizeUrl({
        response_type: 'code',
        client_id: 'demo-member-cli',
        redirect_uri: REDIRECT,
        scope: 'account:read',
        resource: base,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 's',
      }),
      { redirect: 'manual' },
    );
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const loginUrl = new URL(`${res.headers.get('location')}/login`, base).href;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const noCookie = await fetch(loginUrl, { method: 'POST', headers: form, body: 'email=a&password=b&csrf=x' });
    expect(noCookie.status).toBe(400);
    const badCsrf = await fetch(loginUrl, {
      method: 'POST',
      headers: { ...form, cookie },
      body: 'email=student%40demo.test&password=x&csrf=forged',
    });
    expect(badCsrf.status).toBe(403);
    const garbage = await fetch(loginUrl, { method: 'POST', headers: { ...form, cookie }, body: '%E0%A4%A' });
    expect(garbage.status).toBeLessThan(500);
    const huge = await fetch(loginUrl, {
      method: 'POST',
      headers: { ...form, cookie },
      body: `email=${'a'.repeat(70 * 1024)}`,
    });
    expect(huge.status).toBe(413);
  });

  test('DESIGN D8: an unknown, expired or mismatched interaction uid → readable HTML error page, 400, never 200', async () => {
    const { challenge } = pkcePair();
    const start = await fetch(
      authorizeUrl({
        response_type: 'code',
        client_id: 'demo-member-cli',
        redirect_uri: REDIRECT,
        scope: 'account:read',
        resource: base,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 's',
      }),
      { redirect: 'manual' },
    );
    const cookie = start.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const live = new URL(start.headers.get('location')!, base).href;
    const csrf = /name="csrf" value="([^"]+)"/.exec(await (await fetch(live, { headers: { cookie } })).text())![1]!;
    const unknown = `${base}/interaction/${randomString(21)}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const body = new URLSearchParams({
      csrf,
      email: 'student@demo.test',
      password: DEMO_PASSWORD,
      org_id: 'demo',
      decision: 'approve',
    }).toString();
    const cases: Array<[string, RequestInit]> = [
      [unknown, {}], // no cookie
      [unknown, { headers: { cookie } }], // another interaction's live cookie
      [`${unknown}/login`, { method: 'POST', headers: { ...form, cookie }, body }],
      [`${unknown}/site`, { method: 'POST', headers: { ...form, cookie }, body }],
      [`${unknown}/consent`, { method: 'POST', headers: { ...form, cookie }, body }],
      [live, { headers: { cookie: cookie.replace(/(^|; )_interaction=[^;]*/, `$1_interaction=${randomString(21)}`) } }], // expired / forged cookie
    ];
    for (const [url, init] of cases) {
      const res = await fetch(url, { redirect: 'manual', ...init });
      const html = await res.text();
      expect([url, init.method ?? 'GET', res.status]).toEqual([url, init.method ?? 'GET', 400]);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('location')).toBeNull();
      expect(html).toContain('This sign-in session has expired');
      expect(html).not.toContain('name="password"');
    }
    // The live interaction is untouched: its own uid still shows the login form.
    expect((await fetch(live, { headers: { cookie } })).status).toBe(200);
  });

  test('wrong password shows the login form again with a message (401), nothing issued', async () => {
    const { challenge } = pkcePair();
    const start = await fetch(
      authorizeUrl({
        response_type: 'code',
        client_id: 'demo-member-cli',
        redirect_uri: REDIRECT,
        scope: 'account:read',
        resource: base,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 's',
      }),
      { redirect: 'manual' },
    );
    const cookie = start.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const pageUrl = new URL(start.headers.get('location')!, base).href;
    const page = await (await fetch(pageUrl, { headers: { cookie } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    const res = await fetch(`${pageUrl}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ csrf, email: 'student@demo.test', password: 'wrong' }).toString(),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    expect(html).toContain('Wrong e-mail or password.');
    expect(html).toContain('value="student@demo.test"');
    expect(html).not.toContain('value="wrong"');
  });

  test('deny on the consent page → access_denied redirect with iss and state', async () => {
    const { challenge } = pkcePair();
    const { callback } = await completeAuthorization(
      authorizeUrl({
        response_type: 'code',
        client_id: 'demo-member-cli',
        redirect_uri: REDIRECT,
        scope: 'account:read',
        resource: base,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'st',
      }),
      { email: 'student@demo.test', password: DEMO_PASSWORD, decision: 'deny' },
    );
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('iss')).toBe(base);
    expect(callback.searchParams.get('state')).toBe('st');
  });

  test('a user with no role at the member client’s site → access_denied (DESIGN D2)', async () => {
    const { challenge } = pkcePair();
    const { callback } = await completeAuthorization(
      authorizeUrl({
        response_type: 'code',
        client_id: 'demo-member-cli',
        redirect_uri: REDIRECT,
        scope: 'account:read',
        resource: base,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'st',
      }),
      { email: 'learner@second.test', password: DEMO_PASSWORD },
    );
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('code')).toBeNull();
  });

  test('any role at the member client’s site may authorize it (instructor)', async () => {
    const { challenge } = pkcePair();
    const { callback } = await completeAuthorization(
      authorizeUrl({
        response_type: 'code',
        client_id: 'demo-member-cli',
        redirect_uri: REDIRECT,
        scope: 'account:read',
        resource: base,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'st',
      }),
      { email: 'instructor@demo.test', password: DEMO_PASSWORD },
    );
    expect(callback.searchParams.get('code')).toBeTruthy();
  });
});

describe('SPEC 4.1 discovery', () => {
  test('RFC 9728 protected resource metadata at the root well-known URL only (one resource, BASE_URL; §3.3)', async () => {
    const res = await fetch(`${base}/.well-known/oauth-protected-resource`);
    expect(res.status).toBe(200);
    const md = await res.json();
    expect(md.resource).toBe(base);
    expect(md.authorization_servers).toEqual([base]);
    expect(md.bearer_methods_supported).toEqual(['header']);
    // Issue #26: the minimal set every client kind may request (the AS metadata lists every scope).
    expect(md.scopes_supported).toEqual(['openid', 'profile', 'email']);
    expect(md.resource_documentation).toBe(server.config.docsUrl);
    // A document at a path-suffixed URL would have to name that path's resource (RFC 9728 §3.3).
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource/account/graphql',
    ]) {
      expect((await fetch(`${base}${path}`)).status).toBe(404);
    }
  });

  test('AS metadata: every SPEC §2.5 scope, docs URL, only code/refresh grants, nothing of agent_auth', async () => {
    const oauth = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    const oidc = await (await fetch(`${base}/.well-known/openid-configuration`)).json();
    expect(oauth).toEqual(oidc);
    const scopes =
      'openid profile email courses:read courses:write students:read students:write members:read members:write analytics:read curriculum:read curriculum:write orders:read school:read school:write appearance:read appearance:write events:read events:write membership_plans:read membership_plans:write coupons:read coupons:write posts:read posts:write subscriptions:read subscriptions:write digital_products:read digital_products:write comments:read lecturers:read lecturers:write storage:write forms:read pages:read pages:write account:read account:write'.split(
        ' ',
      );
    expect(new Set(oauth.scopes_supported)).toEqual(new Set(scopes));
    expect(oauth.service_documentation).toBe(server.config.docsUrl);
    expect(oauth.grant_types_supported).toEqual(['authorization_code', 'refresh_token']);
    expect(oauth.response_types_supported).toEqual(['code']);
    // private_key_jwt: Client ID Metadata Documents with keys only (DESIGN D13).
    expect(oauth.token_endpoint_auth_methods_supported).toEqual(['none', 'client_secret_post', 'private_key_jwt']);
    expect(oauth.introspection_endpoint).toBe(`${base}/api/oauth/introspect`);
    expect(oauth.authorization_response_iss_parameter_supported).toBe(true);
    const text = JSON.stringify(oauth);
    for (const forbidden of [
      'agent_auth',
      'identity_endpoint',
      'register_uri',
      'identity_assertion',
      'service_auth',
      'jwt-bearer',
    ]) {
      expect(text).not.toContain(forbidden);
    }
  });

  test('/openapi.json is OpenAPI 3.1 and lists the OAuth paths', async () => {
    const doc = await (await fetch(`${base}/openapi.json`)).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const path of [
      '/oauth/authorize',
      '/api/oauth/token',
      '/api/oauth/revoke',
      '/api/oauth/register',
      '/api/oauth/userinfo',
      '/account/graphql',
    ]) {
      expect(doc.paths[path]).toBeDefined();
    }
  });

  test('unknown paths → 404 JSON, not 500', async () => {
    const res = await fetch(`${base}/nope`);
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe('not_found');
  });
});
