/**
 * Issue #25 finding 2 (DESIGN D5, D11): the pre-account takeover chain, replayed through the real
 * server (real HTTP, Debian chromium via playwright-core where a person clicks, the real
 * `npm run admin` process). Before the fix: an admin of site B opened the invitation link they had
 * made for a future owner's address, created that account with a password of their choice, kept
 * its sessions, saw `site create` silently adopt the account, and after the real owner set a
 * password still opened the new site's admin area and got an owner token with no prompt.
 *
 * Now the attacker is refused at every step:
 * 1. the invitation page makes no account (the person proves the address through a link mailed to
 *    it: the mail lands in `DATA_DIR/outbox/` as an RFC 5322 file, 0600 in a 0700 directory);
 * 2. `site create` refuses an address that has an account unless `--existing-account`, and says so;
 * 3. setting the password through a one-time link ends every other session of the account: the
 *    `cg_web` cookie, the OpenID Provider session, the access token and the refresh token.
 */
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';
import { CookieJar, completeAuthorization, parseForm } from '../helpers/user-agent.js';
import { pkcePair, randomString } from '../helpers/pkce.js';
import { mailsTo, outboxOf } from '../helpers/outbox.js';

let server: TestServer;
let browser: Browser;
let base: string;

const VICTIM = 'founder@new-school.test';
const ATTACKER_PASSWORD = 'attacker-chosen-password';

beforeAll(async () => {
  server = await startTestServer();
  base = server.baseUrl;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Runs `npm run admin -- …` against the test server's store (the same entry point, without npm's banner). */
function admin(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const env = {
    PATH: process.env.PATH!,
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'test',
    DATA_DIR: server.dataDir,
    BASE_URL: base,
    LOG_LEVEL: 'silent',
  };
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], { env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

async function form(path: string, fields: Record<string, string>, jar?: CookieJar) {
  const res = await fetch(new URL(path, base), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(jar ? { cookie: jar.header() } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
  jar?.store(res);
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

async function get(path: string, jar: CookieJar) {
  const res = await fetch(new URL(path, base), { redirect: 'manual', headers: { cookie: jar.header() } });
  jar.store(res);
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

/** An authorization request of `clientId` (PKCE, resource = BASE_URL). */
function authorizeUrl(clientId: string, scope: string) {
  const { verifier, challenge } = pkcePair();
  const url = new URL('/oauth/authorize', base);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1:53777/callback',
    scope,
    resource: base,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomString(8),
  }).toString();
  return { url, verifier };
}

/** Follows an authorization request with the jar's cookies: which page does the browser land on? */
async function landing(url: URL, jar: CookieJar): Promise<'login' | 'other'> {
  let next = url.href;
  for (let i = 0; i < 10; i++) {
    const res = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(res);
    const location = res.headers.get('location');
    if (!location) return (await res.text()).includes('name="password"') ? 'login' : 'other';
    await res.arrayBuffer();
    next = new URL(location, next).href;
    if (next.startsWith('http://127.0.0.1:53777/callback')) return 'other';
  }
  return 'other';
}

async function tokens(clientId: string, code: string, verifier: string) {
  const res = await form('/api/oauth/token', {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: 'http://127.0.0.1:53777/callback',
    client_id: clientId,
    resource: base,
  });
  expect(res.status).toBe(200);
  return JSON.parse(res.html) as { access_token: string; refresh_token: string };
}

const bearer = (token: string) =>
  fetch(`${base}/api/v1/members`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);

test('issue #25 finding 2: the pre-account takeover chain ends with the attacker refused at every step', async () => {
  // The attacker is an admin of site B ("second"): they may invite people there.
  const attackerClient = await registerLoopbackClient(base, 'attacker tools', {
    redirect_uris: ['http://127.0.0.1:53777/callback'],
  });
  const attackerToken = await memberToken({
    baseUrl: base,
    email: 'owner@demo.test',
    clientId: attackerClient,
    scope: 'openid members:write',
    site: 'second',
  });
  const created = await fetch(`${base}/api/v1/invitations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${attackerToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: VICTIM, role: 'student' }),
  });
  expect(created.status).toBe(201);
  const { acceptUrl } = (await created.json()) as { acceptUrl: string };

  // Step 1 (2a): the attacker opens the link and tries to choose the account's password. Refused:
  // the page makes no account, and answers like for any address.
  const page = await browser.newPage();
  await page.goto(acceptUrl);
  await page.getByLabel('Password').fill(ATTACKER_PASSWORD);
  await page.getByRole('button', { name: 'Sign in and accept' }).click();
  await page
    .getByRole('alert')
    .filter({ hasText: `Wrong password, or no account yet for ${VICTIM}` })
    .waitFor();
  await page.getByRole('button', { name: 'E-mail me a link' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `We sent a link to ${VICTIM}` })
    .waitFor();
  const attackerSaw = await page.content();
  await page.close();
  // The form of the old page (password + name) makes no account either.
  const oldForm = parseForm(
    (await (await fetch(acceptUrl)).text()).replace('<form method="post"', `<form method="post" action="${acceptUrl}"`),
  );
  const replay = await form(new URL(acceptUrl).pathname, {
    ...oldForm.hidden,
    decision: 'accept',
    password: ATTACKER_PASSWORD,
    name: 'Not The Founder',
  });
  expect(replay.status).toBe(401);
  expect(await server.accounts.userIdByEmail(VICTIM)).toBeUndefined();

  // The links went to the invited address only: RFC 5322 files in the outbox, never in an answer.
  const all = mailsTo(server.dataDir, VICTIM);
  expect(all.map((m) => m.headers.subject)).toEqual([
    'You are invited to Second School',
    ...Array(3).fill('Choose your password and join Second School'),
  ]);
  expect(statSync(outboxOf(server.dataDir)).mode & 0o777).toBe(0o700);
  const mails = all.slice(1);
  for (const mail of all) {
    expect(mail.mode).toBe(0o600);
    expect(mail.headers['mime-version']).toBe('1.0');
    expect(mail.raw).not.toMatch(/[^\r]\n/);
  }
  for (const mail of mails) {
    const token = new URL(mail.links[0]!).searchParams.get('token')!;
    expect(attackerSaw).not.toContain(token);
    expect(replay.html).not.toContain(token);
  }

  // The founder proves the address: opens the mailed link, chooses the password; the account is
  // made then (and the invitation accepted).
  const founder = await browser.newPage();
  await founder.goto(mails.at(-1)!.links[0]!);
  await founder.getByLabel('Your name').fill('Founder');
  await founder.getByLabel('New password').fill('founder-first-password');
  await founder.getByLabel('Repeat the password').fill('founder-first-password');
  await founder.getByRole('button', { name: 'Set password' }).click();
  await founder.getByRole('status').filter({ hasText: 'Second School' }).waitFor();
  await founder.close();
  // Using one link ended the others.
  expect((await fetch(mails[0]!.links[0]!)).status).toBe(400);

  // Step 2 (2b): the operator creates the new site for that address. Refused without the flag.
  const refused = await admin('site', 'create', '--id', 'new-school', '--name', 'New School', '--owner-email', VICTIM);
  expect(refused.code).toBe(1);
  expect(refused.err).toContain(`${VICTIM} already has an account`);
  expect(refused.err).toContain('--existing-account');
  expect(await server.accounts.findSite('new-school')).toBeUndefined();
  const adopted = await admin(
    'site',
    'create',
    '--id',
    'new-school',
    '--name',
    'New School',
    '--owner-email',
    VICTIM,
    '--existing-account',
  );
  expect(adopted.code).toBe(0);
  expect(adopted.out).toContain(`Adopted the existing account ${VICTIM} as its owner`);

  // Suppose the attacker holds sessions of that account anyway (e.g. the first password leaked):
  // a cg_web session on /admin/new-school, an OpenID Provider session, an owner token pair.
  const web = new CookieJar();
  const webForm = parseForm((await get('/signin?next=/admin/new-school', web)).html);
  expect(
    (
      await form(
        '/signin',
        { ...webForm.hidden, email: VICTIM, password: 'founder-first-password', next: '/admin/new-school' },
        web,
      )
    ).status,
  ).toBe(303);
  expect((await get('/admin/new-school', web)).status).toBe(200);
  const oidc = new CookieJar();
  const first = authorizeUrl(attackerClient, 'openid members:read');
  const { callback } = await completeAuthorization(
    first.url,
    { email: VICTIM, password: 'founder-first-password', site: 'new-school' },
    oidc,
  );
  const stolen = await tokens(attackerClient, callback.searchParams.get('code')!, first.verifier);
  expect(await bearer(stolen.access_token)).toBe(200);
  expect(await landing(authorizeUrl(attackerClient, 'openid members:read').url, oidc)).toBe('other');

  // Step 3 (2c): the founder resets the password through a one-time link.
  const reset = await admin('owner', 'reset-link', '--email', VICTIM);
  expect(reset.code).toBe(0);
  const resetLink = /(http\S+\/set-password\?token=\S+)/.exec(reset.out)![1]!;
  const owner = await browser.newPage();
  await owner.goto(resetLink);
  await owner.getByLabel('New password').fill('founder-new-password');
  await owner.getByLabel('Repeat the password').fill('founder-new-password');
  await owner.getByRole('button', { name: 'Set password' }).click();
  await owner.getByText('Password set').waitFor();
  await owner.close();

  // Every one of the attacker's holds is gone, at once.
  const adminPage = await get('/admin/new-school', web);
  expect(adminPage.status).toBe(302);
  expect(adminPage.location).toContain('/signin');
  expect(await bearer(stolen.access_token)).toBe(401);
  const refreshed = await form('/api/oauth/token', {
    grant_type: 'refresh_token',
    refresh_token: stolen.refresh_token,
    client_id: attackerClient,
  });
  expect(refreshed.status).toBe(400);
  expect(JSON.parse(refreshed.html).error).toBe('invalid_grant');
  expect(await landing(authorizeUrl(attackerClient, 'openid members:read').url, oidc)).toBe('login');
  const again = new CookieJar();
  const againForm = parseForm((await get('/signin', again)).html);
  expect(
    (await form('/signin', { ...againForm.hidden, email: VICTIM, password: 'founder-first-password' }, again)).status,
  ).toBe(401);
  // The founder's new password works.
  expect(
    (
      await form(
        '/signin',
        { ...parseForm((await get('/signin', again)).html).hidden, email: VICTIM, password: 'founder-new-password' },
        again,
      )
    ).status,
  ).toBe(303);
}, 120_000);
