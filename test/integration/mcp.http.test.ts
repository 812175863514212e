/**
 * `/mcp` at the HTTP level (SPEC §5.7, DESIGN D4, D7, D8; MCP 2025-11-25 Streamable HTTP): status
 * codes, `WWW-Authenticate` challenges, JSON-RPC errors for bad input, never a 500.
 */
import { request } from 'node:http';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { HeadlessOAuthProvider } from '../helpers/mcp-oauth-provider.js';

let server: TestServer;
let mcp: string;
let memberToken: string;

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const rpc = (method: string, params?: unknown, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});
const call = (name: string, args: unknown = {}) => rpc('tools/call', { name, arguments: args });

async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(mcp, {
    method: 'POST',
    headers: { ...HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** Parses `Bearer a="b", c="d"` into a record. */
function challengeParams(header: string | null): Record<string, string> {
  expect(header).toMatch(/^Bearer /);
  return Object.fromEntries([...header!.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
}

beforeAll(async () => {
  server = await startTestServer();
  mcp = `${server.baseUrl}/mcp`;
  const provider = new HeadlessOAuthProvider({
    user: { email: 'student@demo.test', password: DEMO_PASSWORD },
    issuer: server.baseUrl,
    clientInformation: { client_id: 'demo-member-cli' },
  });
  await auth(provider, { serverUrl: new URL(mcp), scope: 'account:read' });
  await auth(provider, { serverUrl: new URL(mcp), authorizationCode: provider.code });
  memberToken = provider.tokens()!.access_token;
});
afterAll(() => server.close());

describe('MCP Streamable HTTP transport, stateless', () => {
  test('initialize negotiates the latest protocol revision and sets no session id', async () => {
    const res = await post(
      rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(res.json.result.protocolVersion).toBe('2025-11-25');
    expect(res.json.result.serverInfo.name).toBe('coursegate');
  });

  test('every listed description reads as sentences: what the tool does ends with a full stop', async () => {
    const res = await post(rpc('tools/list'), { 'mcp-protocol-version': '2025-11-25' });
    for (const tool of res.json.result.tools as Array<{ name: string; description: string }>) {
      expect(`${tool.name}: ${tool.description}`).toMatch(/[.!?]$/);
      expect(`${tool.name}: ${tool.description}`).not.toMatch(/[^.!?] Needs the OAuth scope/);
    }
  });

  test('any request can be answered without an earlier initialize (no session state)', async () => {
    const res = await post(rpc('tools/list'), { 'mcp-protocol-version': '2025-11-25' });
    expect(res.status).toBe(200);
    // Issue #26: every tool is listed to every caller, anonymous included.
    const names = res.json.result.tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'how_to_connect',
        'search_courses',
        'get_course',
        'my_enrollments',
        'site_analytics',
        'create_coupon',
      ]),
    );
  });

  test('a notification is accepted with 202 and no body', async () => {
    const res = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
  });

  test.each(['GET', 'DELETE', 'PUT'])('%s /mcp → 405 with Allow: POST (no SSE stream, no sessions)', async (method) => {
    const res = await fetch(mcp, { method, headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(((await res.json()) as any).error.code).toBe(-32000);
  });

  test('DNS rebinding: a foreign Origin or Host is refused with 403', async () => {
    expect((await post(rpc('ping'), { origin: 'http://evil.example.com' })).status).toBe(403);
    // fetch() sets Host itself: use node:http to send a rebinding page's Host header.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(mcp, { method: 'POST', headers: { ...HEADERS, host: 'evil.example.com' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify(rpc('ping')));
    });
    expect(status).toBe(403);
    expect((await post(rpc('ping'), { origin: server.baseUrl })).status).toBe(200);
  });
});

describe('issue #26: protocol revisions (the newest the installed SDK knows, down to 2025-06-18) and batches', () => {
  const initialize = (protocolVersion: string, id = 1) =>
    rpc('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } }, id);

  test("initialize answers 2025-11-25 (the SDK's LATEST_PROTOCOL_VERSION) and 2025-06-18 as asked; an unknown revision gets the newest", async () => {
    const { LATEST_PROTOCOL_VERSION } = await import('@modelcontextprotocol/sdk/types.js');
    expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25');
    for (const version of ['2025-11-25', '2025-06-18']) {
      expect((await post(initialize(version))).json.result.protocolVersion).toBe(version);
    }
    expect((await post(initialize('2026-07-28'))).json.result.protocolVersion).toBe('2025-11-25');
  });

  test.each(['2025-11-25', '2025-06-18'])(
    'a JSON-RPC batch under MCP-Protocol-Version %s → 400 -32600 (batches removed in 2025-06-18)',
    async (version) => {
      const res = await post([rpc('ping', undefined, 1), rpc('tools/list', undefined, 2)], {
        'mcp-protocol-version': version,
      });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(res.json.error.message).toContain('batches');
    },
  );

  test('a batch carrying initialize for 2025-06-18 or later → 400 as well', async () => {
    const res = await post([initialize('2025-11-25')]);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32600);
  });

  test('a 2025-03-26 client (header 2025-03-26) may still batch', async () => {
    const res = await post([rpc('ping', undefined, 1), rpc('tools/list', undefined, 2)], {
      'mcp-protocol-version': '2025-03-26',
    });
    expect(res.status).toBe(200);
    expect(res.json.map((m: { id: number }) => m.id).sort()).toEqual([1, 2]);
  });
});

describe('SPEC §5.7 / DESIGN D4 authorization of tool calls', () => {
  test('no token + protected tool → 401 invalid_token with the tool scope and resource_metadata', async () => {
    const res = await post(call('my_enrollments'));
    expect(res.status).toBe(401);
    const p = challengeParams(res.headers.get('www-authenticate'));
    expect(p).toMatchObject({
      error: 'invalid_token',
      scope: 'account:read',
      resource_metadata: `${server.baseUrl}/.well-known/oauth-protected-resource`,
    });
    expect(p.error_description).toContain('my_enrollments');
    expect(res.json.error).toBe('invalid_token');
  });

  test('no token + operator tool → 401 naming the operator scope', async () => {
    const res = await post(call('create_coupon', { code: 'X12', percentOff: 5 }));
    expect(res.status).toBe(401);
    expect(challengeParams(res.headers.get('www-authenticate')).scope).toBe('coupons:write');
  });

  test('token without the tool scope → 403 insufficient_scope; scope keeps the granted ones for step-up', async () => {
    const res = await post(call('record_progress', { lectureId: 'lec_ts_1', positionSeconds: 1 }), {
      authorization: `Bearer ${memberToken}`,
    });
    expect(res.status).toBe(403);
    const p = challengeParams(res.headers.get('www-authenticate'));
    expect(p.error).toBe('insufficient_scope');
    expect(p.scope?.split(' ').sort()).toEqual(['account:read', 'account:write']);
    expect(p.resource_metadata).toBe(`${server.baseUrl}/.well-known/oauth-protected-resource`);
  });

  test('invalid token → 401 invalid_token even for public methods', async () => {
    for (const authorization of ['Bearer not-a-token', `Bearer ${'x'.repeat(300)}`, 'Basic abc', 'Bearer']) {
      const res = await post(rpc('tools/list'), { authorization });
      expect(res.status).toBe(401);
      expect(challengeParams(res.headers.get('www-authenticate')).error).toBe('invalid_token');
    }
  });

  test("DESIGN D4: every 401 names a scope: the called tool's; else the default of an expired token's client; else openid", async () => {
    const client = await server.provider.Client.find('demo-member-cli');
    const at = new server.provider.AccessToken({
      accountId: 'usr_student',
      client: client!,
      grantId: 'grant-expired',
      scope: 'account:read',
      aud: server.baseUrl,
      extra: { org_id: 'demo' },
    } as never);
    const expired = await at.save();
    // Expire it in the store (the row stays until purged, as a just-expired token's does).
    server.store
      .sqlite!.prepare(
        `UPDATE oidc_models SET payload = json_set(payload, '$.exp', ?) WHERE model = 'AccessToken' AND id = ?`,
      )
      .run(Math.floor(Date.now() / 1000) - 60, expired);
    const scopeOf = async (body: unknown, authorization: string) => {
      const res = await post(body, { authorization });
      expect(res.status).toBe(401);
      const p = challengeParams(res.headers.get('www-authenticate'));
      expect(p.error).toBe('invalid_token');
      expect(p.error_uri).toBe(`${server.config.docsUrl}/mcp.md#authorization-and-step-up`);
      return p.scope;
    };
    expect(await scopeOf(call('list_orders'), `Bearer ${expired}`)).toBe('orders:read');
    // demo-member-cli's default (DESIGN D3): identity + read scopes of its registration.
    expect(await scopeOf(rpc('tools/list'), `Bearer ${expired}`)).toBe('openid profile email account:read');
    expect(await scopeOf(rpc('tools/list'), 'Bearer not-a-token')).toBe('openid');
    expect(await scopeOf(call('my_enrollments'), 'Bearer not-a-token')).toBe('account:read');
  });

  test('a token bound to another resource → 401 invalid_token (SPEC §5.6)', async () => {
    const client = await server.provider.Client.find('demo-member-cli');
    const at = new server.provider.AccessToken({
      accountId: 'usr_student',
      client: client!,
      grantId: 'grant-foreign',
      scope: 'account:read',
      aud: 'https://other.example',
      extra: { org_id: 'demo' },
    } as never);
    const foreign = await at.save();
    const res = await post(call('my_enrollments'), { authorization: `Bearer ${foreign}` });
    expect(res.status).toBe(401);
    expect(challengeParams(res.headers.get('www-authenticate')).error_description).toContain('not bound');
  });

  test('a member token lists member tools and may call them', async () => {
    const list = await post(rpc('tools/list'), { authorization: `Bearer ${memberToken}` });
    expect(list.json.result.tools.map((t: { name: string }) => t.name)).toContain('my_enrollments');
    const res = await post(call('my_enrollments'), { authorization: `Bearer ${memberToken}` });
    expect(res.status).toBe(200);
    expect(res.json.result.structuredContent.enrollments.map((e: { slug: string }) => e.slug)).toContain(
      'oauth-in-practice',
    );
  });
});

describe('DESIGN D8 bad input → JSON-RPC / MCP errors, never a 500', () => {
  test('malformed JSON → 400 -32700', async () => {
    const res = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
  });

  test('not a JSON-RPC message → 400 JSON-RPC error', async () => {
    for (const body of ['"x"', '[1,2]', '{"hello":"world"}', 'null']) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBeLessThan(-32000);
    }
  });

  test('unknown method → -32601', async () => {
    const res = await post(rpc('resources/unknown'));
    expect(res.json.error.code).toBe(-32601);
  });

  test('unknown tool → -32602 naming the tool', async () => {
    const res = await post(call('drop_database'));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: 1, error: { code: -32602, message: 'Unknown tool: drop_database' } });
  });

  test('tools/call without a name → JSON-RPC invalid params', async () => {
    const res = await post(rpc('tools/call', { arguments: {} }));
    expect(res.status).toBeLessThan(500);
    expect(res.json.error.code).toBe(-32602);
  });

  test('invalid arguments → a tool error result (isError) the model can correct', async () => {
    const res = await post(call('search_courses', { site: 'demo', limit: 'many' }));
    expect(res.status).toBe(200);
    expect(res.json.result.isError).toBe(true);
    expect(res.json.result.content[0].text).toContain('limit');
  });

  test('a tool that refuses (unknown course) → isError result with the reason', async () => {
    const res = await post(call('get_course', { site: 'demo', slug: 'no-such-course' }));
    expect(res.json.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'not_found: no public course "no-such-course"' }],
    });
  });

  test('a body over 64 KiB → 413', async () => {
    const res = await post(rpc('ping', { pad: 'x'.repeat(70 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.json.error.message).toContain('64 KiB');
  });

  test('a chunked body (no Content-Length) over 64 KiB → 413 on a live connection', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(mcp, { method: 'POST', headers: HEADERS, body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).error.code).toBe(-32600);
  });

  test('wrong content type → 415; missing Accept → 406 from the transport', async () => {
    const ct = await fetch(mcp, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: HEADERS.accept },
      body: '{}',
    });
    expect(ct.status).toBe(415);
    const acc = await fetch(mcp, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/html' },
      body: JSON.stringify(rpc('ping')),
    });
    expect(acc.status).toBe(406);
  });

  test('an unsupported MCP-Protocol-Version header → 400', async () => {
    const res = await post(rpc('tools/list'), { 'mcp-protocol-version': '1999-01-01' });
    expect(res.status).toBe(400);
  });

  test('issue #15: a plain request (pooled server on an in-process transport) is answered as the SDK transport answers it', async () => {
    // A Content-Type with a parameter takes the SDK transport; the plain one does not.
    for (const message of [
      rpc('tools/list', undefined, 7),
      call('search_courses', { query: 'sql' }),
      rpc('no/such/method', {}, 'x'),
      call('get_course', { slug: 42 }),
    ]) {
      const plain = await post(message);
      const sdk = await post(message, { 'content-type': 'application/json; charset=utf-8' });
      expect(plain.status).toBe(sdk.status);
      expect(plain.headers.get('content-type')).toBe(sdk.headers.get('content-type'));
      expect(plain.headers.get('cache-control')).toBe('no-store');
      expect(plain.text).toBe(sdk.text);
    }
  });
});

describe('scope map generated from the tool registry', () => {
  test('/.well-known/coursegate-scope-map.json names every tool under its scopes and the Account API fields', async () => {
    const res = await fetch(`${server.baseUrl}/.well-known/coursegate-scope-map.json`);
    expect(res.status).toBe(200);
    const map = (await res.json()) as any;
    expect(map.resource).toBe(server.baseUrl);
    expect(map.scopes['account:read'].mcp_tools).toEqual([
      'my_enrollments',
      'continue_watching',
      'my_orders',
      'my_event_registrations',
    ]);
    expect(map.scopes['account:read'].graphql_fields).toContain('Query.viewer');
    expect(map.scopes['account:write'].mcp_tools).toEqual(['record_progress']);
    expect(map.scopes['coupons:write'].mcp_tools).toEqual(['create_coupon', 'deactivate_coupon']);
    expect(map.mcp_public_tools).toEqual(['how_to_connect', 'search_courses', 'get_course']);
    for (const [name, tool] of Object.entries<any>(map.mcp_tools)) {
      for (const s of tool.scopes) expect(map.scopes[s].mcp_tools).toContain(name);
    }
  });
});

describe('issue #15: built servers are reused across requests, nothing of a request stays on them', () => {
  test('concurrent tool calls of two members (same tool set, so the same kept servers) each answer their own member', async () => {
    const other = new HeadlessOAuthProvider({
      user: { email: 'student2@demo.test', password: DEMO_PASSWORD },
      issuer: server.baseUrl,
      clientInformation: { client_id: 'demo-member-cli' },
    });
    await auth(other, { serverUrl: new URL(mcp), scope: 'account:read' });
    await auth(other, { serverUrl: new URL(mcp), authorizationCode: other.code });
    const tokens: Record<string, string> = { usr_student: memberToken, usr_student2: other.tokens()!.access_token };
    const expected: Record<string, number> = { usr_student: 3, usr_student2: 1 };
    const calls = Array.from({ length: 24 }, (_, i) => {
      const who = i % 2 === 0 ? 'usr_student' : 'usr_student2';
      return post(call('my_enrollments', { first: 10 }), { authorization: `Bearer ${tokens[who]}` }).then((res) => ({
        who,
        res,
      }));
    });
    for (const { who, res } of await Promise.all(calls)) {
      expect(res.status).toBe(200);
      expect(res.json.result.structuredContent.totalCount).toBe(expected[who]);
    }
    // An anonymous caller right after lists the same tools (issue #26) but may call the public ones only.
    const list = await post(rpc('tools/list'));
    const member = await post(rpc('tools/list'), { authorization: `Bearer ${memberToken}` });
    expect(list.json.result.tools).toEqual(member.json.result.tools);
    expect((await post(call('my_enrollments'))).status).toBe(401);
  });
});
