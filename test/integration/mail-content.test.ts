/**
 * The mails as a recipient's mail client reads them (src/ops/mail-templates.ts), from the outbox of
 * a real server: `multipart/alternative` with a text part and an HTML part saying the same, the
 * one-time link in both (an anchor in the HTML); the reset mail names the person's site, not the
 * server's host; an operator-set site name is escaped in the HTML.
 */
import { callApi, operatorToken } from '../helpers/operator-surfaces.js';
import { mailsTo } from '../helpers/outbox.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CookieJar, parseForm } from '../helpers/user-agent.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(() => server?.close());

/** Asks "Forgot your password?" for `email` on the sign-in page. */
async function askReset(email: string): Promise<void> {
  const jar = new CookieJar();
  const get = await fetch(new URL('/signin?forgot=1', server.baseUrl));
  jar.store(get);
  const { hidden } = parseForm(await get.text());
  const res = await fetch(new URL('/signin', server.baseUrl), {
    method: 'POST',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...hidden, email }).toString(),
  });
  expect(res.status).toBe(200);
}

test('a reset mail: text and HTML parts, the link in both, the site named', async () => {
  await askReset('student@demo.test');
  const [mail] = mailsTo(server.dataDir, 'student@demo.test');
  expect(mail!.headers['content-type']).toMatch(/^multipart\/alternative; boundary=/);
  expect(mail!.headers.subject).toBe('Reset your password for Demo Academy');
  expect(mail!.links).toHaveLength(1);
  const link = mail!.links[0]!;
  expect(mail!.text).toContain('reset the password of student@demo.test at Demo Academy');
  expect(mail!.html).toContain(`<a href="${link}">Choose a new password</a>`);
  expect(mail!.html).toContain('at Demo Academy');
  expect(mail!.html).not.toMatch(/<(script|img|link|style)\b/i);
});

test('an operator-set site name is escaped in the HTML part', async () => {
  const { token } = await operatorToken(server.baseUrl, 'owner@demo.test', 'demo', 'renamer');
  const renamed = await callApi(server.baseUrl, token, '/api/v1/site', 'PATCH', { name: 'Tom & Jerry <b>School</b>' });
  expect(renamed.status).toBe(200);
  await askReset('student@demo.test');
  const mails = mailsTo(server.dataDir, 'student@demo.test');
  const mail = mails[mails.length - 1]!;
  expect(mail.headers.subject).toContain('Tom & Jerry');
  expect(mail.html).toContain('Tom &amp; Jerry &lt;b&gt;School&lt;/b&gt;');
  expect(mail.html).not.toContain('<b>School</b>');
  expect(mail.text).toContain('Tom & Jerry <b>School</b>');
});
