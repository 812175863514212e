/**
 * MCP 2026-07-28 on `/mcp` over real HTTP (SPEC §4.3, §5.7; DESIGN D4), next to the 2025 revisions
 * the same endpoint keeps answering: `server/discover`, the per-request `_meta` envelope and the
 * `Mcp-Method`/`Mcp-Name` headers it is checked against (`-32020`), an unknown revision (`-32022`
 * naming the supported ones), removed or unknown methods (HTTP 404, `-32601`), the request id in
 * every error, `resultType` and the caching fields (`ttlMs`, `cacheScope`), a deterministic
 * `tools/list` equal to the 2025 one, and the HTTP challenges of DESIGN D4 unchanged.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken } from '../helpers/member-token.js';

const MODERN = '2026-07-28';
let server: TestServer;
let mcp: string;

beforeAll(async () => {
  server = await startTestServer();
  mcp = `${server.baseUrl}/mcp`;
});
afterAll(() => server.close());

/** The per-request envelope a 2026-07-28 client puts in every request's `params._meta`. */
const envelope = (version = MODERN) => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
});

interface Sent {
  method: string;
  params?: Record<string, unknown>;
  id?: number | string;
  headers?: Record<string, string>;
  version?: string;
}

/** POSTs one 2026-07-28 request with its standard headers (`Mcp-Method`, `Mcp-Name` for tools/call). */
async function modern({ method, params = {}, id = 1, headers = {}, version = MODERN }: Sent) {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  const res = await fetch(mcp, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': version,
      'mcp-method': method,
      ...name,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(version) } }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

/** POSTs one 2025-11-25 request (no envelope, no initialize needed: stateless). */
async function legacy(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const res = await fetch(mcp, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

describe('MCP 2026-07-28 on the stateless endpoint', () => {
  test('server/discover names 2026-07-28, the tools capability, the server and the caching fields', async () => {
    const res = await modern({ method: 'server/discover', id: 'd1' });
    expect(res.status).toBe(200);
    expect(res.json.id).toBe('d1');
    expect(res.json.result).toMatchObject({
      supportedVersions: expect.arrayContaining([MODERN]),
      capabilities: { tools: {} },
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'coursegate' } },
    });
    expect(res.json.result.capabilities.prompts).toBeUndefined();
    expect(res.json.result.capabilities.resources).toBeUndefined();
  });

  test('tools/list: resultType and caching fields; the same tools, descriptions and _meta as on 2025-11-25, in the same order every time', async () => {
    const first = await modern({ method: 'tools/list' });
    const second = await modern({ method: 'tools/list' });
    const old = await legacy('tools/list');
    expect(first.status).toBe(200);
    expect(first.json.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(second.json.result.tools).toEqual(first.json.result.tools);
    expect(first.json.result.tools).toEqual(old.json.result.tools);
    const enrollments = first.json.result.tools.find((t: { name: string }) => t.name === 'my_enrollments');
    expect(enrollments._meta).toEqual({
      securitySchemes: [{ type: 'oauth2', scopes: ['account:read'] }],
      'coursegate/audience': 'member',
      'coursegate/scopes': ['account:read'],
    });
  });

  test('tools/call of a public tool answers anonymously, with resultType', async () => {
    const res = await modern({
      method: 'tools/call',
      params: { name: 'search_courses', arguments: { site: 'demo' } },
      id: 'c1',
    });
    expect(res.status).toBe(200);
    expect(res.json.id).toBe('c1');
    expect(res.json.result.resultType).toBe('complete');
    expect(res.json.result.isError).toBeFalsy();
    expect(res.json.result.structuredContent.courses.length).toBeGreaterThan(0);
  });

  test('DESIGN D4 unchanged: a protected tool without a token is HTTP 401 with the challenge; with a member token it runs', async () => {
    const call = { method: 'tools/call', params: { name: 'my_enrollments', arguments: {} } };
    const anonymous = await modern(call);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(
      /^Bearer error="invalid_token", .*scope="account:read", .*resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource"/,
    );
    const token = await memberToken({
      baseUrl: server.baseUrl,
      email: 'student@demo.test',
      scope: 'openid account:read',
    });
    const member = await modern({ ...call, headers: { authorization: `Bearer ${token}` } });
    expect(member.status).toBe(200);
    expect(member.json.result.isError).toBeFalsy();
    expect(member.json.result.structuredContent.enrollments.length).toBeGreaterThan(0);
    const write = await modern({
      method: 'tools/call',
      params: { name: 'record_progress', arguments: { lectureId: 'x', positionSeconds: 1 } },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toMatch(
      /error="insufficient_scope", .*scope="account:read account:write"/,
    );
  });
});

describe('2026-07-28 errors carry the request id', () => {
  test('Mcp-Method header and body disagree → 400 -32020', async () => {
    const res = await modern({ method: 'tools/list', headers: { 'mcp-method': 'tools/call' }, id: 'm1' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ id: 'm1', error: { code: -32020 } });
  });

  test('Mcp-Name header and params.name disagree → 400 -32020', async () => {
    const res = await modern({
      method: 'tools/call',
      params: { name: 'search_courses', arguments: { site: 'demo' } },
      headers: { 'mcp-name': 'get_course' },
      id: 'n1',
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ id: 'n1', error: { code: -32020 } });
  });

  test('an unknown revision in the envelope → 400 -32022 naming the supported ones', async () => {
    const res = await modern({ method: 'tools/list', version: '2099-01-01', id: 'v1' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      id: 'v1',
      error: { code: -32022, data: { requested: '2099-01-01', supported: expect.arrayContaining([MODERN]) } },
    });
  });

  test('an unknown method, and ping (removed in 2026-07-28) → HTTP 404 -32601', async () => {
    for (const method of ['bogus/method', 'ping']) {
      const res = await modern({ method, id: `u-${method}` });
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ id: `u-${method}`, error: { code: -32601 } });
    }
  });

  test('an unknown tool → -32602 with the id', async () => {
    const res = await modern({ method: 'tools/call', params: { name: 'no_such_tool', arguments: {} }, id: 't1' });
    expect(res.json).toMatchObject({ id: 't1', error: { code: -32602 } });
  });
});

describe('the 2025 revisions on the same endpoint', () => {
  /** Answers `initialize` for `version` (no envelope: a 2025-era request). */
  async function initialize(version: string) {
    const res = await fetch(mcp, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'old', version: '1' } },
      }),
    });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      body: (await res.json()) as { result: { protocolVersion: string; capabilities: { tools: unknown } } },
    };
  }

  test('between 2026-07-28 requests, initialize of every 2025 revision is answered with that revision, as one JSON body', async () => {
    for (const version of ['2024-10-07', '2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      expect((await modern({ method: 'server/discover' })).status).toBe(200);
      const res = await initialize(version);
      expect(res.status).toBe(200);
      expect(res.type).toMatch(/^application\/json/);
      expect(res.body.result.protocolVersion).toBe(version);
      expect(res.body.result.capabilities.tools).toEqual({ listChanged: false });
    }
  });
});
