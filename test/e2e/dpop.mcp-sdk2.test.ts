/**
 * RFC 9449 with an MCP host: the MCP SDK 2 client, whose OAuth provider offers a `DpopSession`
 * (`dpop()`), signs in to `/mcp` through demo-member-cli, gets a DPoP-bound token and calls the
 * member tool with proofs. The same client without `dpop()` still works with Bearer tokens (no
 * policy requires DPoP of member clients by default).
 */
import { Client, DpopSession, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { HeadlessOAuthProvider } from '../helpers/mcp-oauth-provider.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** The headless provider with the SDK's DPoP hook. */
class DpopProvider extends HeadlessOAuthProvider {
  session?: DpopSession;
  dpop(): DpopSession | undefined {
    return this.session;
  }
}

/** Connects, signs in on the first 401, and calls `my_enrollments`; answers the tool's text and the token type. */
async function enrollmentsThrough(provider: DpopProvider) {
  const url = new URL(`${server.baseUrl}/mcp`);
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: provider.fetch });
  const client = new Client({ name: 'dpop-host', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  const call = () => client.callTool({ name: 'my_enrollments', arguments: {} });
  let result: Awaited<ReturnType<typeof call>>;
  try {
    result = await call();
  } catch (err) {
    if (!(err instanceof UnauthorizedError)) throw err;
    await transport.finishAuth(provider.callback!.searchParams);
    result = await call();
  }
  await client.close();
  return { text: JSON.stringify(result), tokenType: provider.tokens()?.token_type };
}

const options = () => ({
  user: { email: 'student@demo.test', password: DEMO_PASSWORD },
  issuer: server.baseUrl,
  clientInformation: { client_id: 'demo-member-cli' },
  redirectUrl: 'http://127.0.0.1:53682/callback',
});

test('MCP SDK 2 with a DpopSession: sign-in, a DPoP-bound token, the member tool called with proofs', async () => {
  const provider = new DpopProvider(options());
  provider.session = await DpopSession.create({ alg: 'ES256' });
  const { text, tokenType } = await enrollmentsThrough(provider);
  expect(tokenType?.toLowerCase()).toBe('dpop');
  expect(text).toContain('typescript-fundamentals');
  // The token is bound: as Bearer it is refused.
  const res = await fetch(`${server.baseUrl}/api/oauth/userinfo`, {
    headers: { authorization: `Bearer ${provider.tokens()!.access_token}` },
  });
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toMatch(/^DPoP /);
}, 30_000);

test('the same host without DPoP still signs in and calls the tool with a Bearer token', async () => {
  const provider = new DpopProvider(options());
  const { text, tokenType } = await enrollmentsThrough(provider);
  expect(tokenType?.toLowerCase()).toBe('bearer');
  expect(text).toContain('typescript-fundamentals');
}, 30_000);
