/**
 * A person clicking through login, site picker and consent in a real browser (Debian's chromium
 * driven by playwright-core): the pages work as plain forms, name the client, the site and each
 * scope in plain words, and end at the client's redirect URI with code, state and iss.
 */
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import * as client from 'openid-client';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens the URL and resolves with the first request the browser makes to the redirect URI. */
async function runUntilRedirect(
  page: Page,
  url: string,
  redirectPrefix: string,
  steps: (page: Page) => Promise<void>,
): Promise<URL> {
  const reached = new Promise<URL>((resolve) => {
    page.on('request', (req) => {
      if (req.url().startsWith(redirectPrefix)) resolve(new URL(req.url()));
    });
  });
  await page.goto(url);
  await steps(page);
  return reached;
}

async function authorizationUrl(clientId: string, redirectUri: string, scope: string, resource?: string) {
  const config = await client.discovery(new URL(server.baseUrl), clientId, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    ...(resource ? { resource } : {}),
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  return { url: url.href, state, verifier, config };
}

test('a student signs in and allows demo-member-cli in chromium', async () => {
  const page = await browser.newPage();
  const redirectUri = 'http://127.0.0.1:61002/callback';
  const { url, state } = await authorizationUrl(
    'demo-member-cli',
    redirectUri,
    'openid profile email account:read',
    server.baseUrl,
  );
  const callback = await runUntilRedirect(page, url, redirectUri, async (p) => {
    await p.fill('input[name=email]', 'student@demo.test');
    await p.fill('input[name=password]', DEMO_PASSWORD);
    await p.click('button[type=submit]');
    await p.waitForSelector('button[value=approve]');
    const text = await p.textContent('main');
    expect(text).toContain('Demo member CLI');
    expect(text).toContain('Demo Academy');
    expect(text).toContain('Site application');
    expect(text).toContain('See your enrollments, progress, orders and event registrations');
    await p.click('button[value=approve]');
  });
  expect(callback.searchParams.get('code')).toBeTruthy();
  expect(callback.searchParams.get('state')).toBe(state);
  expect(callback.searchParams.get('iss')).toBe(server.baseUrl);
  await page.close();
}, 60_000);

test('an owner of two sites picks the site, then sees the operator scopes on the consent page', async () => {
  const registered = await client.dynamicClientRegistration(
    new URL(server.baseUrl),
    {
      redirect_uris: ['http://127.0.0.1:61003/cb'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      client_name: 'Browser test CLI',
      scope: 'openid courses:read',
    },
    client.None(),
    { execute: [client.allowInsecureRequests] },
  );
  const page = await browser.newPage();
  const redirectUri = 'http://127.0.0.1:61003/cb';
  const { url, state, verifier, config } = await authorizationUrl(
    registered.clientMetadata().client_id,
    redirectUri,
    'openid courses:read',
  );
  const callback = await runUntilRedirect(page, url, redirectUri, async (p) => {
    await p.fill('input[name=email]', 'owner@demo.test');
    await p.fill('input[name=password]', DEMO_PASSWORD);
    await p.click('button[type=submit]');
    await p.waitForSelector('input[name=org_id]');
    const options = await p.$$eval('input[name=org_id]', (els) => els.map((e) => (e as HTMLInputElement).value));
    expect(options.sort()).toEqual(['demo', 'second']);
    await p.check('input[name=org_id][value=second]');
    await p.click('button[type=submit]');
    await p.waitForSelector('button[value=approve]');
    const text = await p.textContent('main');
    expect(text).toContain('Second School');
    expect(text).toContain('See the courses of the site');
    await p.click('button[value=approve]');
  });
  expect(callback.searchParams.get('code')).toBeTruthy();
  // The token acts at the site the person picked (DESIGN D5).
  const tokens = await client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  expect(tokens.claims()).toMatchObject({ sub: 'usr_owner', org_id: 'second', roles: ['admin'] });
  const introspection = await client.tokenIntrospection(config, tokens.access_token);
  expect(introspection).toMatchObject({ active: true, org_id: 'second', scope: 'courses:read', aud: server.baseUrl });
  await page.close();
}, 60_000);
