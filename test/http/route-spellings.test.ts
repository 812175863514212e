/**
 * DESIGN D7 + issue #9: limits come from the route table, resolved with oidc-provider's matching
 * rules (case-insensitive, one trailing slash ignored). Every rate-limited and body-limited route,
 * sent in four spellings (canonical, UPPER, trailing slash, both), answers the same 429 and the
 * same 413.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CookieJar, parseForm } from '../helpers/user-agent.js';
import { pkcePair } from '../helpers/pkce.js';
import { MEMBER_CLIENT, REDIRECT_URI } from '../helpers/flows.js';
import { serverWithMemberToken } from '../helpers/member-token.js';

/** The four spellings of a path; `:param`-like segments (given in `keep`) keep their case. */
function spellings(path: string, keep: string[] = []): Array<[string, string]> {
  const upper = path
    .split('/')
    .map((seg) => (keep.includes(seg) ? seg : seg.toUpperCase()))
    .join('/');
  return [
    ['canonical', path],
    ['upper case', upper],
    ['trailing slash', `${path}/`],
    ['upper case + trailing slash', `${upper}/`],
  ];
}

let addressCounter = 0;
/** A fresh client address per case (TRUST_PROXY=1), so each spelling starts with a full budget. */
const freshAddress = () => `198.51.100.${++addressCounter}`;

interface Answer {
  status: number;
  type: string;
  error: unknown;
  retryAfter: string | null;
}

async function answer(res: Response): Promise<Answer> {
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!;
  const text = await res.text();
  let error: unknown = text.includes('Too many failed sign-in attempts')
    ? 'login-locked'
    : text.includes('request body too large')
      ? 'too-large-page'
      : undefined;
  if (type.includes('json')) {
    const body = JSON.parse(text) as { error?: unknown };
    error =
      typeof body.error === 'object' && body.error !== null ? (body.error as { code?: unknown }).code : body.error;
  }
  return { status: res.status, type, error, retryAfter: res.headers.get('retry-after') };
}

const BIG = 'x'.repeat(70 * 1024);
const chunked = (text: string) =>
  new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode(text));
      c.close();
    },
  });

describe('DESIGN D7 / issue #9: every spelling of a route has the same limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      TRUST_PROXY: '1',
      RATE_LIMIT_TOKEN: '1/60',
      RATE_LIMIT_REVOCATION: '1/60',
      RATE_LIMIT_INTROSPECTION: '1/60',
      RATE_LIMIT_REGISTRATION: '1/60',
      RATE_LIMIT_LOGIN_FAILURES: '1/60',
    });
  });
  afterAll(() => server.close());

  const send = (path: string, init: RequestInit & { address: string }) =>
    fetch(new URL(path, server.baseUrl), {
      ...init,
      redirect: 'manual',
      headers: { 'x-forwarded-for': init.address, ...(init.headers as Record<string, string>) },
    } as RequestInit);

  const form = (body: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });

  const limited: Array<[string, string, Record<string, string>]> = [
    [
      'token',
      '/api/oauth/token',
      {
        grant_type: 'authorization_code',
        code: 'nope',
        code_verifier: 'x'.repeat(43),
        redirect_uri: REDIRECT_URI,
        client_id: 'c1',
      },
    ],
    ['revocation', '/api/oauth/revoke', { token: 'whatever', client_id: 'c1' }],
    ['introspection', '/api/oauth/introspect', { token: 'whatever', client_id: 'c1' }],
  ];

  describe.each(limited)('%s endpoint: second request from one client + address → 429', (_name, path, body) => {
    test.each(spellings(path))('%s (%s)', async (_label, spelled) => {
      const address = freshAddress();
      expect((await send(spelled, { address, ...form(body) })).status).not.toBe(429);
      const second = await answer(await send(spelled, { address, ...form(body) }));
      expect(second).toEqual({
        status: 429,
        type: 'application/json',
        error: 'too_many_requests',
        retryAfter: expect.stringMatching(/^\d+$/),
      });
    });
  });

  test.each(spellings('/api/oauth/register'))(
    'registration: second request from one address → 429 (%s: %s)',
    async (_label, spelled) => {
      const address = freshAddress();
      const register = () =>
        send(spelled, {
          address,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9999/cb'], token_endpoint_auth_method: 'none' }),
        });
      expect((await register()).status).toBe(201);
      expect(await answer(await register())).toEqual({
        status: 429,
        type: 'application/json',
        error: 'too_many_requests',
        retryAfter: expect.stringMatching(/^\d+$/),
      });
    },
  );

  /** Opens a login page; returns the cookie jar, the hidden fields and the uid of the interaction. */
  async function loginPage(address: string) {
    const jar = new CookieJar();
    const url = new URL('/oauth/authorize', server.baseUrl);
    url.search = new URLSearchParams({
      client_id: MEMBER_CLIENT,
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      scope: 'openid',
      resource: server.baseUrl,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      state: `st-${Math.random().toString(36).slice(2)}`,
    }).toString();
    let res = await send(url.href, { address });
    jar.store(res);
    const page = new URL(res.headers.get('location')!, server.baseUrl);
    res = await send(page.href, { address, headers: { cookie: jar.header() } });
    jar.store(res);
    const { action, hidden } = parseForm(await res.text());
    const uid = /^\/interaction\/([^/]+)\/login$/.exec(action)![1]!;
    return { jar, hidden, uid };
  }

  test.each(spellings('/interaction/UID/login', ['UID']))(
    'failed logins: second failure from one account + address → 429 (%s: %s)',
    async (_label, spelled) => {
      const address = freshAddress();
      const attempt = async () => {
        const { jar, hidden, uid } = await loginPage(address);
        return send(spelled.replace('UID', uid), {
          address,
          ...form({ ...hidden, email: 'student@demo.test', password: 'wrong' }),
          headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        });
      };
      expect((await attempt()).status).toBe(401);
      expect(await answer(await attempt())).toEqual({
        status: 429,
        type: 'text/html',
        error: 'login-locked',
        retryAfter: expect.stringMatching(/^\d+$/),
      });
    },
  );

  test.each(spellings('/signin'))(
    'operator-area sign-in: second failure from one account + address → 429 (%s: %s)',
    async (_label, spelled) => {
      const address = freshAddress();
      const attempt = async () => {
        const jar = new CookieJar();
        const page = await send('/signin', { address });
        jar.store(page);
        const { hidden } = parseForm(await page.text());
        return send(spelled, {
          address,
          ...form({ ...hidden, email: 'owner@demo.test', password: 'wrong' }),
          headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        });
      };
      expect((await attempt()).status).toBe(401);
      const locked = await attempt();
      expect(locked.status).toBe(429);
      expect(locked.headers.get('content-type')).toMatch(/^text\/html/);
      expect(locked.headers.get('retry-after')).toMatch(/^\d+$/);
    },
  );

  // [path, content type, body, the handler reads a chunked body only after authentication]
  const bodyLimited: Array<[string, string, string, boolean?]> = [
    ['/api/oauth/token', 'application/x-www-form-urlencoded', `client_id=big&pad=${BIG}`],
    ['/api/oauth/revoke', 'application/x-www-form-urlencoded', `client_id=big&pad=${BIG}`],
    ['/api/oauth/introspect', 'application/x-www-form-urlencoded', `client_id=big&pad=${BIG}`],
    ['/api/oauth/register', 'application/json', JSON.stringify({ pad: BIG })],
    ['/api/oauth/userinfo', 'application/x-www-form-urlencoded', `pad=${BIG}`],
    ['/account/graphql', 'application/json', JSON.stringify({ query: '{ __typename }', pad: BIG })],
    ['/mcp', 'application/json', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: BIG } })],
    ['/api/v1/site', 'application/json', JSON.stringify({ pad: BIG }), true],
    ['/interaction/SOMEUID/login', 'application/x-www-form-urlencoded', `email=a&pad=${BIG}`],
    ['/signin', 'application/x-www-form-urlencoded', `email=a&pad=${BIG}`],
  ];

  describe.each(bodyLimited)(
    '%s: a body over 64 KiB → the same 413 in every spelling',
    (path, type, body, authFirst) => {
      for (const mode of ['declared', 'chunked'] as const) {
        test(mode, async () => {
          const method = path === '/api/v1/site' ? 'PATCH' : 'POST';
          const answers: Answer[] = [];
          for (const [, spelled] of spellings(path)) {
            const res = await send(spelled, {
              address: freshAddress(),
              method,
              headers: { 'content-type': type, accept: 'application/json, text/event-stream' },
              body: mode === 'declared' ? body : chunked(body),
              duplex: 'half',
            } as RequestInit & { address: string });
            answers.push(await answer(res));
          }
          // Unauthenticated, a handler that reads the body after the bearer step answers its 401.
          expect(answers[0]!.status).toBe(mode === 'chunked' && authFirst ? 401 : 413);
          expect(answers[0]!.error).toBeDefined();
          for (const a of answers.slice(1)) expect(a).toEqual(answers[0]);
        });
      }
    },
  );
});

describe('SPEC §4.3 / issue #9: every spelling of a resource route reaches the same handler', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => ({ server, token } = await serverWithMemberToken()));
  afterAll(() => server.close());

  const auth = () => ({ authorization: `Bearer ${token}` });
  const routes: Array<[string, () => RequestInit]> = [
    ['/api/oauth/userinfo', () => ({ headers: auth() })],
    [
      '/account/graphql',
      () => ({
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ viewer { email enrolledCourses(first: 5) { nodes { slug } } } }' }),
      }),
    ],
    [
      '/mcp',
      () => ({
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'my_enrollments', arguments: { first: 5 } },
        }),
      }),
    ],
  ];

  for (const [route, init] of routes) {
    it(`${route}: 20 parallel requests in each of four spellings answer 200 with the canonical body`, async () => {
      // The odd spellings go first: nothing a canonical request taught the server (the Account
      // API's known documents) may answer for them.
      const answers: Array<{ status: number; body: string }> = [];
      for (const [, path] of spellings(route).reverse()) {
        answers.push(
          ...(await Promise.all(
            Array.from({ length: 20 }, () =>
              fetch(new URL(path, server.baseUrl), init()).then(async (r) => ({
                status: r.status,
                body: await r.text(),
              })),
            ),
          )),
        );
      }
      const canonical = answers.at(-1)!;
      expect(canonical.status).toBe(200);
      for (const a of answers) expect(a).toEqual(canonical);
    });
  }
});
