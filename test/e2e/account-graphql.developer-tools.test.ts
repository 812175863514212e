/**
 * The Account API for developers (SPEC §2.4, issue #16): introspection for authenticated callers,
 * the SDL at a stable URL equal to the committed docs/account-api.graphql, and GraphiQL at
 * `GET /account/graphql` (outside production) running the viewer query with a member token in a
 * real browser (Debian's chromium via playwright-core), with no request leaving the origin.
 */
import { readFileSync } from 'node:fs';
import { buildClientSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema, type IntrospectionQuery } from 'graphql';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken } from '../helpers/member-token.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ ACCOUNT_GRAPHIQL: '1' }); // on by default in development only
  token = await memberToken({ baseUrl: server.baseUrl, email: 'student@demo.test', scope: 'openid account:read' });
});
afterAll(() => server?.close());

const introspect = (authorization?: string) =>
  fetch(`${server.baseUrl}/account/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify({ query: getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }) }),
  });

describe('introspection and the SDL', () => {
  test('a member token reads the schema by the standard introspection query; it equals the SDL URL and docs/account-api.graphql', async () => {
    const res = await introspect(`Bearer ${token}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: IntrospectionQuery; errors?: unknown };
    expect(body.errors).toBeUndefined();
    const introspected = `${printSchema(lexicographicSortSchema(buildClientSchema(body.data)))}\n`;

    const sdl = await fetch(`${server.baseUrl}/account/graphql/schema.graphql`);
    expect(sdl.status).toBe(200);
    expect(sdl.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await sdl.text();
    expect(text).toBe(introspected);
    expect(readFileSync('docs/account-api.graphql', 'utf8')).toBe(text); // `npm run docs:sdl` rewrites it
    expect(text).toContain('type Viewer');
  });

  test('without a token introspection is refused like any query (401 + WWW-Authenticate)', async () => {
    const res = await introspect();
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  test('a GET with a token and no query is the API, not the page', async () => {
    const res = await fetch(`${server.baseUrl}/account/graphql`, { headers: { accept: 'text/html', authorization: `Bearer ${token}` } });
    expect(res.headers.get('content-type') ?? '').not.toMatch(/text\/html/);
    expect(await res.text()).not.toContain('<html');
  });
});

describe('GraphiQL at GET /account/graphql (development)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  test('the page is served from this origin with a CSP that lets it run and forbids framing', async () => {
    const res = await fetch(`${server.baseUrl}/account/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'sha256-/);
    expect(csp).not.toContain('unsafe-eval');
    expect(await res.text()).not.toMatch(/<script[^>]+src=["']?https?:/);
  });

  test('a member pastes a token in the headers editor and runs the viewer query', async () => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const outside: string[] = [];
    const cspErrors: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(server.baseUrl) && !/^(blob|data):/.test(req.url())) outside.push(req.url());
    });
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspErrors.push(msg.text());
    });
    await page.goto(`${server.baseUrl}/account/graphql`);
    await page.getByText('Headers', { exact: true }).first().waitFor();

    // The headers editor: select the placeholder and paste the real header (as a person would).
    await page.evaluate((text) => navigator.clipboard.writeText(text), JSON.stringify({ Authorization: `Bearer ${token}` }));
    await page.locator('.graphiql-editor-tool .graphiql-editor').last().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+V');

    const answered = page.waitForResponse((r) => r.url() === `${server.baseUrl}/account/graphql` && r.request().method() === 'POST' && (r.request().postData() ?? '').includes('viewer'));
    await page.locator('.graphiql-execute-button').click();
    const response = await answered;
    expect(response.status()).toBe(200);
    const json = (await response.json()) as { data?: { viewer: { email: string; enrolledCourses: { nodes: Array<{ slug: string }> } } } };
    expect(json.data?.viewer.email).toBe('student@demo.test');
    await page.getByText('student@demo.test').first().waitFor(); // shown in the result pane
    expect(outside).toEqual([]);
    expect(cspErrors).toEqual([]);
    await context.close();
  }, 90_000);
});
