/**
 * Issue #9: every route-table row runs its own declared pipeline (src/pipelines/*). The dispatcher
 * answers what no pipeline should: no row → 404 `not_found`; a method the row does not list → 405
 * `method_not_allowed` with the row's `Allow`, rendered by the row's surface (OPTIONS → 204 + Allow);
 * the provider's rows keep oidc-provider's CORS preflight, and every other unlisted method of every
 * row, the provider's included, is 405 with the row's `Allow` (a test walks every row).
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ROUTE_TABLE, type RouteSpec } from '../../src/http/route-table.js';
import { dispatch, pipeline } from '../../src/pipelines/pipeline.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
}, 60_000);

afterAll(async () => {
  await server?.close();
});

const send = (path: string, init: RequestInit = {}) =>
  fetch(`${server.baseUrl}${path}`, { redirect: 'manual', ...init });

describe('dispatch: one pipeline per route-table row', () => {
  // The server above started, so `dispatch` found a pipeline for every row of ROUTE_TABLE and a
  // row for every pipeline (it refuses to build otherwise, as this test shows on a small table).
  test('a table row without a pipeline, or a pipeline without a row, stops the build', () => {
    const table: RouteSpec[] = [
      { name: 'only', path: '/only', methods: ['GET'], owner: 'app', surface: 'oauth', auth: { kind: 'none' } },
    ];
    expect(() => dispatch({}, table)).toThrow(/route only \(\/only\) has no pipeline/);
    expect(() => dispatch({ only: pipeline(), extra: pipeline() }, table)).toThrow(
      /pipeline extra names no route-table row/,
    );
  });

  test('no row → 404 not_found (RFC 6749 §5.2 shape)', async () => {
    const res = await send('/no/such/route');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'not_found', error_description: 'no resource at /no/such/route' });
  });

  test.each([
    '/healthz',
    '/readyz',
    '/openapi.json',
    '/.well-known/oauth-protected-resource',
    '/assets/coursegate.css',
    '/HEALTHZ/',
  ])('POST %s (a GET-only row) → 405 method_not_allowed with Allow: GET, HEAD', async (path) => {
    const res = await send(path, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(((await res.json()) as { error: string }).error).toBe('method_not_allowed');
  });

  test("PUT /api/oauth/userinfo → 405 with the row's methods", async () => {
    const res = await send('/api/oauth/userinfo', { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  test('a 405 on an HTML row is a page (surface html)', async () => {
    const res = await send('/interaction/some-uid/login', { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });

  test('OPTIONS on one of our rows → 204 with Allow, no body', async () => {
    const res = await send('/healthz', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.text()).toBe('');
  });

  test("provider rows keep oidc-provider's CORS preflight; an unlisted method is 405 with the row's Allow", async () => {
    const preflight = await send('/api/oauth/token', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
    const get = await send('/api/oauth/token');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(((await get.json()) as { error: string }).error).toBe('method_not_allowed');
  });

  test.each(['/oauth/authorize', '/api/oauth/logout'])(
    'POST %s: not served (GET only: SPEC §4.2; POST needs SameSite=None cookies), 405 with Allow, never a page or a redirect',
    async (path) => {
      const res = await send(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'client_id=demo-member-cli&response_type=code',
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
      expect(res.headers.get('location')).toBeNull();
      expect(((await res.json()) as { error: string }).error).toBe('method_not_allowed');
    },
  );

  test('/mcp answers every method itself (JSON-RPC 405, Allow: POST)', async () => {
    const res = await send('/mcp', { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(((await res.json()) as { jsonrpc?: string }).jsonrpc).toBe('2.0');
  });

  test('the security headers and the request id are set on every answer, 404 included', async () => {
    const res = await send('/no/such/route');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(res.headers.get('x-request-id')).toMatch(/^[\w.-]+$/);
  });
});

describe('every row of the route table: a method it does not list is 405 with its Allow', () => {
  /** A concrete path of the row (parameters and family tails filled in). */
  const concrete = (path: string) =>
    path
      .replace(/:\w+/g, 'x')
      .replace(/\/\*$/, '/x')
      .replace(/\{[^}]+\}/g, 'x');
  const rows = ROUTE_TABLE.filter((row) =>
    ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'].some((m) => !row.methods.includes(m)),
  )
    // `/mcp` answers every method itself, as JSON-RPC (its own test above).
    .filter((row) => row.name !== 'mcp')
    .map((row) => [row.name, concrete(row.path), row] as const);
  test.each(rows)('%s (%s)', async (_name, path, row) => {
    const method = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'].find((m) => !row.methods.includes(m))!;
    const res = await send(path, { method });
    expect([res.status, res.headers.get('allow')]).toEqual([405, row.methods.join(', ')]);
    expect(res.headers.get('location')).toBeNull();
  });
});
