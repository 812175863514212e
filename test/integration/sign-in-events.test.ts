/**
 * Sign-in events in the audit trail (DESIGN D10, D14; docs/operator-guide.md "The admin area"),
 * over real HTTP: a wrong password at `/signin` for an account is `sign_in_failed` in the trail of
 * each of its sites, the lock-out after the failed sign-in limit is `sign_in_locked` once however
 * many refused attempts follow, a sign-in inside an authorization is `sign_in` with the client; an
 * address without an account leaves no event; no password or typed address is ever recorded.
 */
import { OPERATOR_SCOPES } from '../../src/domain/scopes.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CookieJar, parseForm } from '../helpers/user-agent.js';

let server: TestServer;
let operator: string;

beforeAll(async () => {
  // Three failed sign-ins per account and address in a minute, then 429.
  server = await startTestServer({ RATE_LIMIT_LOGIN_FAILURES: '3/60' });
  const clientId = await registerLoopbackClient(server.baseUrl, 'trail reader');
  operator = await memberToken({
    baseUrl: server.baseUrl,
    email: 'owner@demo.test',
    clientId,
    scope: `openid ${[...OPERATOR_SCOPES].join(' ')}`,
    site: 'demo',
  });
}, 60_000);
afterAll(() => server?.close());

/** One sign-in at `/signin` (a fresh form each time); the answer's status. */
async function signIn(email: string, password: string): Promise<number> {
  const jar = new CookieJar();
  const get = await fetch(new URL('/signin', server.baseUrl), { headers: { cookie: jar.header() } });
  jar.store(get);
  const { hidden } = parseForm(await get.text());
  const res = await fetch(new URL('/signin', server.baseUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...hidden, email, password }).toString(),
  });
  await res.arrayBuffer();
  return res.status;
}

interface Event {
  kind: string;
  userId: string | null;
  clientId: string | null;
  detail: string;
}

/** The demo site's events of one kind (the audit batch written first). */
async function events(kind: string): Promise<Event[]> {
  await server.audit.flush();
  const res = await fetch(`${server.baseUrl}/api/v1/audit-events?kind=${kind}&limit=100`, {
    headers: { authorization: `Bearer ${operator}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { events: Event[] }).events;
}

/** Waits for `kind` to hold `n` events (recording does not hold up the sign-in's answer). */
async function eventsOnce(kind: string, n: number): Promise<Event[]> {
  const end = Date.now() + 5000;
  for (;;) {
    const found = await events(kind);
    if (found.length >= n || Date.now() > end) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('a wrong password is sign_in_failed in the trail of the account’s site, without the password', async () => {
  const student = await server.accounts.userIdByEmail('student@demo.test');
  expect(await signIn('student@demo.test', 'not-the-password-123')).toBe(401);
  const [failed] = await eventsOnce('sign_in_failed', 1);
  expect(failed).toMatchObject({ kind: 'sign_in_failed', userId: student, clientId: null });
  expect(failed!.detail).toMatch(/^wrong password \(sign-in page, from [\d.:a-f]+\)$/);
  expect(failed!.detail).not.toContain('not-the-password-123');
  expect(failed!.detail).not.toContain('student@demo.test');
});

test('an address without an account leaves no event', async () => {
  const before = (await events('sign_in_failed')).length;
  expect(await signIn('nobody-here@example.test', 'whatever-password-1')).toBe(401);
  await new Promise((r) => setTimeout(r, 300));
  expect((await events('sign_in_failed')).length).toBe(before);
});

test('the lock-out is recorded once, however many refused attempts meet it', async () => {
  const owner = await server.accounts.userIdByEmail('owner@demo.test');
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) statuses.push(await signIn('owner@demo.test', `wrong-${i}-password`));
  expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
  expect(statuses.slice(3)).toEqual([429, 429, 429, 429, 429]);
  await new Promise((r) => setTimeout(r, 300));
  const locked = (await eventsOnce('sign_in_locked', 1)).filter((e) => e.userId === owner);
  expect(locked).toHaveLength(1);
  expect(locked[0]!.detail).toMatch(/^too many failed sign-ins: locked \(sign-in page, from /);
  expect((await events('sign_in_failed')).filter((e) => e.userId === owner)).toHaveLength(3);
});

test('a sign-in inside an authorization is sign_in with the client', async () => {
  const student = await server.accounts.userIdByEmail('student@demo.test');
  await memberToken({ baseUrl: server.baseUrl, email: 'student@demo.test' });
  const signedIn = (await eventsOnce('sign_in', 1)).filter((e) => e.clientId === 'demo-member-cli');
  expect(signedIn.length).toBeGreaterThanOrEqual(1);
  expect(signedIn[0]).toMatchObject({
    userId: student,
    detail: expect.stringMatching(/^signed in with a password \(authorization, from /),
  });
});
