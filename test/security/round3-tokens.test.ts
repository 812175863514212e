/**
 * Issue #25, security round 3, over real HTTP against the real server:
 *
 * - finding 8: the client-wide ceiling of the token endpoint (DESIGN D7) is spent only by requests
 *   that proved a client or a grant; junk sent with a public client's id from many addresses does
 *   not lock its real users out. IPv6 addresses are limited per /64.
 * - finding 13: with an https BASE_URL every cookie is Secure, also when the request reached the
 *   server over plain HTTP with no trusted proxy (TLS terminated in front, TRUST_PROXY unset).
 *
 * (Finding 4, secrets in the access log, is covered route by route in test/security/fuzz.test.ts;
 * finding 5, the refresh grace window, in test/scale/refresh-grace.test.ts.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, freePort, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { authorizeMember, postForm, MEMBER_CLIENT, REDIRECT_URI } from '../helpers/flows.js';
import { CookieJar, parseForm } from '../helpers/user-agent.js';
import { pkcePair, randomString } from '../helpers/pkce.js';
import { generateSigningKey } from '../../src/oauth/keys.js';

describe('issue #25 finding 8: strangers cannot spend a public client’s budget', () => {
  let server: TestServer;
  // 20 per client and address → a client-wide ceiling of 200 (CLIENT_CEILING_FACTOR 10).
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: '1', RATE_LIMIT_TOKEN: '20/60' });
  });
  afterAll(() => server.close());

  const token = (form: Record<string, string>, address: string) =>
    postForm(server.baseUrl, '/api/oauth/token', form, { 'x-forwarded-for': address });

  test('200 junk refreshes with the public client_id from 10 addresses → a student’s real code exchange still answers 200', async () => {
    const statuses = new Map<number, number>();
    for (let i = 0; i < 200; i++) {
      const junk = await token(
        { grant_type: 'refresh_token', refresh_token: randomString(43), client_id: MEMBER_CLIENT },
        `203.0.113.${i % 10}`,
      );
      statuses.set(junk.status, (statuses.get(junk.status) ?? 0) + 1);
    }
    // Each address stayed within its own budget; none of it proved a grant.
    expect([...statuses]).toEqual([[400, 200]]);
    // A stranger's 21st request from one address is still refused by the per-address limit.
    expect(
      (await token({ grant_type: 'refresh_token', refresh_token: 'junk', client_id: MEMBER_CLIENT }, '203.0.113.0'))
        .status,
    ).toBe(429);
    const issued = await authorizeMember(server.baseUrl, server.baseUrl);
    const exchange = await token(
      {
        grant_type: 'authorization_code',
        code: issued.code,
        code_verifier: issued.verifier,
        redirect_uri: REDIRECT_URI,
        client_id: MEMBER_CLIENT,
        resource: server.baseUrl,
      },
      '198.51.100.20',
    );
    expect(exchange.status).toBe(200);
    expect(typeof exchange.body.access_token).toBe('string');
  });

  test('proven requests still meet the client-wide ceiling', async () => {
    // 10 real refreshes spend 10 ceiling points each time a grant is proven: refresh a chain from
    // many addresses until the ceiling (200, minus the one exchange above) answers 429.
    const issued = await authorizeMember(server.baseUrl, server.baseUrl);
    const first = await token(
      {
        grant_type: 'authorization_code',
        code: issued.code,
        code_verifier: issued.verifier,
        redirect_uri: REDIRECT_URI,
        client_id: MEMBER_CLIENT,
        resource: server.baseUrl,
      },
      '198.51.100.21',
    );
    expect(first.status).toBe(200);
    let refreshToken = String(first.body.refresh_token);
    let proven = 2;
    let last = 200;
    for (let i = 0; i < 220 && last === 200; i++) {
      const next = await token(
        { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: MEMBER_CLIENT },
        `192.0.2.${i % 50}`,
      );
      last = next.status;
      if (last === 200) {
        proven += 1;
        refreshToken = String(next.body.refresh_token);
      }
    }
    expect(last).toBe(429);
    expect(proven).toBe(200);
  }, 60_000);

  test('IPv6 addresses in one /64 share one per-address budget; another /64 has its own', async () => {
    const junk = (address: string) =>
      token({ grant_type: 'refresh_token', refresh_token: 'junk', client_id: 'v6-client' }, address);
    for (let i = 1; i <= 20; i++) expect((await junk(`2001:db8:1:2::${i.toString(16)}`)).status).not.toBe(429);
    expect((await junk('2001:db8:1:2:ffff:ffff:ffff:fffe')).status).toBe(429);
    expect((await junk('2001:db8:1:3::1')).status).not.toBe(429);
  });
});

describe('issue #25 finding 8 at introspection: only a request with a client credential takes a ceiling point', () => {
  let server: TestServer;
  // 2 per client and address → a client-wide ceiling of 20 (CLIENT_CEILING_FACTOR 10).
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: '1', RATE_LIMIT_INTROSPECTION: '2/60' });
  });
  afterAll(() => server.close());

  const introspect = (form: Record<string, string>, address: string) =>
    postForm(
      server.baseUrl,
      '/api/oauth/introspect',
      { token: randomString(43), ...form },
      { 'x-forwarded-for': address },
    );

  test('authenticated introspections meet the ceiling; a request without a credential is then answered 401, not 429, and stays within its address limit', async () => {
    const registered = await fetch(`${server.baseUrl}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'ceiling introspector',
        redirect_uris: ['http://127.0.0.1/callback'],
        token_endpoint_auth_method: 'client_secret_post',
      }),
    });
    expect(registered.status).toBe(201);
    const client = (await registered.json()) as { client_id: string; client_secret: string };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      for (let j = 0; j < 2; j++) {
        const res = await introspect(
          { client_id: client.client_id, client_secret: client.client_secret },
          `203.0.113.${i}`,
        );
        statuses.push(res.status);
      }
    }
    // Twenty proven requests spend the ceiling; the next four are refused by it.
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    const refused = await introspect(
      { client_id: client.client_id, client_secret: client.client_secret },
      '203.0.113.99',
    );
    expect([refused.status, refused.body.error_description]).toEqual([
      429,
      'too many introspection requests for this client; retry later',
    ]);
    // Without a credential the request cannot prove the client: no ceiling point is taken for it,
    // so it reaches client authentication (401) and only its address's own limit applies.
    const bare = { client_id: client.client_id };
    const first = await introspect(bare, '198.51.100.7');
    expect([first.status, first.body.error]).toEqual([401, 'invalid_client']);
    expect((await introspect(bare, '198.51.100.7')).status).toBe(401);
    const third = await introspect(bare, '198.51.100.7');
    expect([third.status, third.body.error_description]).toEqual([
      429,
      'too many introspection requests for this client from this address; retry later',
    ]);
  }, 60_000);
});

describe('issue #25 finding 13: with an https BASE_URL every cookie is Secure, also over plain HTTP without TRUST_PROXY', () => {
  const secureEverywhere = (res: Response) => {
    const lines = res.headers.getSetCookie();
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/;\s*secure\b/i);
    return lines;
  };

  describe('production start', () => {
    let server: TestServer;
    let dir: string;
    let origin: string;
    beforeAll(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-secure-'));
      const keyFile = path.join(dir, 'signing-key.json');
      writeFileSync(keyFile, JSON.stringify(await generateSigningKey()));
      const port = await freePort();
      // The proxy in front terminates TLS; the server itself is reached over plain HTTP.
      server = await startTestServer(
        {
          NODE_ENV: 'production',
          BASE_URL: `https://127.0.0.1:${port}`,
          COOKIE_SECRETS: 's'.repeat(48),
          SIGNING_KEY_FILE: keyFile,
        },
        undefined,
        port,
      );
      origin = `http://127.0.0.1:${port}`;
    });
    afterAll(async () => {
      await server?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test('oidc-provider’s interaction cookies and the sign-in CSRF cookie carry Secure', async () => {
      expect(server.config.trustProxy).toBe(0);
      const reg = await fetch(`${origin}/api/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:7777/callback'], token_endpoint_auth_method: 'none' }),
      });
      expect(reg.status).toBe(201);
      const clientId = ((await reg.json()) as { client_id: string }).client_id;
      const url = new URL('/oauth/authorize', origin);
      url.search = new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: 'http://127.0.0.1:7777/callback',
        scope: 'openid',
        state: 'st',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        resource: server.baseUrl,
      }).toString();
      const authorize = await fetch(url, { redirect: 'manual' });
      expect(authorize.status).toBe(303);
      expect(secureEverywhere(authorize).some((l) => l.startsWith('_interaction'))).toBe(true);
      const signin = await fetch(`${origin}/signin`);
      expect(signin.status).toBe(200);
      secureEverywhere(signin);
    });
  });

  test('the web session cookie of /signin carries Secure', async () => {
    const port = await freePort();
    const server = await startTestServer({ BASE_URL: `https://127.0.0.1:${port}` }, undefined, port);
    try {
      const origin = `http://127.0.0.1:${port}`;
      const jar = new CookieJar();
      const page = await fetch(`${origin}/signin`);
      jar.store(page);
      const form = parseForm(await page.text());
      const res = await fetch(`${origin}/signin`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...form.hidden, email: 'student@demo.test', password: DEMO_PASSWORD }).toString(),
      });
      expect(res.status).toBe(303);
      const lines = secureEverywhere(res);
      expect(lines.some((l) => l.startsWith('cg_web'))).toBe(true);
    } finally {
      await server.close();
    }
  });
});
