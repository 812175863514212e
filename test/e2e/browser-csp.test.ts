/**
 * Issue #13 finding 9 (docs/security.md "Content Security Policy"): the CSP of our pages lets
 * oidc-provider's own pages work in a real browser (Debian's chromium via playwright-core):
 * `response_mode=form_post` (its inline auto-submit script, allowed by hash), signing in again as
 * another person while signed in, and RP-initiated logout, each ending at the client, with no CSP
 * violation reported by the browser.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { pkcePair } from '../helpers/pkce.js';

interface Arrival {
  method: string;
  path: string;
  body: URLSearchParams;
}

let server: TestServer;
let browser: Browser;
let client: Server;
let clientOrigin: string;
let clientId: string;
const arrivals: Arrival[] = [];
const waiters: Array<(a: Arrival) => void> = [];

/** Resolves with the next request the client's pages receive. */
const nextArrival = (): Promise<Arrival> => new Promise((resolve) => waiters.push(resolve));

beforeAll(async () => {
  server = await startTestServer();
  client = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      // Chromium asks every origin it lands on for /favicon.ico; that is not the client's callback.
      if (url.pathname === '/favicon.ico') {
        res.writeHead(404).end();
        return;
      }
      const arrival = {
        method: req.method ?? '',
        path: url.pathname,
        body: new URLSearchParams(req.method === 'POST' ? raw : url.search),
      };
      arrivals.push(arrival);
      waiters.shift()?.(arrival);
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!DOCTYPE html><title>client</title><p>back at the client</p>');
    });
  });
  await new Promise<void>((resolve) => client.listen(0, '127.0.0.1', () => resolve()));
  clientOrigin = `http://127.0.0.1:${(client.address() as AddressInfo).port}`;
  const res = await fetch(`${server.baseUrl}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'CSP test client',
      redirect_uris: [`${clientOrigin}/cb`],
      post_logout_redirect_uris: [`${clientOrigin}/bye`],
      token_endpoint_auth_method: 'none',
      scope: 'openid',
    }),
  });
  clientId = ((await res.json()) as { client_id: string }).client_id;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => client?.close(() => resolve()) ?? resolve());
  await server?.close();
});

let verifier = '';

function authorizeUrl(extra: Record<string, string> = {}): string {
  const url = new URL(`${server.baseUrl}/oauth/authorize`);
  const pkce = pkcePair();
  verifier = pkce.verifier;
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: `${clientOrigin}/cb`,
    scope: 'openid',
    response_mode: 'form_post',
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state: 'csp-state',
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

/** Exchanges a code (the last `authorizeUrl`'s verifier) and returns the id_token's `sub`. */
async function subjectOf(code: string): Promise<string> {
  const res = await fetch(`${server.baseUrl}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${clientOrigin}/cb`,
      client_id: clientId,
      code_verifier: verifier,
    }),
  });
  const tokens = (await res.json()) as { id_token?: string };
  expect(res.status).toBe(200);
  return (JSON.parse(Buffer.from(tokens.id_token!.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
}

/** Waits until the browser shows the client's page (the server may see the request first). */
async function atClient(page: Page): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(clientOrigin));
  await page.waitForSelector('text=back at the client');
}

/** CSP violations the browser reports on a page. */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  return violations;
}

async function signIn(page: Page, email: string, site?: string): Promise<void> {
  await page.waitForSelector('input[name=email]');
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', DEMO_PASSWORD);
  await page.click('button[type=submit]');
  if (site) {
    await page.waitForSelector('input[name=org_id]');
    await page.check(`input[name=org_id][value=${site}]`);
    await page.click('button[type=submit]');
  }
  // Consent is asked unless this person already allowed this client.
  const consent = await page.waitForSelector('button[value=approve]', { timeout: 5000 }).catch(() => undefined);
  await consent?.click();
}

test('form_post, signing in again as another person, and RP-initiated logout all end at the client', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations = watchCsp(page);

  // 1. response_mode=form_post: oidc-provider's auto-submit page posts the code to the client.
  let arrival = nextArrival();
  await page.goto(authorizeUrl());
  await signIn(page, 'student@demo.test');
  let posted = await arrival;
  await atClient(page);
  expect(posted).toMatchObject({ method: 'POST', path: '/cb' });
  expect(posted.body.get('code')).toBeTruthy();
  expect(posted.body.get('state')).toBe('csp-state');
  expect(await subjectOf(posted.body.get('code')!)).toBe('usr_student');

  // 2. Signed in as the student, sign in again (prompt=login) as the owner.
  arrival = nextArrival();
  await page.goto(authorizeUrl({ prompt: 'login', state: 'second' }));
  await signIn(page, 'owner@demo.test', 'demo');
  posted = await arrival;
  await atClient(page);
  expect(posted.path).toBe('/cb');
  expect(posted.body.get('code')).toBeTruthy();
  expect(posted.body.get('state')).toBe('second');
  expect(await subjectOf(posted.body.get('code')!)).toBe('usr_owner');

  // 3. RP-initiated logout: confirm on our page, end at the registered post-logout URI.
  arrival = nextArrival();
  await page.goto(
    `${server.baseUrl}/api/oauth/logout?client_id=${encodeURIComponent(clientId)}&post_logout_redirect_uri=${encodeURIComponent(`${clientOrigin}/bye`)}&state=out`,
  );
  await page.waitForSelector('button[name=logout]');
  expect(await page.textContent('h1')).toContain(new URL(server.baseUrl).host);
  await page.click('button[name=logout]');
  const bye = await arrival;
  expect(bye).toMatchObject({ method: 'GET', path: '/bye' });
  expect(bye.body.get('state')).toBe('out');

  expect(violations).toEqual([]);
  await context.close();
}, 90_000);
