/**
 * Issue 30 items 7, 9, 10: every human-facing page in a real browser (Debian's chromium through
 * playwright-core) at 1280×900 and 390×844: no horizontal overflow
 * (`document.documentElement.scrollWidth` ≤ the viewport width) and axe-core with no serious or
 * critical violation. Pages: home, sign-in, /docs, the authorization login, site picker and
 * consent, connected apps and its revoke confirmation, the sign-out page, every /admin page, the
 * error pages (unknown path, expired sign-in, unknown client, permission denial, bad one-time
 * link), set-password and an invitation. Along the way it proves the item 9/10 behaviours a
 * person sees: error pages say what happened and offer a way out, a browser gets an HTML 404
 * (an API client keeps JSON), `/favicon.ico` answers, connected apps shows one row per app with
 * its scopes in words and asks before revoking, no second sign-in right after an authorization,
 * and consent marks new scopes, offers "Not you?" and marks a self-registered client unverified.
 *
 * One browser and one page per person; screenshots go to test-artifacts/responsive/ (gitignored).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import * as client from 'openid-client';
import { launchChromium } from '../helpers/browser.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { OneTimeLinks } from '../../src/platform/one-time-links.js';

const ARTIFACTS = path.resolve('test-artifacts/responsive');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;
const REDIRECT = 'http://127.0.0.1:61090/cb';

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** Every page checked, with what was wrong at which width. */
const findings: Array<{ page: string; width: number; overflow?: number; culprits?: string[]; serious?: string[] }> = [];
const checked: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
}, 60_000);
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await server?.close();
});

/** A person's browser: its own cookies. bypassCSP only lets the test inject axe-core. */
async function person(): Promise<Page> {
  const context = await browser.newContext({ bypassCSP: true, viewport: VIEWPORTS[0] });
  contexts.push(context);
  return context.newPage();
}

/**
 * At each viewport: the page's width against the viewport's, axe-core's serious and critical
 * violations, a full-page screenshot. Findings are collected and asserted once at the end.
 */
async function check(page: Page, name: string): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (await page.evaluate(() => !('axe' in window))) await page.addScriptTag({ content: AXE });
    const serious = (await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
          };
        }
      ).axe;
      const result = await axe.run();
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${v.id}: ${v.nodes
              .map((n) => n.target.join(' '))
              .slice(0, 3)
              .join(', ')}`,
        );
    })) as string[];
    // What sticks out: the innermost elements whose right edge passes the viewport.
    const culprits =
      width > viewport.width
        ? await page.evaluate(
            (w) =>
              [...document.querySelectorAll('body *')]
                .filter(
                  (el) =>
                    el.getBoundingClientRect().right > w + 0.5 &&
                    ![...el.children].some((c) => c.getBoundingClientRect().right > w + 0.5),
                )
                .slice(0, 3)
                .map(
                  (el) =>
                    `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''} (${Math.round(el.getBoundingClientRect().right)})`,
                ),
            viewport.width,
          )
        : [];
    if (width > viewport.width || serious.length)
      findings.push({
        page: name,
        width: viewport.width,
        ...(width > viewport.width ? { overflow: width, culprits } : {}),
        ...(serious.length ? { serious } : {}),
      });
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${viewport.width}.png`), fullPage: true });
  }
  await page.setViewportSize(VIEWPORTS[0]);
  checked.push(name);
}

/** Text of the page's main element. */
const main = (page: Page) => page.locator('main').innerText();

/** An authorization request of a registered public client, as openid-client builds it. */
async function authorizationUrl(clientId: string, scope: string): Promise<string> {
  const config = await client.discovery(new URL(server.baseUrl), clientId, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
  const verifier = client.randomPKCECodeVerifier();
  return client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: client.randomState(),
  }).href;
}

test('issue 30: every human-facing page fits 390 px and 1280 px, passes axe-core, and says what a person needs', async () => {
  const visitor = await person();
  const owner = await person();
  const student = await person();
  await owner.route(`${REDIRECT}**`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!DOCTYPE html><html lang="en"><title>done</title><main>done</main></html>',
    }),
  );

  // --- Public pages.
  await visitor.goto(server.baseUrl);
  await check(visitor, 'home');
  await visitor.goto(`${server.baseUrl}/signin`);
  await check(visitor, 'sign-in');
  await visitor.goto(`${server.baseUrl}/docs`);
  await check(visitor, 'docs');
  await visitor.goto(`${server.baseUrl}/docs/client-developer-guide.md`);
  await check(visitor, 'docs-client-developer-guide');
  await visitor.goto(`${server.baseUrl}/docs/operator-guide.md`);
  await check(visitor, 'docs-operator-guide');

  // --- Error pages (item 9): what happened, and the ways out.
  const missing = await visitor.goto(`${server.baseUrl}/no/such/page`);
  expect(missing?.status()).toBe(404);
  expect(missing?.headers()['content-type']).toMatch(/^text\/html/);
  await expect(visitor.locator('h1').innerText()).resolves.toBe('Page not found');
  expect(await main(visitor)).toContain('There is no page at /no/such/page');
  expect(await visitor.locator('main a[href="/"]').count()).toBe(1);
  expect(await visitor.locator('main a[href="/signout"]').count()).toBe(1);
  await check(visitor, 'error-not-found');
  const api = await fetch(`${server.baseUrl}/no/such/page`, { headers: { accept: 'application/json' } });
  expect([api.status, await api.json()]).toEqual([
    404,
    { error: 'not_found', error_description: 'no resource at /no/such/page' },
  ]);
  const icon = await fetch(`${server.baseUrl}/favicon.ico`);
  expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
  expect(await icon.text()).toMatch(/^<svg /);

  const expired = await visitor.goto(`${server.baseUrl}/interaction/no-such-interaction`);
  expect(expired?.status()).toBe(400);
  expect(await visitor.locator('h1').innerText()).toBe('This link or page has expired');
  await check(visitor, 'error-expired-sign-in');

  const unknownClient = new URL('/oauth/authorize', server.baseUrl);
  unknownClient.search = new URLSearchParams({
    client_id: 'no-such-client',
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'openid',
    code_challenge: 'x'.repeat(43),
    code_challenge_method: 'S256',
  }).toString();
  await visitor.goto(unknownClient.href);
  expect(await visitor.locator('h1').innerText()).toBe('This application cannot sign you in');
  const unknownText = await main(visitor);
  expect(unknownText).toContain('not registered with this server');
  expect(unknownText).not.toContain('client is invalid');
  expect(unknownText).not.toContain('Something went wrong');
  await check(visitor, 'error-unknown-client');

  await visitor.goto(`${server.baseUrl}/set-password?token=${'A'.repeat(43)}`);
  expect(await visitor.locator('h1').innerText()).not.toBe('Something went wrong');
  await check(visitor, 'error-set-password-link');
  const { token } = await new OneTimeLinks(server.store.db).issue('usr_instructor');
  await visitor.goto(`${server.baseUrl}/set-password?token=${token}`);
  await visitor.locator('input[type=password]').first().waitFor();
  await check(visitor, 'set-password');

  // --- An authorization by a self-registered (loopback) client: login, site picker, consent (item 10).
  const registered = await client.dynamicClientRegistration(
    new URL(server.baseUrl),
    {
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      client_name: 'Pocket course tool',
      scope: 'openid courses:read students:read',
    },
    client.None(),
    { execute: [client.allowInsecureRequests] },
  );
  const clientId = registered.clientMetadata().client_id;
  await owner.goto(await authorizationUrl(clientId, 'openid courses:read'));
  await check(owner, 'authorization-login');
  await owner.fill('input[name=email]', 'owner@demo.test');
  await owner.fill('input[name=password]', DEMO_PASSWORD);
  await owner.click('main button[type=submit]');
  await owner.locator('input[name=org_id]').first().waitFor();
  expect(await main(owner)).toContain('Not owner@demo.test? Sign in with another account');
  await check(owner, 'site-picker');
  await owner.click('main button[type=submit]');
  await owner.locator('button[value=approve]').waitFor();
  const consent = await main(owner);
  expect(consent).toContain('Pocket course tool');
  expect(await owner.locator('.unverified').innerText()).toBe('unverified');
  expect(await owner.locator('.scopes .new').count()).toBe(0); // a first authorization: nothing to compare
  const notYou = await owner.locator('a', { hasText: 'Sign in with another account' }).getAttribute('href');
  expect(new URL(notYou!, server.baseUrl).searchParams.get('prompt')).toBe('login');
  expect(new URL(notYou!, server.baseUrl).searchParams.get('client_id')).toBe(clientId);
  await check(owner, 'consent');
  // "Not you?" asks for a sign-in again although this browser has a session (prompt=login).
  await owner.goto(new URL(notYou!, server.baseUrl).href);
  await owner.locator('input[name=password]').waitFor();
  await owner.fill('input[name=email]', 'owner@demo.test');
  await owner.fill('input[name=password]', DEMO_PASSWORD);
  await owner.click('main button[type=submit]');
  await owner.click('main button[type=submit]'); // site picker
  await owner.locator('button[value=approve]').waitFor();
  await owner.click('button[value=approve]');
  await owner.waitForURL(`${REDIRECT}**`);

  // The same app asks for one more scope: the consent marks it as new.
  await owner.goto(await authorizationUrl(clientId, 'openid courses:read students:read'));
  await owner.click('main button[type=submit]'); // site picker
  await owner.locator('button[value=approve]').waitFor();
  expect(await owner.locator('.scopes li', { has: owner.locator('.new') }).innerText()).toContain(
    'See the students of the site',
  );
  await check(owner, 'consent-new-scope');
  await owner.click('button[value=approve]');
  await owner.waitForURL(`${REDIRECT}**`);

  // Connected apps right after: no second sign-in, one row for the app, scopes in words.
  await owner.goto(`${server.baseUrl}/account/connections`);
  expect(new URL(owner.url()).pathname).toBe('/account/connections');
  expect(await owner.locator('tbody tr', { hasText: 'Pocket course tool' }).count()).toBe(1);
  const row = await owner.locator('tbody tr', { hasText: 'Pocket course tool' }).innerText();
  expect(row).toContain('See the courses of the site');
  expect(row).toContain('See the students of the site');
  expect(row).not.toContain('courses:read');
  await check(owner, 'connections');

  // --- Every /admin page.
  await owner.goto(`${server.baseUrl}/admin`);
  await owner.waitForURL(/\/admin\/demo$/);
  await check(owner, 'admin-overview');
  for (const section of [
    'settings',
    'apps',
    'apps/demo-member-cli',
    'apps/demo-member-cli/delete',
    'connections',
    'audit',
    'people',
  ]) {
    const res = await owner.goto(`${server.baseUrl}/admin/demo/${section}`);
    expect({ section, status: res?.status() }).toEqual({ section, status: 200 });
    await check(owner, `admin-${section.replace('/', '-')}`);
  }
  await owner.fill('#invite_email', 'newcomer@example.com');
  await owner.click('text=Create invitation');
  const invitation = (await owner.locator('#invitation-link').innerText()).trim();
  await check(owner, 'admin-people-invited');
  await visitor.goto(invitation);
  await check(visitor, 'invitation');

  // --- A permission denial is not "Something went wrong", and offers sign-out.
  await student.goto(`${server.baseUrl}/signin?next=/admin/demo`);
  await student.fill('#email', 'student@demo.test');
  await student.fill('#password', DEMO_PASSWORD);
  await student.click('main button[type=submit]');
  await student.waitForLoadState();
  expect(await student.locator('h1').innerText()).toBe('You cannot do this here');
  await check(student, 'error-forbidden');
  await student.click('text=Sign out or use another account');
  await student.locator('main button', { hasText: 'Sign out' }).waitFor();
  await check(student, 'sign-out');
  await student.click('main button:has-text("Sign out")');
  await student.waitForURL(`${server.baseUrl}/`);

  // --- Revoke asks first (a confirmation page, no JavaScript needed), then revokes every grant of the app.
  await owner.goto(`${server.baseUrl}/account/connections`);
  await owner.click('text=Revoke…');
  await owner.locator('h1', { hasText: 'Revoke access of Pocket course tool?' }).waitFor();
  expect(await main(owner)).toContain('2 authorizations');
  await check(owner, 'connections-revoke-confirm');
  await owner.click('main button:has-text("Revoke access")');
  await owner.getByText('Access revoked').waitFor();
  expect(await owner.locator('tbody tr', { hasText: 'Pocket course tool' }).count()).toBe(0);

  // Signing out ends the authorization pages' session too: the next authorization asks who you are.
  await owner.goto(`${server.baseUrl}/signout`);
  await owner.click('main button:has-text("Sign out")');
  await owner.waitForURL(`${server.baseUrl}/`);
  await owner.goto(await authorizationUrl(clientId, 'openid courses:read'));
  await owner.locator('input[name=password]').waitFor();

  expect(findings).toEqual([]);
  expect(checked.length).toBeGreaterThanOrEqual(25);
}, 120_000);
