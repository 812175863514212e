/**
 * Issue #30 item 6 (DESIGN D5): "Forgot your password?" on the sign-in page mails a reset link to
 * the address (here: the `DATA_DIR/outbox/` files, no `SMTP_URL`), answering the same whether or
 * not the address has an account; the link sets a new password once and ends the account's other
 * web sessions.
 */
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { CookieJar, parseForm } from '../helpers/user-agent.js';
import { mailsTo } from '../helpers/outbox.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(() => server?.close());

async function call(jar: CookieJar, path: string, fields?: Record<string, string>) {
  const res = await fetch(new URL(path, server.baseUrl), {
    method: fields ? 'POST' : 'GET',
    redirect: 'manual',
    headers: { cookie: jar.header(), ...(fields ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: fields ? new URLSearchParams(fields).toString() : undefined,
  });
  jar.store(res);
  return { status: res.status, html: await res.text() };
}

async function askReset(email: string) {
  const jar = new CookieJar();
  const signin = await call(jar, '/signin');
  expect(signin.html).toContain('href="/signin?forgot=1"');
  const { hidden } = parseForm((await call(jar, '/signin?forgot=1')).html);
  expect(hidden.forgot).toBe('1');
  const res = await call(jar, '/signin', { ...hidden, email });
  return { status: res.status, text: res.html.replaceAll(email, 'X').replace(/name="csrf" value="[^"]+"/g, '') };
}

test('the same answer for an address with and without an account; only the account holder gets a link', async () => {
  const known = 'student@demo.test';
  const unknown = 'never-registered@example.test';
  const [a, b] = [await askReset(known), await askReset(unknown)];
  expect([a.status, b.status]).toEqual([200, 200]);
  expect(a.text).toBe(b.text);
  expect(a.text).toContain('If X has an account, we sent it a link');
  const [toKnown] = mailsTo(server.dataDir, known);
  const [toUnknown] = mailsTo(server.dataDir, unknown);
  expect(toKnown!.headers.subject).toBe('Reset your password for Demo Academy');
  expect(toKnown!.links).toHaveLength(1);
  expect(toUnknown!.links).toHaveLength(0);
  expect(toUnknown!.text).toContain('has no account');
  expect(await server.accounts.userIdByEmail(unknown)).toBeUndefined();
});

test('the mailed link sets a new password once and ends the other web sessions', async () => {
  const email = 'learner@second.test';
  const other = new CookieJar();
  const form = parseForm((await call(other, '/signin')).html);
  expect((await call(other, '/signin', { ...form.hidden, email, password: DEMO_PASSWORD })).status).toBe(303);
  expect((await call(other, '/account/connections')).status).toBe(200);

  await askReset(email);
  const link = mailsTo(server.dataDir, email).at(-1)!.links[0]!;
  const jar = new CookieJar();
  const page = await call(jar, new URL(link).pathname + new URL(link).search);
  expect(page.status).toBe(200);
  expect(page.html).not.toContain('name="name"');
  const { hidden } = parseForm(page.html);
  expect(
    (
      await call(jar, '/set-password', {
        ...hidden,
        password: 'learner-reset-password',
        confirm: 'learner-reset-password',
      })
    ).status,
  ).toBe(200);
  expect((await call(jar, new URL(link).pathname + new URL(link).search)).status).toBe(400);

  expect((await call(other, '/account/connections')).status).toBe(302);
  const again = new CookieJar();
  const f2 = parseForm((await call(again, '/signin')).html);
  expect((await call(again, '/signin', { ...f2.hidden, email, password: 'learner-reset-password' })).status).toBe(303);
});
