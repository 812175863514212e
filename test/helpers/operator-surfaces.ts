/**
 * The three surfaces of operator actions, driven as their users drive them (issue #27):
 * `/api/v1` over HTTP with a real operator token, MCP through the MCP SDK client (signed in through
 * the real OAuth flow), and `/admin` through HTML form posts with a real `cg_web` session.
 */
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DEMO_PASSWORD } from './server.js';
import { memberToken, registerLoopbackClient } from './member-token.js';
import { CookieJar, parseForm } from './user-agent.js';
import { HeadlessOAuthProvider } from './mcp-oauth-provider.js';

/** The operator scopes of the operator writes of /admin (and of enrolments). */
export const OPERATOR_SCOPES =
  'openid school:read school:write members:read members:write students:read students:write';

/** An operator token through the real authorization-code flow, for a new loopback client named `clientName`. */
export async function operatorToken(
  base: string,
  email: string,
  site: string,
  clientName: string,
  scope = OPERATOR_SCOPES,
): Promise<{ token: string; clientId: string }> {
  const clientId = await registerLoopbackClient(base, clientName);
  return { token: await memberToken({ baseUrl: base, email, clientId, scope, site }), clientId };
}

/** `/api/v1` with a bearer token: status, headers and parsed body. */
export async function callApi(
  base: string,
  token: string,
  path: string,
  method = 'GET',
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(new URL(path, base), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A browser-like `/admin` session: cookies kept, redirects not followed. */
export class AdminBrowser {
  readonly jar = new CookieJar();
  constructor(private readonly base: string) {}
  async get(path: string) {
    const res = await fetch(new URL(path, this.base), { redirect: 'manual', headers: { cookie: this.jar.header() } });
    this.jar.store(res);
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  }
  async post(path: string, fields: Record<string, string | string[]>) {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
    const res = await fetch(new URL(path, this.base), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: this.jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    this.jar.store(res);
    return {
      status: res.status,
      location: res.headers.get('location'),
      retryAfter: res.headers.get('retry-after'),
      html: await res.text(),
    };
  }
  async signIn(email: string, password = DEMO_PASSWORD): Promise<void> {
    const { hidden } = parseForm((await this.get('/signin?next=/admin')).html);
    const res = await this.post('/signin', { ...hidden, email, password });
    if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}`);
  }
  /** The CSRF token of the signed-in pages. */
  async csrf(path = '/'): Promise<string> {
    return /name="csrf" value="([^"]+)"/.exec((await this.get(path)).html)![1]!;
  }
}

/** An MCP SDK client signed in as `email` at `site` through the real OAuth flow (DCR loopback client). */
export async function mcpOperator(
  base: string,
  email: string,
  site: string,
  scope = OPERATOR_SCOPES,
): Promise<{ client: Client; clientId: string }> {
  const url = new URL(`${base}/mcp`);
  const provider = new HeadlessOAuthProvider({ user: { email, password: DEMO_PASSWORD, site }, issuer: base });
  if ((await auth(provider, { serverUrl: url, scope })) !== 'REDIRECT') throw new Error('MCP sign-in did not start');
  if ((await auth(provider, { serverUrl: url, authorizationCode: provider.code })) !== 'AUTHORIZED')
    throw new Error('MCP sign-in failed');
  const client = new Client({ name: 'operator-surfaces', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  const info = (await provider.clientInformation()) as { client_id: string };
  return { client, clientId: info.client_id };
}
