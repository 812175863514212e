/**
 * Issue #25 "Info, decide and document", each decision proven through the real server:
 * - a course section is curriculum: creating one needs `curriculum:write` (as listing needs
 *   `curriculum:read` and moving a lecture into one `curriculum:write`), not `courses:write`;
 * - a digital product's `storage:<fileId>` must name a file uploaded to the same site;
 * - HTTP Basic client authentication: RFC 6749 §2.3.1 (and OAuth 2.1 §2.4.1) says a server MUST
 *   accept a client secret in an `Authorization: Basic` header, so a confidential client's secret
 *   is accepted there as in the body; the methods a client may *register* stay `none` and
 *   `client_secret_post` (SPEC §5), which is what discovery lists, and a wrong secret is
 *   `invalid_client` either way;
 * - uploaded files: images cacheable a day by anyone, every other file revalidated on each use
 *   and kept out of shared caches, so a DELETE ends its URL at once.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';

let server: TestServer;
let base: string;
beforeAll(async () => {
  server = await startTestServer();
  base = server.baseUrl;
}, 60_000);
afterAll(() => server.close());

async function operatorToken(scope: string, site = 'demo'): Promise<string> {
  const clientId = await registerLoopbackClient(base, `decisions ${scope}`);
  return memberToken({ baseUrl: base, email: 'owner@demo.test', clientId, scope: `openid ${scope}`, site });
}
const api = (token: string, method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

test('creating a course section needs curriculum:write; courses:write alone is 403 naming it', async () => {
  const courses = await operatorToken('courses:read courses:write');
  const refused = await api(courses, 'POST', '/api/v1/courses/sql-basics/sections', { title: 'Part 1' });
  expect(refused.status).toBe(403);
  expect(refused.headers.get('www-authenticate')).toContain('scope="curriculum:write"');
  const curriculum = await operatorToken('curriculum:write');
  expect((await api(curriculum, 'POST', '/api/v1/courses/sql-basics/sections', { title: 'Part 1' })).status).toBe(201);
}, 60_000);

test("a digital product may reference only its own site's uploaded files; images cache a day, other files revalidate", async () => {
  // A file uploaded to the second site (owner@demo.test is admin there).
  const other = await operatorToken('storage:write', 'second');
  const form = new FormData();
  form.append(
    'file',
    new Blob([new Uint8Array(Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'))], {
      type: 'application/pdf',
    }),
    'guide.pdf',
  );
  const uploaded = (await (
    await fetch(`${base}/api/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${other}` }, body: form })
  ).json()) as { id: string; url: string };
  const served = await fetch(uploaded.url);
  expect(served.headers.get('cache-control')).toBe('private, no-cache');
  expect(served.headers.get('etag')).toBeTruthy();

  const demo = await operatorToken('digital_products:write storage:write');
  const product = { name: 'Guide', priceMinor: 900, currency: 'EUR', file: `storage:${uploaded.id}` };
  const refused = await api(demo, 'POST', '/api/v1/digital-products', product);
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { detail: string }).detail).toContain(
    `no file uploaded to this site has the id ${uploaded.id}`,
  );

  const png = new FormData();
  png.append(
    'file',
    new Blob(
      [
        new Uint8Array(
          Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]),
        ),
      ],
      { type: 'image/png' },
    ),
    'cover.png',
  );
  const own = (await (
    await fetch(`${base}/api/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${demo}` }, body: png })
  ).json()) as { id: string; url: string };
  expect((await fetch(own.url)).headers.get('cache-control')).toBe('public, max-age=86400');
  expect((await api(demo, 'POST', '/api/v1/digital-products', { ...product, file: `storage:${own.id}` })).status).toBe(
    201,
  );
}, 60_000);

test('HTTP Basic: a client secret is accepted in the header (RFC 6749 §2.3.1); only none and client_secret_post are registrable (private_key_jwt is for metadata documents)', async () => {
  const metadata = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<
    string,
    string[]
  >;
  expect(metadata.token_endpoint_auth_methods_supported?.sort()).toEqual([
    'client_secret_post',
    'none',
    'private_key_jwt',
  ]);
  const register = (method: string) =>
    fetch(`${base}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'confidential',
        redirect_uris: ['http://127.0.0.1/callback'],
        token_endpoint_auth_method: method,
      }),
    });
  for (const method of ['client_secret_basic', 'private_key_jwt']) {
    const refused = await register(method);
    expect([refused.status, ((await refused.json()) as { error: string }).error]).toEqual([
      400,
      'invalid_client_metadata',
    ]);
  }
  const client = (await (await register('client_secret_post')).json()) as { client_id: string; client_secret: string };
  const basic = (secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  const introspect = (headers: Record<string, string>, form: Record<string, string>) =>
    fetch(`${base}/api/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ token: 'x'.repeat(43), ...form }),
    });
  expect((await introspect({ authorization: basic(client.client_secret) }, {})).status).toBe(200);
  expect((await introspect({}, { client_id: client.client_id, client_secret: client.client_secret })).status).toBe(200);
  for (const wrong of [
    introspect({ authorization: basic('not-the-secret') }, {}),
    introspect({}, { client_id: client.client_id, client_secret: 'not-the-secret' }),
  ]) {
    const res = await wrong;
    expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([401, 'invalid_client']);
  }
}, 60_000);
