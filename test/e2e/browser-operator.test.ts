/**
 * Issue 11, the whole story in a real browser (Debian chromium via playwright-core): from an empty
 * production-mode store, `npm run admin -- site create` makes a site; its owner sets a password
 * through the one-time link, signs in, enables the "MCP connections" beta and creates an
 * application; a member authorizes it through the real login and consent pages; the owner sees the
 * grant in Connected apps and the consent in the audit trail and revokes it; the member's token is
 * refused at /account/graphql and /mcp at once; switching the beta off refuses the application's
 * next authorization and refresh.
 *
 * axe-core runs in every page visited (no serious or critical violation allowed); screenshots go to
 * test-artifacts/ (gitignored).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import * as client from 'openid-client';
import { generateSigningKey } from '../../src/oauth/keys.js';
import { hashPassword } from '../../src/platform/passwords.js';
import { freePort, startTestServer, type TestServer } from '../helpers/server.js';

const ARTIFACTS = path.resolve('test-artifacts/operator');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const OWNER_PASSWORD = 'maple-owner-password';
const MEMBER_PASSWORD = 'maple-member-password';
const REDIRECT = 'http://127.0.0.1:61020/callback';

let dir: string;
let env: Record<string, string>;
let server: TestServer;
let browser: Browser;
let owner: Page;
let member: BrowserContext;

/** Runs axe-core in the page; fails on any serious or critical violation. Then saves a screenshot. */
async function check(page: Page, name: string): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const violations = (await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3),
    }));
  })) as Array<{ id: string; impact: string; targets: string[] }>;
  expect({ page: name, serious: violations.filter((v) => v.impact === 'serious' || v.impact === 'critical') }).toEqual({
    page: name,
    serious: [],
  });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  dir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-operator-'));
  const keyFile = path.join(dir, 'signing-key.json');
  writeFileSync(keyFile, JSON.stringify(await generateSigningKey()));
  const port = await freePort();
  env = {
    NODE_ENV: 'production',
    BASE_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    COOKIE_SECRETS: 'o'.repeat(48),
    SIGNING_KEY_FILE: keyFile,
    DATA_DIR: path.join(dir, 'data'),
    LOG_LEVEL: 'silent',
  };
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close({ keepData: true });
  rmSync(dir, { recursive: true, force: true });
});

/** The first-run command, as an operator types it. @returns the one-time link it prints */
function firstRun(): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = [
      '--import',
      'tsx',
      'src/cli/admin.ts',
      'site',
      'create',
      '--id',
      'maple',
      '--name',
      'Maple School',
      '--owner-email',
      'owner@maple.test',
    ];
    execFile(
      process.execPath,
      args,
      { env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', ...env } },
      (error, stdout) => {
        const link = /(http\S+\/set-password\?token=\S+)/.exec(stdout)?.[1];
        if (error || !link) reject(error ?? new Error(stdout));
        else resolve(link);
      },
    );
  });
}

/** The member's authorization in their own browser context: login + consent. @returns the redirect (or undefined when a page refused) */
async function memberAuthorizes(
  config: client.Configuration,
  screenshots: boolean,
): Promise<{ callback?: URL; verifier: string; state: string; page: Page }> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid account:read',
    resource: server.baseUrl,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const page = await member.newPage();
  let callback: URL | undefined;
  await page.route(`${REDIRECT}**`, (route) => {
    callback = new URL(route.request().url());
    return route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!DOCTYPE html><html lang="en"><title>done</title><main>done</main></html>',
    });
  });
  await page.goto(url.href);
  if (await page.locator('input[name=password]').count()) {
    if (screenshots) await check(page, '05-login');
    await page.fill('input[name=email]', 'member@maple.test');
    await page.fill('input[name=password]', MEMBER_PASSWORD);
    await page.click('button[type=submit]');
  }
  if (await page.locator('button[name=decision][value=approve]').count()) {
    if (screenshots) await check(page, '06-consent');
    await page.click('button[name=decision][value=approve]');
    await page.waitForURL(`${REDIRECT}**`);
  }
  return { callback, verifier, state, page };
}

test('issue 11 story: first run → owner → beta → app → member consent → revoke → beta off', async () => {
  const link = await firstRun();
  server = await startTestServer(env, env.DATA_DIR, Number(env.PORT));
  // A member of the site (invitations are the admin API's, issue 10): a student with a password.
  const db = server.store.db;
  await db
    .insertInto('users')
    .values({
      id: 'usr_member',
      email: 'member@maple.test',
      name: 'Mia Member',
      password_hash: await hashPassword(MEMBER_PASSWORD),
      created_at: new Date().toISOString(),
    })
    .execute();
  await db.insertInto('memberships').values({ site_id: 'maple', user_id: 'usr_member', role: 'student' }).execute();

  const ownerContext = await browser.newContext({ bypassCSP: true }); // bypassCSP only lets the test inject axe-core
  owner = await ownerContext.newPage();
  await owner.goto(link);
  await check(owner, '01-set-password');
  await owner.fill('#password', OWNER_PASSWORD);
  await owner.fill('#confirm', OWNER_PASSWORD);
  await owner.click('button[type=submit]');
  await owner.getByText('Password set').waitFor();

  await owner.click('text=Go to the admin area');
  await owner.waitForURL(/\/signin/);
  await check(owner, '02-sign-in');
  await owner.fill('#email', 'owner@maple.test');
  await owner.fill('#password', OWNER_PASSWORD);
  await owner.click('main button[type=submit]');
  await owner.waitForURL(/\/admin\/maple$/);
  await check(owner, '03-overview');

  await owner.click('nav >> text=Site settings');
  await owner.check('input[name=mcp_connections][value=on]');
  await owner.click('main button[type=submit]');
  await owner.getByText('Saved.').waitFor();
  await check(owner, '04-settings');

  await owner.click('nav >> text=Developers');
  await owner.fill('#client_name', 'Maple study helper');
  await owner.fill('#redirect_uris', REDIRECT);
  await owner.click('text=Create application');
  const clientId = (await owner.locator('#new-client-id').textContent())!.trim();
  expect(clientId).toMatch(/^mc_/);
  await check(owner, '04-developers');

  member = await browser.newContext({ bypassCSP: true });
  const config = await client.discovery(new URL(server.baseUrl), clientId, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
  const first = await memberAuthorizes(config, true);
  expect(first.callback?.searchParams.get('code')).toEqual(expect.any(String));
  const tokens = await client.authorizationCodeGrant(
    config,
    first.callback!,
    { pkceCodeVerifier: first.verifier, expectedState: first.state },
    { resource: server.baseUrl },
  );
  const viewer = () =>
    fetch(`${server.baseUrl}/account/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: '{"query":"{ viewer { id } }"}',
    });
  const mcp = () =>
    fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
      }),
    });
  expect((await viewer()).status).toBe(200);

  // Signed in on the login page a moment ago: connected apps opens without a second sign-in (issue 30).
  const mine = await member.newPage();
  await mine.goto(`${server.baseUrl}/account/connections`);
  expect(new URL(mine.url()).pathname).toBe('/account/connections');
  await mine.getByText('Maple study helper').waitFor();
  await check(mine, '09-account-connections');

  await owner.click('nav >> text=Connected apps');
  await owner.getByText('member@maple.test').waitFor();
  await check(owner, '07-connected-apps');
  await owner.click('nav >> text=Audit trail');
  await owner.locator('td', { hasText: 'Consent given' }).first().waitFor();
  await check(owner, '08-audit');
  await owner.click('nav >> text=Connected apps');
  await owner.click('button:text-is("Revoke")');
  await owner.getByText('1 grant(s) revoked').waitFor();
  expect((await viewer()).status).toBe(401);
  expect((await mcp()).status).toBe(401);

  // Authorized again, then the beta goes off: the next authorization and the refresh are refused.
  const second = await memberAuthorizes(config, false);
  const again = await client.authorizationCodeGrant(
    config,
    second.callback!,
    { pkceCodeVerifier: second.verifier, expectedState: second.state },
    { resource: server.baseUrl },
  );
  await owner.click('nav >> text=Site settings');
  await owner.check('input[name=mcp_connections][value=off]');
  await owner.click('main button[type=submit]');
  await owner.getByText('Saved.').waitFor();
  const refused = await memberAuthorizes(config, false);
  expect(refused.callback).toBeUndefined();
  await refused.page.getByText('suspended').first().waitFor();
  await check(refused.page, '10-suspended');
  await expect(client.refreshTokenGrant(config, again.refresh_token!)).rejects.toMatchObject({
    error: 'invalid_grant',
  });

  const home = await member.newPage();
  await home.goto(server.baseUrl);
  await check(home, '11-home');
  await owner.click('nav >> text=People');
  await check(owner, '12-people');
}, 90_000);
