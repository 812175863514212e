/**
 * Issue #30 item 8, the `/admin` forms as an operator clicks them (Debian chromium via
 * playwright-core, JavaScript off: every step is a plain form or link):
 *
 * - Developers is in the menu with the "MCP connections" beta off, and its page links to the switch;
 * - a refused application form comes back filled in, naming the field as people read it;
 * - creating an application answers what its developer needs (client_id, secret once, discovery
 *   URL, redirect URIs, `resource`, scopes in the operator's voice, the client developer guide);
 * - Delete is a link to a confirmation page whose required checkbox names whose sign-ins end: the
 *   browser will not submit it unticked, and nothing is deleted until it is ticked;
 * - both role pickers start at `student`; an admin is not offered `owner`; the only owner is not
 *   offered "Remove owner".
 *
 * Each page visited passes axe-core (no serious or critical violation) and fits 390 px;
 * screenshots go to test-artifacts/admin-forms/ (gitignored).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { memberToken } from '../helpers/member-token.js';
import { viewerStatus } from '../helpers/flows.js';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';

const ARTIFACTS = path.resolve('test-artifacts/admin-forms');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let owner: Page;

/** axe-core finds no serious or critical violation; the page fits 390 px and 1280 px; screenshots kept. */
async function check(page: Page, name: string): Promise<void> {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ]) {
    await page.setViewportSize(viewport);
    expect({
      name,
      viewport: viewport.width,
      scrollWidth: await page.evaluate(() => document.documentElement.scrollWidth),
    }).toEqual({ name, viewport: viewport.width, scrollWidth: viewport.width });
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${viewport.width}.png`), fullPage: true });
  }
  await page.addScriptTag({ content: AXE });
  const serious = await page.evaluate(async () => {
    const result = await (
      window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string }> }> } }
    ).axe.run();
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  });
  expect({ name, serious }).toEqual({ name, serious: [] });
}

const main = (page: Page) => page.locator('main');

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  // bypassCSP only lets the test inject axe-core; JavaScript off proves the forms need none.
  context = await browser.newContext({
    bypassCSP: true,
    javaScriptEnabled: false,
    viewport: { width: 1280, height: 900 },
  });
  owner = await context.newPage();
  await owner.goto(`${server.baseUrl}/signin?next=/admin/demo`);
  await owner.fill('#email', 'owner@demo.test');
  await owner.fill('#password', DEMO_PASSWORD);
  await owner.click('main button[type=submit]');
  await owner.waitForURL(/\/admin\/demo$/);
}, 60_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

/**
 * Checks the operator's current page in a context with JavaScript on, for axe-core (the pages
 * themselves need none): the page's HTML is loaded at its own origin, so a POST's answer is checked
 * as it was shown, without sending the form again.
 */
async function checked(from: Page, name: string): Promise<void> {
  const withJs = await browser.newContext({ bypassCSP: true, storageState: await context.storageState() });
  try {
    const page = await withJs.newPage();
    await page.goto(`${server.baseUrl}/healthz`);
    await page.setContent(await from.content(), { waitUntil: 'load' });
    await check(page, name);
  } finally {
    await withJs.close();
  }
}

test('with the beta off, Developers is in the menu and its page links to the switch in Site settings', async () => {
  await owner.click('nav >> text=Site settings');
  await owner.check('input[name=mcp_connections][value=off]');
  await owner.click('main button[type=submit]');
  await owner.getByText('Saved.').waitFor();
  await owner.click('nav[aria-label=Sections] >> text=Developers');
  await expect(main(owner).innerText()).resolves.toContain(
    'This needs the MCP connections beta feature, which is off at this site.',
  );
  await checked(owner, 'developers-beta-off');
  await owner.click('text=Turn it on in Site settings');
  expect(new URL(owner.url()).pathname).toBe('/admin/demo/settings');
  await owner.check('input[name=mcp_connections][value=on]');
  await owner.click('main button[type=submit]');
  await owner.getByText('Saved.').waitFor();
  await owner.click('nav[aria-label=Sections] >> text=Developers');
  await owner.locator('#client_name').waitFor();
}, 60_000);

test('a refused form keeps what was typed; creation answers what the developer needs; delete asks first', async () => {
  await owner.goto(`${server.baseUrl}/admin/demo/apps`);
  // Scopes are described to the operator.
  await owner
    .getByRole('checkbox', {
      name: "account:read Lets the app read the member's enrollments, progress, orders and event registrations",
    })
    .waitFor();
  await expect(main(owner).innerText()).resolves.not.toContain('See your');
  await owner.fill('#client_name', 'Quiz helper');
  await owner.fill('#redirect_uris', 'https://quiz.example.com/cb\nhttp://evil.example/cb');
  await owner.check('input[name=confidential]');
  await owner.click('text=Create application');
  await expect(owner.locator('[role=alert]').innerText()).resolves.toMatch(/^Not created: Redirect URIs \(line 2\): /);
  await expect(owner.inputValue('#client_name')).resolves.toBe('Quiz helper');
  await expect(owner.inputValue('#redirect_uris')).resolves.toBe('https://quiz.example.com/cb\nhttp://evil.example/cb');
  await expect(owner.isChecked('input[name=confidential]')).resolves.toBe(true);

  // A public app this time (the confidential one's secret on this page: operator-area.test.ts).
  await owner.fill('#redirect_uris', 'http://127.0.0.1/callback');
  await owner.uncheck('input[name=confidential]');
  await owner.click('text=Create application');
  const clientId = (await owner.locator('#new-client-id').innerText()).trim();
  expect(clientId).toMatch(/^mc_/);
  const text = await main(owner).innerText();
  expect(text).toContain('What its developer needs');
  expect(text).toContain('Public: no secret; every authorization uses PKCE (S256).');
  expect(text).toContain(`${server.baseUrl}/.well-known/oauth-authorization-server`);
  expect(text).toContain('http://127.0.0.1/callback');
  expect(text).toContain(`Every authorization request and token request must send resource=${server.baseUrl}`);
  expect(text).toContain('openid Lets the app sign the member in and know who they are');
  await checked(owner, 'created');
  await owner.click('text=the client developer guide');
  await expect(owner.locator('h1').first().innerText()).resolves.toBe('Client developer guide');

  // A member connects it; Delete is a link to a confirmation, never a one-click POST.
  const token = await memberToken({
    baseUrl: server.baseUrl,
    email: 'student@demo.test',
    clientId,
    scope: 'openid account:read',
  });
  await owner.goto(`${server.baseUrl}/admin/demo/apps`);
  await owner.click(`a[aria-label="Delete Quiz helper"]`);
  await owner.getByRole('heading', { name: /Delete Quiz helper\?/ }).waitFor();
  const box = owner.getByRole('checkbox', { name: "Delete Quiz helper: its 1 member's sign-in ends" });
  await expect(box.isChecked()).resolves.toBe(false);
  await checked(owner, 'delete-confirmation');
  // Unticked, the browser does not send the form (required); nothing is deleted.
  await owner.click('text=Delete application');
  expect(new URL(owner.url()).pathname).toBe(`/admin/demo/apps/${clientId}/delete`);
  expect(await viewerStatus(server.baseUrl, token)).toBe(200);
  await box.check();
  await owner.click('text=Delete application');
  await owner.getByText('Application deleted; its grants and tokens were revoked.').waitFor();
  expect(await viewerStatus(server.baseUrl, token)).toBe(401);
  await expect(main(owner).innerText()).resolves.not.toContain(clientId);
}, 90_000);

test('role pickers start at student; an admin is not offered owner; the only owner is not offered "Remove owner"', async () => {
  await owner.goto(`${server.baseUrl}/admin/demo/people`);
  await expect(owner.inputValue('#role_role')).resolves.toBe('student');
  await expect(owner.inputValue('#invite_role')).resolves.toBe('student');
  await expect(owner.locator('#invite_role option').allInnerTexts()).resolves.toEqual([
    'owner',
    'admin',
    'instructor',
    'student',
  ]);
  await expect(owner.getByRole('button', { name: 'Remove owner' }).count()).resolves.toBe(0);
  await expect(owner.getByRole('button', { name: 'Remove student' }).count()).resolves.toBeGreaterThan(0);
  await checked(owner, 'people-owner');

  // Inviting with the default makes a student invitation.
  await owner.fill('#invite_email', 'default-role@example.com');
  await owner.click('text=Create invitation');
  await owner.locator('#invitation-link').waitFor();
  await expect(owner.locator('tr', { hasText: 'default-role@example.com' }).innerText()).resolves.toMatch(/student/);

  // At `second` the same person is an admin: owner is neither given, invited nor removed.
  await owner.goto(`${server.baseUrl}/admin/second/people`);
  for (const picker of ['#role_role', '#invite_role']) {
    await expect(owner.inputValue(picker)).resolves.toBe('student');
    await expect(owner.locator(`${picker} option`).allInnerTexts()).resolves.toEqual([
      'admin',
      'instructor',
      'student',
    ]);
  }
  await expect(owner.getByRole('button', { name: 'Remove owner' }).count()).resolves.toBe(0);
}, 60_000);
