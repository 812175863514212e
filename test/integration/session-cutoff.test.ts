/**
 * DESIGN D5, a password set or reset ends every session begun before it, whatever the second:
 * oidc-provider keeps an OpenID Provider session's login time (`loginTs`) and a code's or token's
 * `iat` in whole seconds, and a session begun in the very second of the reset used to survive it
 * (someone who knew the old password, signing in during that second, re-authorized afterwards
 * without any password). Through the real server over HTTP, on the embedded store (SQLite) and on
 * PostgreSQL + Redis:
 * - an OP session and a code begun in the reset's own second, before it, are ended by it: the next
 *   authorization asks for a password, and the code is refused;
 * - the user's own sign-in right after the set-password answer is kept (the answer comes once the
 *   reset's second is over).
 */
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { CookieJar, completeAuthorization, parseForm } from '../helpers/user-agent.js';
import { MEMBER_CLIENT, REDIRECT_URI, postForm } from '../helpers/flows.js';
import { pkcePair, randomString } from '../helpers/pkce.js';
import {
  TEST_REDIS_URL,
  createTestDatabase,
  deleteRedisPrefix,
  describeWith,
  randomPrefix,
  type TestDatabase,
} from '../helpers/services.js';
import { OneTimeLinks } from '../../src/platform/one-time-links.js';

function stores(): Array<
  [string, () => Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>, jest.Describe]
> {
  return [
    ['embedded store (SQLite)', async () => ({ env: {}, cleanup: async () => {} }), describe],
    [
      'PostgreSQL + Redis',
      async () => {
        const database: TestDatabase = await createTestDatabase();
        const prefix = randomPrefix();
        return {
          env: { DATABASE_URL: database.url, REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: prefix },
          async cleanup() {
            await database.drop();
            await deleteRedisPrefix(TEST_REDIS_URL!, prefix);
          },
        };
      },
      describeWith('redis', 'postgres'),
    ],
  ];
}

/** An authorization request of the member client (PKCE), and its verifier. */
function authorization(server: TestServer) {
  const { verifier, challenge } = pkcePair();
  const url = new URL('/oauth/authorize', server.baseUrl);
  url.search = new URLSearchParams({
    client_id: MEMBER_CLIENT,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: 'openid account:read',
    resource: server.baseUrl,
    state: randomString(8),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  return { url, verifier };
}

const askedForPassword = (visits: Array<{ body: string }>) => visits.some((v) => v.body.includes('name="password"'));
/** The first page (not a redirect) an authorization request leads the browser of `jar` to. */
async function firstPage(url: URL, jar: CookieJar): Promise<string> {
  let next = url.href;
  for (let step = 0; step < 10; step++) {
    const res = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(res);
    const location = res.headers.get('location');
    if (!location) return res.text();
    await res.arrayBuffer();
    next = new URL(location, next).href;
  }
  throw new Error('too many redirects');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(stores())('%s', (_name, setup, run) => {
  run('a password reset ends the sessions begun in its own second', () => {
    let server: TestServer;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      const s = await setup();
      cleanup = s.cleanup;
      server = await startTestServer(s.env);
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await cleanup?.();
    });

    test('an OP session and a code of the reset second are ended; the next sign-in is kept', async () => {
      const email = 'student@demo.test';
      const userId = (await server.accounts.userIdByEmail(email))!;
      let password = DEMO_PASSWORD;
      // The race needs the attacker's sign-in and the reset in one second: a loaded machine may
      // spill over a second boundary, so up to five tries, each starting at a boundary.
      for (let attempt = 0; attempt < 5; attempt++) {
        const { token } = await new OneTimeLinks(server.store.db).issue(userId);
        const page = await fetch(`${server.baseUrl}/set-password?token=${token}`);
        const { hidden } = parseForm(await page.text());
        const fresh = `a-brand-new-password-${attempt}`;
        await sleep(1000 - (Date.now() % 1000) + 5);
        const second = Math.floor(Date.now() / 1000);

        // Someone who knows the current password signs in and gets a code, then the reset.
        const attacker = new CookieJar();
        const first = authorization(server);
        const signedIn = await completeAuthorization(first.url, { email, password }, attacker);
        expect(askedForPassword(signedIn.visits)).toBe(true);
        const reset = await postForm(server.baseUrl, '/set-password', { ...hidden, password: fresh, confirm: fresh });
        expect(reset.status).toBe(200);
        password = fresh;
        const stamp = (await server.accounts.sessionsValidAfter(userId))!;
        if (Math.floor(stamp / 1000) !== second) continue;
        // The set-password answer came once the reset's second was over.
        expect(Date.now()).toBeGreaterThanOrEqual((second + 1) * 1000);

        // The attacker's OP session is over: authorizing again asks for a password.
        expect(await firstPage(authorization(server).url, attacker)).toContain('name="password"');
        // The code of that second is refused.
        const exchanged = await postForm(server.baseUrl, '/api/oauth/token', {
          grant_type: 'authorization_code',
          code: signedIn.callback.searchParams.get('code')!,
          code_verifier: first.verifier,
          redirect_uri: REDIRECT_URI,
          client_id: MEMBER_CLIENT,
          resource: server.baseUrl,
        });
        expect(exchanged.status).toBe(400);
        expect(exchanged.body.error).toBe('invalid_grant');

        // The user, right after the answer, signs in with the new password; that session is kept.
        const user = new CookieJar();
        const own = await completeAuthorization(authorization(server).url, { email, password: fresh }, user);
        expect(askedForPassword(own.visits)).toBe(true);
        const resumed = await completeAuthorization(authorization(server).url, { email, password: 'unused' }, user);
        expect(askedForPassword(resumed.visits)).toBe(false);
        expect(resumed.callback.searchParams.get('code')).toEqual(expect.any(String));
        return;
      }
      throw new Error('the sign-in and the reset never fell in one second in five tries');
    }, 90_000);
  });
});
