/** DESIGN.md D7: request bodies over 64 KiB → 413 `invalid_request`, with or without Content-Length. */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizeMember, redeemCode } from '../helpers/flows.js';

/** POSTs `body` chunked (no Content-Length). */
function chunked(url: string, body: string, headers: Record<string, string>) {
  return fetch(url, {
    method: 'POST',
    headers,
    body: new ReadableStream({
      start(c) {
        const bytes = new TextEncoder().encode(body);
        for (let i = 0; i < bytes.length; i += 8192) c.enqueue(bytes.slice(i, i + 8192));
        c.close();
      },
    }),
    duplex: 'half',
  } as RequestInit);
}

describe('DESIGN D7 body limit', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = String(
      (await redeemCode(server.baseUrl, server.baseUrl, await authorizeMember(server.baseUrl, server.baseUrl))).body
        .access_token,
    );
  });
  afterAll(() => server.close());

  const json = () => ({ 'content-type': 'application/json', authorization: `Bearer ${token}` });
  const query = (pad: number) => JSON.stringify({ query: '{ viewer { id } }', variables: { pad: 'x'.repeat(pad) } });

  test('/account/graphql: a chunked body within 64 KiB is served', async () => {
    const res = await chunked(`${server.baseUrl}/account/graphql`, query(30_000), json());
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { viewer: { id: string } } }).data.viewer.id).toBeTruthy();
  });

  test('/account/graphql: a chunked body over 64 KiB → 413 invalid_request', async () => {
    const res = await chunked(`${server.baseUrl}/account/graphql`, query(70_000), json());
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
  });

  test('a declared Content-Length over 64 KiB → 413 before the body is read, on any path', async () => {
    for (const path of ['/account/graphql', '/api/oauth/register', '/api/oauth/userinfo']) {
      const res = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: json(), body: query(70_000) });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
    }
  });
});
