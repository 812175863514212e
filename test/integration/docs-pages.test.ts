/**
 * `/docs` (issue #30 item 5): the integrator and operator pages as HTML on a real server. Every
 * page renders, every link on it that stays on this server answers (other pages, their anchors,
 * images), no maintainer-only passage and no citation of a document integrators cannot open
 * (SPEC.md, DESIGN.md) is published, and every `error_uri`-style docs link of the code lands on a
 * heading that exists. Issue #30 item 4: what integrators read (every served page, and the texts of
 * real error responses, challenges, problem bodies, GraphQL errors, the OpenAPI and metadata
 * documents, the GraphQL schema's descriptions and the MCP tool list) cites RFCs and our own pages,
 * never SPEC.md or DESIGN.md, and names no test file.
 */
import { DOCS_PAGES } from '../../src/interaction/docs-pages.js';
import { DOC_TOPICS } from '../../src/http/docs-links.js';
import { memberToken } from '../helpers/member-token.js';
import { pkcePair } from '../helpers/pkce.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const pages = new Map<string, string>();
async function page(file: string): Promise<string> {
  if (!pages.has(file)) {
    const res = await fetch(`${server.baseUrl}/docs/${file}`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect([file, res.status, res.headers.get('content-type')]).toEqual([file, 200, 'text/html; charset=utf-8']);
    pages.set(file, await res.text());
  }
  return pages.get(file)!;
}
const ids = (html: string) => new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!));

test('/docs lists every published page; each renders as HTML in the shared layout', async () => {
  const index = await (await fetch(`${server.baseUrl}/docs`)).text();
  for (const file of DOCS_PAGES.keys()) {
    expect(index).toContain(`href="/docs/${file}"`);
    const html = await page(file);
    expect(html).toContain('<link rel="stylesheet" href="/assets/coursegate.css">');
    expect(html).toContain('<meta name="viewport"');
    expect(html).not.toMatch(/<!-- internal -->/);
  }
});

test('every same-server link of every page answers, anchors included', async () => {
  const broken: string[] = [];
  for (const file of DOCS_PAGES.keys()) {
    const html = await page(file);
    for (const [, href] of html.matchAll(/<(?:a href|img src)="([^"]+)"/g)) {
      const link = href!.replace(/&amp;/g, '&');
      if (/^[a-z]+:/i.test(link) && !link.startsWith(server.baseUrl)) continue; // another site
      const url = new URL(link, `${server.baseUrl}/docs/${file}`);
      if (!url.pathname.startsWith('/docs')) continue; // the server's own routes are tested elsewhere
      const target =
        url.pathname === `/docs/${file}`
          ? html
          : url.pathname.endsWith('.md')
            ? await page(url.pathname.slice('/docs/'.length)).catch(() => '')
            : undefined;
      if (target === undefined) {
        const res = await fetch(url);
        if (res.status !== 200) broken.push(`${file}: ${link} → ${res.status}`);
        continue;
      }
      if (url.hash && !ids(target).has(decodeURIComponent(url.hash.slice(1))))
        broken.push(`${file}: ${link} (no such heading)`);
    }
  }
  expect(broken).toEqual([]);
});

test('every docs topic that error descriptions link to lands on an existing heading', async () => {
  for (const [topic, ref] of Object.entries(DOC_TOPICS)) {
    const [file, anchor] = ref.split('#');
    const html = await page(file!);
    if (anchor) expect([topic, ids(html).has(anchor)]).toEqual([topic, true]);
  }
});

test('the Markdown source stays available for tools (Accept: text/markdown, ?format=md)', async () => {
  const res = await fetch(`${server.baseUrl}/docs/mcp.md?format=md`);
  expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
  expect(await res.text()).toMatch(/^# /);
  expect((await fetch(`${server.baseUrl}/docs/ARCHITECTURE.md`)).status).toBe(404);
  // Every spelling the route table accepts (case, trailing slash) reaches the same page.
  for (const spelling of ['/DOCS/MCP.MD', '/docs/mcp.md/', '/Docs/Img/operator-08-audit.PNG'])
    expect([spelling, (await fetch(`${server.baseUrl}${spelling}`)).status]).toEqual([spelling, 200]);
});

test('a mistyped docs address is the HTML 404 page, like every docs 404, whatever the Accept header', async () => {
  for (const path of ['/docs//mcp.md', '/docs/no-such-page.md', '/docs/a/b/c', '/docs/img//x.png']) {
    for (const accept of ['*/*', 'application/json', 'text/html']) {
      const res = await fetch(`${server.baseUrl}${path}`, { headers: { accept } });
      expect([path, accept, res.status]).toEqual([path, accept, 404]);
      expect([path, accept, res.headers.get('content-type')]).toEqual([path, accept, 'text/html; charset=utf-8']);
      expect(await res.text()).toContain('<!DOCTYPE html>');
    }
  }
});

/** A citation of a document integrators cannot open (SPEC.md, DESIGN.md). */
const PRIVATE_CITATION = /\bSPEC\b|SPEC\.md|DESIGN\.md|DESIGN D\d/;

test('no served page cites SPEC or DESIGN or names a test file (internal passages left out)', async () => {
  const found: string[] = [];
  for (const file of DOCS_PAGES.keys()) {
    const text = (await page(file)).replace(/<[^>]+>/g, ' ');
    for (const m of text.matchAll(
      /[^\n]{0,40}(?:\bSPEC\b|SPEC\.md|DESIGN\.md|DESIGN D\d|test\/[\w./-]+\.test\.ts)[^\n]{0,40}/g,
    ))
      found.push(`${file}: ${m[0].trim()}`);
  }
  expect(found).toEqual([]);
});

test("a maintainers' passage at the end of a paragraph leaves the next paragraph its own", async () => {
  // deployment.md: "…longer than the drain).<!-- internal --> …<!-- /internal -->", blank line, "Measured on one machine …"
  expect(await page('deployment.md')).toMatch(/<p>Measured on one machine/);
  expect(await page('client-developer-guide.md')).toMatch(/copied from their headers\.<\/p>/);
});

describe('what integrators read at run time cites no SPEC or DESIGN', () => {
  const REDIRECT = 'http://127.0.0.1:61001/callback';
  const texts: string[] = [];
  /** Records a response's status line, headers that carry texts and body. */
  async function collect(label: string, res: Response): Promise<Response> {
    const body = await res.text();
    const headers = ['www-authenticate', 'location']
      .map((h) => `${h}: ${decodeURIComponent(res.headers.get(h) ?? '')}`)
      .join('\n');
    texts.push(`--- ${label} ${res.status}\n${headers}\n${body}`);
    return res;
  }
  const json = (body: unknown) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const form = (body: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  const mcp = (body: unknown, token?: string) => ({
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });

  beforeAll(async () => {
    const base = server.baseUrl;
    const get = (label: string, url: string, init?: RequestInit) =>
      fetch(`${base}${url}`, { redirect: 'manual', ...init }).then((r) => collect(label, r));
    // registration (RFC 7591 errors)
    await get(
      'register: hosted https callback',
      '/api/oauth/register',
      json({ client_name: 'x', redirect_uris: ['https://app.example/cb'] }),
    );
    await get(
      'register: foreign post-logout URI',
      '/api/oauth/register',
      json({ client_name: 'x', redirect_uris: [`${REDIRECT}`], post_logout_redirect_uris: ['https://evil.example/'] }),
    );
    await get(
      'register: jwks_uri',
      '/api/oauth/register',
      json({ client_name: 'x', redirect_uris: [REDIRECT], jwks_uri: 'https://app.example/jwks' }),
    );
    await get('register: not JSON', '/api/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    const reg = (await (
      await fetch(
        `${base}/api/oauth/register`,
        json({ client_name: 'citations', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
      )
    ).json()) as { client_id: string };
    // authorization endpoint (RFC 6749 §4.1.2.1)
    const { challenge } = pkcePair();
    const authorize = (params: Record<string, string>) =>
      `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: reg.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: base, ...params })}`;
    await get('authorize: no state', authorize({ scope: 'openid' }));
    await get('authorize: invalid_scope', authorize({ scope: 'openid account:read', state: 's1' }));
    await get(
      'authorize: no PKCE',
      authorize({ scope: 'openid', state: 's2', code_challenge: '', code_challenge_method: '' }),
    );
    await get('authorize: unknown client', authorize({ client_id: 'nope', scope: 'openid', state: 's3' }), {
      headers: { accept: 'text/html' },
    });
    // token endpoint (RFC 6749 §5.2)
    await get(
      'token: unsupported grant',
      '/api/oauth/token',
      form({ grant_type: 'password', client_id: reg.client_id }),
    );
    await get(
      'token: no code',
      '/api/oauth/token',
      form({ grant_type: 'authorization_code', client_id: reg.client_id, redirect_uri: REDIRECT }),
    );
    await get(
      'token: bad code',
      '/api/oauth/token',
      form({
        grant_type: 'authorization_code',
        client_id: reg.client_id,
        redirect_uri: REDIRECT,
        code: 'x',
        code_verifier: 'y'.repeat(43),
      }),
    );
    // resource servers (RFC 6750 §3): 401 and 403 challenges, problem+json, GraphQL errors
    const student = await memberToken({ baseUrl: base, email: 'student@demo.test', scope: 'openid account:read' });
    await get(
      'mcp: member tool, anonymous',
      '/mcp',
      mcp({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'my_enrollments', arguments: {} } }),
    );
    await get('mcp: bad token', '/mcp', mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'not-a-token'));
    await get(
      'mcp: operator tool, member token',
      '/mcp',
      mcp({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_site', arguments: {} } }, student),
    );
    await get('mcp: tools/list', '/mcp', mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, student));
    await get('graphql: no token', '/account/graphql', json({ query: '{ viewer { email } }' }));
    await get('graphql: mutation, read-only token', '/account/graphql', {
      ...json({ query: 'mutation { updateDisplayName(input: { name: "x" }) { viewer { name } } }' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${student}` },
    });
    await get('graphql: invalid document', '/account/graphql', {
      ...json({ query: '{ viewer { nope } }' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${student}` },
    });
    await get('graphql: schema descriptions', '/account/graphql', {
      ...json({
        query: '{ __schema { types { name description fields { name description args { description } } } } }',
      }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${student}` },
    });
    await get('admin api: no token', '/api/v1/site');
    await get('admin api: member token', '/api/v1/site', { headers: { authorization: `Bearer ${student}` } });
    await get('admin api: unknown path', '/api/v1/nope', { headers: { authorization: `Bearer ${student}` } });
    // documents integrators read
    for (const doc of [
      '/openapi.json',
      '/.well-known/openid-configuration',
      '/.well-known/oauth-protected-resource',
      '/.well-known/coursegate-scope-map.json',
      '/account/graphql/schema.graphql',
    ])
      await get(doc, doc);
  });

  test('the collected answers are the errors they should be', () => {
    expect(texts.length).toBe(27);
    const statuses = texts.map((t) => /^--- (.*) (\d{3})$/m.exec(t)!.slice(1).join(' '));
    expect(statuses).toEqual([
      'register: hosted https callback 400',
      'register: foreign post-logout URI 400',
      'register: jwks_uri 400',
      'register: not JSON 400',
      'authorize: no state 303',
      'authorize: invalid_scope 303',
      'authorize: no PKCE 303',
      'authorize: unknown client 400',
      'token: unsupported grant 400',
      'token: no code 400',
      'token: bad code 400',
      'mcp: member tool, anonymous 401',
      'mcp: bad token 401',
      'mcp: operator tool, member token 403',
      'mcp: tools/list 200',
      'graphql: no token 401',
      'graphql: mutation, read-only token 403',
      'graphql: invalid document 200', // GraphQL errors in a 200 answer (GraphQL over HTTP, application/json)
      'graphql: schema descriptions 200',
      'admin api: no token 401',
      'admin api: member token 403',
      'admin api: unknown path 404',
      '/openapi.json 200',
      '/.well-known/openid-configuration 200',
      '/.well-known/oauth-protected-resource 200',
      '/.well-known/coursegate-scope-map.json 200',
      '/account/graphql/schema.graphql 200',
    ]);
    // the redirects carry their error in the Location (RFC 6749 §4.1.2.1)
    for (const label of ['no state', 'invalid_scope', 'no PKCE'])
      expect(texts.find((t) => t.startsWith(`--- authorize: ${label}`))).toMatch(/error_description=/);
    expect(texts.join('\n')).toMatch(/error_description/);
  });

  test('none cites SPEC or DESIGN', () => {
    const cited = texts
      .filter((t) => PRIVATE_CITATION.test(t))
      .map(
        (t) =>
          `${t.split('\n')[0]}: ${PRIVATE_CITATION.exec(t)![0]} in …${t.slice(Math.max(0, PRIVATE_CITATION.exec(t)!.index - 80), PRIVATE_CITATION.exec(t)!.index + 40)}…`,
      );
    expect(cited).toEqual([]);
  });
});
