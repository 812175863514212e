/**
 * DESIGN D5, D7: every message the server sends ("Forgot your password?", an invitation, a join
 * link from an invitation page) spends the mail budgets first: per client address (IPv6 per /64),
 * per recipient and for the whole server, each `points/seconds` (`RATE_LIMIT_MAIL_IP` 20/3600,
 * `RATE_LIMIT_MAIL_ADDRESS` 5/3600, `RATE_LIMIT_MAIL_GLOBAL` 1000/3600 by default). Past one, the
 * request is answered 429 with `Retry-After` (on the HTML form: a readable page), nothing is
 * stored and nothing is sent. The budgets are not the failed sign-in limit: a flood of reset
 * requests never locks the member's sign-in.
 *
 * Site names reach those messages, so they are one line of plain text: control characters (CR,
 * LF, …) and format characters (bidirectional overrides) are refused on every surface.
 *
 * The server trusts one proxy hop (`TRUST_PROXY=1`), so each request names its client address
 * in `X-Forwarded-For`, as a proxy would.
 */
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { CookieJar, parseForm } from '../helpers/user-agent.js';
import { mailsTo, readOutbox } from '../helpers/outbox.js';
import { AdminBrowser, callApi, mcpOperator, operatorToken } from '../helpers/operator-surfaces.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: '1' });
}, 60_000);
afterAll(() => server?.close());

async function call(jar: CookieJar, path: string, from: string, fields?: Record<string, string>) {
  const res = await fetch(new URL(path, server.baseUrl), {
    method: fields ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      cookie: jar.header(),
      'x-forwarded-for': from,
      ...(fields ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: fields ? new URLSearchParams(fields).toString() : undefined,
  });
  jar.store(res);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), html: await res.text() };
}

/** A "Forgot your password?" form of one browser at `from`, and a function that posts it for an address. */
async function forgotForm(from: string) {
  const jar = new CookieJar();
  let { hidden } = parseForm((await call(jar, '/signin?forgot=1', from)).html);
  return async (email: string, at = from) => {
    const answer = await call(jar, '/signin', at, { ...hidden, email });
    // Each answer is the form again, with a fresh CSRF field bound to a fresh cookie.
    hidden = parseForm(answer.html).hidden;
    return answer;
  };
}

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

test('200 reset requests in a minute from one client address send its budget of mails (20), then 429 + Retry-After', async () => {
  const ask = await forgotForm('198.51.100.7');
  const before = readOutbox(server.dataDir).length;
  const started = Date.now();
  const answers = [];
  for (let i = 0; i < 200; i++) answers.push(await ask(`stranger-${i}@victims.test`));
  expect(Date.now() - started).toBeLessThan(60_000);
  expect(tally(answers.map((a) => a.status))).toEqual({ 200: 20, 429: 180 });
  expect(readOutbox(server.dataDir).length - before).toBe(20);
  for (const refused of answers.filter((a) => a.status === 429)) {
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(3600);
  }
  const page = answers.at(-1)!;
  expect(page.html).toContain('<form');
  expect(page.html).toMatch(/Too many e-mails were asked for just now\. Try again in \d+ minutes?\./);
  // Past the budget nothing is stored: no link row for a refused request's address.
  expect(mailsTo(server.dataDir, 'stranger-199@victims.test')).toHaveLength(0);
});

test('one recipient gets its budget of mails (5) whoever asks, from 200 client addresses', async () => {
  const ask = await forgotForm('198.51.100.8');
  const answers = [];
  for (let i = 0; i < 200; i++) answers.push(await ask('target@victims.test', `203.0.113.${i % 250}`));
  expect(tally(answers.map((a) => a.status))).toEqual({ 200: 5, 429: 195 });
  expect(mailsTo(server.dataDir, 'target@victims.test')).toHaveLength(5);
  expect(answers.at(-1)!.retryAfter).toMatch(/^\d+$/);
});

test('an IPv6 client is one client per /64, whatever address of its prefix it sends from', async () => {
  const ask = await forgotForm('2001:db8:7:7::1');
  const statuses = [];
  for (let i = 0; i < 25; i++)
    statuses.push((await ask(`v6-${i}@victims.test`, `2001:db8:7:7::${(i + 1).toString(16)}`)).status);
  expect(tally(statuses)).toEqual({ 200: 20, 429: 5 });
  // Another /64 has its own budget.
  expect((await ask('v6-other@victims.test', '2001:db8:7:8::1')).status).toBe(200);
});

test('a flood of reset requests for a member from their own address never locks their sign-in', async () => {
  const from = '192.0.2.44';
  const ask = await forgotForm(from);
  const statuses = [];
  for (let i = 0; i < 30; i++) statuses.push((await ask('student@demo.test')).status);
  expect(tally(statuses)).toEqual({ 200: 5, 429: 25 });
  const jar = new CookieJar();
  const { hidden } = parseForm((await call(jar, '/signin', from)).html);
  const signIn = await call(jar, '/signin', from, { ...hidden, email: 'student@demo.test', password: DEMO_PASSWORD });
  expect(signIn.status).toBe(303);
  expect((await call(jar, '/account/connections', from)).status).toBe(200);
});

test('the answers tell nothing about accounts: a refused request reads the same for an address with and without one', async () => {
  const known = await forgotForm('192.0.2.45');
  const unknown = await forgotForm('192.0.2.46');
  for (let i = 0; i < 5; i++) await known('learner@second.test');
  for (let i = 0; i < 5; i++) await unknown('nobody-at-all@victims.test');
  const [a, b] = [await known('learner@second.test'), await unknown('nobody-at-all@victims.test')];
  const scrub = (html: string) =>
    html
      .replaceAll('learner@second.test', 'X')
      .replaceAll('nobody-at-all@victims.test', 'X')
      .replace(/name="csrf" value="[^"]+"/g, '');
  expect([a.status, b.status]).toEqual([429, 429]);
  expect(scrub(a.html)).toBe(scrub(b.html));
});

test('invitations spend the recipient budget: the sixth invitation of one address within the hour is 429 + Retry-After', async () => {
  const { token } = await operatorToken(server.baseUrl, 'owner@demo.test', 'demo', 'mail budget');
  const statuses: number[] = [];
  let last: Awaited<ReturnType<typeof callApi>> | undefined;
  for (let i = 0; i < 7; i++) {
    last = await callApi(server.baseUrl, token, '/api/v1/invitations', 'POST', {
      email: 'invited-often@victims.test',
      role: 'student',
    });
    statuses.push(last.status);
  }
  expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
  expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(last!.body.error).toBe('too_many_requests');
  expect(mailsTo(server.dataDir, 'invited-often@victims.test')).toHaveLength(5);
  const pending = (await callApi(server.baseUrl, token, '/api/v1/invitations?limit=100')).body.invitations as Array<{
    email: string;
  }>;
  expect(pending.filter((i) => i.email === 'invited-often@victims.test')).toHaveLength(5);
  // The admin area's invitation form answers the same refusal, with its Retry-After.
  const admin = new AdminBrowser(server.baseUrl);
  await admin.signIn('owner@demo.test');
  const csrf = await admin.csrf('/admin/demo/people');
  const form = await admin.post('/admin/demo/invitations', {
    csrf,
    email: 'invited-often@victims.test',
    role: 'student',
  });
  expect([form.status, form.retryAfter]).toEqual([429, expect.stringMatching(/^\d+$/)]);
  expect(form.html).toContain('Too many e-mails were asked for just now.');
});

test("an invitation page's join links spend the budgets too", async () => {
  const { token } = await operatorToken(server.baseUrl, 'owner@demo.test', 'demo', 'mail budget page');
  const created = await callApi(server.baseUrl, token, '/api/v1/invitations', 'POST', {
    email: 'joiner@victims.test',
    role: 'student',
  });
  expect(created.status).toBe(201);
  const path = new URL(created.body.acceptUrl as string).pathname;
  const jar = new CookieJar();
  const from = '192.0.2.60';
  let csrf = csrfOf((await call(jar, path, from)).html);
  const statuses = [];
  let last: Awaited<ReturnType<typeof call>> | undefined;
  for (let i = 0; i < 6; i++) {
    last = await call(jar, path, from, { csrf, decision: 'link' });
    csrf = csrfOf(last.html);
    statuses.push(last.status);
  }
  // The invitation itself was the first of the address's 5 mails.
  expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  expect(last!.retryAfter).toMatch(/^\d+$/);
  expect(last!.html).toContain('Too many e-mails were asked for just now.');
  expect(mailsTo(server.dataDir, 'joiner@victims.test')).toHaveLength(5);
});

test('site names refuse line breaks and text-direction overrides on /api/v1 and MCP; invitation mail shows the name on one line', async () => {
  const { token } = await operatorToken(server.baseUrl, 'owner@demo.test', 'demo', 'site namer');
  const rename = (name: string) => callApi(server.baseUrl, token, '/api/v1/site', 'PATCH', { name });
  for (const name of [
    'Demo Academy\r\nBcc: victim@example.test',
    'Demo\nAcademy',
    'Demo \u202eymedacA',
    'Demo\u2066 Academy',
    'Demo\u0000',
  ]) {
    const res = await rename(name);
    expect([res.status, res.body.error]).toEqual([400, 'invalid_request']);
  }
  const mcp = await mcpOperator(server.baseUrl, 'owner@demo.test', 'demo');
  try {
    const refused = await mcp.client.callTool({ name: 'update_site', arguments: { name: 'Demo\r\nAcademy' } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('control characters');
  } finally {
    await mcp.client.close();
  }
  expect((await callApi(server.baseUrl, token, '/api/v1/site')).body.name).toBe('Demo Academy');

  // A plain new name is kept, and the invitation's message carries it on one line.
  expect((await rename('Demo Academy 2')).status).toBe(200);
  const invited = await callApi(server.baseUrl, token, '/api/v1/invitations', 'POST', {
    email: 'one-line@victims.test',
    role: 'student',
  });
  expect(invited.status).toBe(201);
  const [mail] = mailsTo(server.dataDir, 'one-line@victims.test');
  expect(mail!.text).toContain('you are invited to Demo Academy 2 as student.');
  expect((await rename('Demo Academy')).status).toBe(200);
}, 60_000);
