/**
 * The Account API for developers (SPEC §2.4, issue #16): introspection for authenticated callers,
 * the SDL at a stable URL equal to the committed docs/account-api.graphql, and GraphiQL at
 * `GET /account/graphql` (outside production) running the viewer query with a member token in a
 * real browser (Debian's chromium via playwright-core), with no request leaving the origin.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import {
  buildClientSchema,
  getIntrospectionQuery,
  lexicographicSortSchema,
  printSchema,
  type IntrospectionQuery,
} from 'graphql';
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
    const res = await fetch(`${server.baseUrl}/account/graphql`, {
      headers: { accept: 'text/html', authorization: `Bearer ${token}` },
    });
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

  /** One raw GET (node:http, no decompression) of the page. */
  function rawGet(
    headers: Record<string, string>,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(`${server.baseUrl}/account/graphql`, { headers: { accept: 'text/html', ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
  }

  test('issue 30: the page is compressed (br, gzip), revalidated by ETag, has a viewport and says where a token comes from', async () => {
    const plain = await rawGet({});
    expect(plain.headers['content-encoding']).toBeUndefined();
    const html = plain.body.toString('utf8');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1" />');
    expect(html).toContain('No schema in the explorer yet? It needs a member access token');
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    const etag = plain.headers.etag!;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const br = await rawGet({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(zlib.brotliDecompressSync(br.body).toString('utf8')).toBe(html);
    const gz = await rawGet({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString('utf8')).toBe(html);
    // Same CSP whatever the encoding.
    expect(gz.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);

    const again = await rawGet({ 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  }, 60_000);

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
    await page.evaluate(
      (text) => navigator.clipboard.writeText(text),
      JSON.stringify({ Authorization: `Bearer ${token}` }),
    );
    await page.locator('.graphiql-editor-tool .graphiql-editor').last().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+V');

    const answered = page.waitForResponse(
      (r) =>
        r.url() === `${server.baseUrl}/account/graphql` &&
        r.request().method() === 'POST' &&
        (r.request().postData() ?? '').includes('viewer'),
    );
    await page.locator('.graphiql-execute-button').click();
    const response = await answered;
    expect(response.status()).toBe(200);
    const json = (await response.json()) as {
      data?: { viewer: { email: string; enrolledCourses: { nodes: Array<{ slug: string }> } } };
    };
    expect(json.data?.viewer.email).toBe('student@demo.test');
    await page.getByText('student@demo.test').first().waitFor(); // shown in the result pane
    expect(outside).toEqual([]);
    expect(cspErrors).toEqual([]);
    await context.close();
  }, 90_000);
});
