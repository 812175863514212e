/**
 * DESIGN D8 across the whole surface: no endpoint answers 500 (or leaks a stack trace) to
 * malformed input. Every route × a set of hostile bodies, content types and headers.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken } from '../helpers/member-token.js';

let server: TestServer;
/** Real tokens, so hostile bodies get past the bearer middleware and reach the parsers. */
const tokens: string[] = [];
beforeAll(async () => {
  server = await startTestServer();
  tokens.push(await memberToken({ baseUrl: server.baseUrl, email: 'student@demo.test' }));
  const reg = await fetch(`${server.baseUrl}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: ['http://127.0.0.1/callback'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    }),
  });
  const { client_id } = (await reg.json()) as { client_id: string };
  tokens.push(
    await memberToken({
      baseUrl: server.baseUrl,
      email: 'owner@demo.test',
      clientId: client_id,
      scope: 'openid school:read school:write courses:write',
      site: 'demo',
    }),
  );
});
afterAll(() => server.close());

const PATHS = [
  '/oauth/authorize',
  '/api/oauth/token',
  '/api/oauth/revoke',
  '/api/oauth/introspect',
  '/api/oauth/register',
  '/api/oauth/userinfo',
  '/api/oauth/logout',
  '/account/graphql',
  '/mcp',
  '/api/v1/site',
  '/api/v1/oauth-applications',
  '/api/v1/oauth-applications/x',
  '/interaction/abc',
  '/interaction/abc/login',
  '/interaction/abc/consent',
  '/.well-known/openid-configuration',
  '/.well-known/oauth-protected-resource',
  '/openapi.json',
  '/readyz',
];

const BODIES: Array<[string, string]> = [
  ['application/json', '{'],
  ['application/json', '[]'],
  ['application/json', 'null'],
  ['application/json', '{"__proto__":{"x":1},"constructor":{"prototype":{}}}'],
  ['application/json', JSON.stringify({ query: '{'.repeat(500) })],
  ['application/json', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 42 } })],
  ['application/x-www-form-urlencoded', 'a=%ZZ&b'],
  ['application/x-www-form-urlencoded', 'client_id[]=x&client_id[]=y&grant_type=authorization_code'],
  ['application/x-www-form-urlencoded', `token=${'x'.repeat(10_000)}&client_id=demo-member-cli`],
  ['text/plain', '\u0000\u0001\u0002'],
  ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--'],
];

const HEADERS: Array<Record<string, string>> = [
  {},
  { authorization: 'Bearer' },
  { authorization: 'Bearer a"b' },
  { authorization: 'DPoP abc' },
  { cookie: '_interaction=garbage; _interaction.sig=bad; _session=x' },
];

test('no route answers 5xx or a stack trace to hostile input', async () => {
  const failures: string[] = [];
  for (const path of PATHS) {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const variants = method === 'GET' || method === 'OPTIONS' || method === 'DELETE' ? [undefined] : BODIES;
      for (const body of variants) {
        for (const headers of [...HEADERS, ...tokens.map((t) => ({ authorization: `Bearer ${t}` }))]) {
          const res = await fetch(
            `${server.baseUrl}${path}?client_id=%ZZ&redirect_uri=javascript:alert(1)&scope=${'a'.repeat(3000)}`,
            {
              method,
              redirect: 'manual',
              headers: { ...headers, ...(body ? { 'content-type': body[0] } : {}) },
              body: body?.[1],
            },
          );
          const text = await res.text();
          if (res.status >= 500 || /at \S+ \(\S+:\d+:\d+\)/.test(text))
            failures.push(
              `${method} ${path} ${JSON.stringify(headers)} ${body?.[0] ?? ''} → ${res.status} ${text.slice(0, 120)}`,
            );
          const location = res.headers.get('location');
          if (location?.startsWith('javascript:')) failures.push(`${method} ${path} redirected to ${location}`);
        }
      }
    }
  }
  expect(failures).toEqual([]);
}, 120_000);
