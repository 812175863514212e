/**
 * A "listed-only host" (issue #26; DESIGN D4): an MCP host that hands its model only the tools of
 * `tools/list` and calls nothing else, as Inspector 2.12 and chat hosts do. The host is an MCP
 * TypeScript SDK client (`Client` + `StreamableHTTPClientTransport` with an OAuth provider), run
 * twice: the SDK 1.32 client (`@modelcontextprotocol/sdk`) and the SDK 2 client
 * (`@modelcontextprotocol/client` 2.4) twice: with `versionNegotiation: { mode: 'auto' }` (it probes
 * with `server/discover` and negotiates MCP 2026-07-28) and modern-only (`{ pin: '2026-07-28' }`:
 * no `initialize`, no fallback). The "model" is a script that picks
 * a tool by the words of its listed description. It starts anonymous every time and reaches:
 *
 * 1. the member's enrollments tool as student@demo.test, through the member client `demo-member-cli`;
 * 2. an operator tool as owner@demo.test, through dynamic registration (loopback client);
 * 3. a step-up to a second and a third scope with the same registration;
 * 4. after its grant is revoked (RFC 7009), a 401 naming the client's default scope (not just
 *    `openid`), a re-authorization, and a token that can call the tool again.
 *
 * Sign-in is automated by `HeadlessOAuthProvider` (test/helpers/mcp-oauth-provider.ts). The SDK
 * 1.32 transport answers a 403 by refreshing (same scopes); the provider steps up by
 * re-authorizing instead, as the MCP spec, mcp-remote 0.15 and the SDK 2 transport do (docs/mcp.md
 * "Known limitations"). The SDK 2 client steps up on its own (`onInsufficientScope: 'reauthorize'`).
 */
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError as Unauthorized1 } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  Client as Client2,
  StreamableHTTPClientTransport as Transport2,
  UnauthorizedError as Unauthorized2,
} from '@modelcontextprotocol/client';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { HeadlessOAuthProvider } from '../helpers/mcp-oauth-provider.js';
import { type ListedTool, pickByDescription } from '../helpers/listed-only-model.js';

let server: TestServer;
let mcpUrl: URL;

beforeAll(async () => {
  server = await startTestServer();
  mcpUrl = new URL(`${server.baseUrl}/mcp`);
});
afterAll(() => server?.close());

type Tool = ListedTool;
/** A `tools/call` result as both SDKs return it. */
interface ToolResult {
  isError?: boolean;
  structuredContent?: unknown;
}

/** What the host needs of an SDK: a connected client, `finishAuth`, and its 401/403 error class. */
interface Sdk {
  name: string;
  /** Whether the provider must turn a 403 into a re-authorization (SDK 1.32 refreshes instead). */
  stepUpByReauthorization: boolean;
  /** The MCP revision the client must end up speaking with this server. */
  revision: string;
  connect(provider: HeadlessOAuthProvider): Promise<{
    listTools(): Promise<{ tools: Tool[] }>;
    callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<ToolResult>;
    /** Redeems the authorization response (`callback`: the redirect URL with code, state, iss). */
    finishAuth(callback: URL): Promise<void>;
    protocolVersion(): string | undefined;
    close(): Promise<void>;
  }>;
  isUnauthorized(err: unknown): boolean;
}

const SDKS: Sdk[] = [
  {
    name: 'MCP SDK 1.32 client',
    stepUpByReauthorization: true,
    revision: '2025-11-25',
    async connect(provider) {
      const client = new Client1({ name: 'listed-only-host', version: '1.0.0' });
      const transport = new Transport1(mcpUrl, { authProvider: provider, fetch: provider.fetch });
      await client.connect(transport);
      return {
        listTools: () => client.listTools(),
        callTool: (p) => client.callTool(p) as Promise<ToolResult>,
        finishAuth: (callback) => transport.finishAuth(callback.searchParams.get('code')!),
        protocolVersion: () => transport.protocolVersion,
        close: () => client.close(),
      };
    },
    isUnauthorized: (err) => err instanceof Unauthorized1,
  },
  {
    name: 'MCP SDK 2.4 client (auto negotiation)',
    stepUpByReauthorization: false,
    revision: '2026-07-28',
    async connect(provider) {
      const client = new Client2(
        { name: 'listed-only-host', version: '2.0.0' },
        { versionNegotiation: { mode: 'auto' } },
      );
      const transport = new Transport2(mcpUrl, { authProvider: provider, fetch: provider.fetch });
      await client.connect(transport);
      return {
        listTools: () => client.listTools(),
        callTool: (p) => client.callTool(p) as Promise<ToolResult>,
        // The whole callback: SDK 2 checks RFC 9207 `iss` itself (the server advertises it).
        finishAuth: (callback) => transport.finishAuth(callback.searchParams),
        protocolVersion: () => client.getNegotiatedProtocolVersion(),
        close: () => client.close(),
      };
    },
    isUnauthorized: (err) => err instanceof Unauthorized2,
  },
  {
    name: 'MCP SDK 2.4 client (modern only, pinned to 2026-07-28)',
    stepUpByReauthorization: false,
    revision: '2026-07-28',
    async connect(provider) {
      const client = new Client2(
        { name: 'listed-only-host', version: '2.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      const transport = new Transport2(mcpUrl, { authProvider: provider, fetch: provider.fetch });
      await client.connect(transport);
      return {
        listTools: () => client.listTools(),
        callTool: (p) => client.callTool(p) as Promise<ToolResult>,
        // The whole callback: SDK 2 checks RFC 9207 `iss` itself (the server advertises it).
        finishAuth: (callback) => transport.finishAuth(callback.searchParams),
        protocolVersion: () => client.getNegotiatedProtocolVersion(),
        close: () => client.close(),
      };
    },
    isUnauthorized: (err) => err instanceof Unauthorized2,
  },
];

/** An MCP host: one session, one OAuth provider, and a model that sees the listed tools only. */
class ListedOnlyHost {
  /** Every tool name the model was offered, per listing. */
  readonly offered: string[][] = [];
  private session!: Awaited<ReturnType<Sdk['connect']>>;
  constructor(
    readonly sdk: Sdk,
    readonly provider: HeadlessOAuthProvider,
  ) {}

  async start(): Promise<void> {
    this.session = await this.sdk.connect(this.provider);
  }

  get protocolVersion(): string | undefined {
    return this.session.protocolVersion();
  }

  close(): Promise<void> {
    return this.session.close();
  }

  /** Runs an MCP request; when the SDK stops for OAuth (401/403), finishes it and runs it again. */
  private async signedIn<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      if (!this.sdk.isUnauthorized(err)) throw err;
      await this.session.finishAuth(this.provider.callback!);
      return await request();
    }
  }

  /**
   * The model: lists the tools, picks the one whose description shares the most words with
   * `intent` (the listed text only, nothing known in advance), and calls it.
   */
  async ask(intent: string, args: Record<string, unknown> = {}) {
    const { tools } = await this.signedIn(() => this.session.listTools());
    this.offered.push(tools.map((t) => t.name));
    const tool = pickByDescription(tools, intent);
    const result = await this.signedIn(() => this.session.callTool({ name: tool.name, arguments: args }));
    return { tool, result };
  }
}

const param = (header: string | undefined, name: string) => new RegExp(`${name}="([^"]*)"`).exec(header ?? '')?.[1];
const scopesOf = (url: URL | undefined) => url?.searchParams.get('scope')?.split(' ').sort();

describe.each(SDKS)('$name', (sdk) => {
  describe('a member reaches their enrollments through demo-member-cli, starting anonymous', () => {
    test('the model picks the member tool from the anonymous listing, the 401 starts sign-in, the call succeeds', async () => {
      const provider = new HeadlessOAuthProvider({
        user: { email: 'student@demo.test', password: DEMO_PASSWORD },
        issuer: server.baseUrl,
        clientInformation: { client_id: 'demo-member-cli' },
        redirectUrl: 'http://127.0.0.1:53682/callback',
      });
      const host = new ListedOnlyHost(sdk, provider);
      await host.start();
      const { tool, result } = await host.ask(
        'members: which courses am I enrolled in, my enrollments and access expiry',
      );
      expect(tool.name).toBe('my_enrollments');
      // SDK 1.32 speaks 2025-11-25; SDK 2 negotiates 2026-07-28 through `server/discover`.
      expect(host.protocolVersion).toBe(sdk.revision);
      expect(tool.description).toMatch(/^For members of the site/);
      expect(tool._meta).toMatchObject({ 'coursegate/audience': 'member', 'coursegate/scopes': ['account:read'] });
      // The anonymous listing offered it (and the operator tools, said to be for owners and admins).
      expect(host.offered[0]).toEqual(expect.arrayContaining(['my_enrollments', 'site_analytics', 'search_courses']));
      expect(provider.challenges[0]).toContain('error="invalid_token"');
      expect(param(provider.challenges[0], 'scope')).toBe('account:read');
      expect(provider.authorizationUrls[0]!.searchParams.get('client_id')).toBe('demo-member-cli');
      expect(result.isError).toBeFalsy();
      const slugs = (result.structuredContent as { enrollments: Array<{ slug: string }> }).enrollments.map(
        (e) => e.slug,
      );
      expect(slugs).toContain('oauth-in-practice');
      await host.close();
    });
  });

  describe('an owner reaches operator tools through dynamic registration, steps up twice, is revoked and comes back', () => {
    let provider: HeadlessOAuthProvider;
    let host: ListedOnlyHost;

    beforeAll(async () => {
      provider = new HeadlessOAuthProvider({
        user: { email: 'owner@demo.test', password: DEMO_PASSWORD, site: 'demo' },
        issuer: server.baseUrl,
        clientName: 'listed-only host',
        stepUpByReauthorization: sdk.stepUpByReauthorization,
      });
      host = new ListedOnlyHost(sdk, provider);
      await host.start();
    });
    afterAll(() => host?.close());

    test('operator tool: picked by its description from the anonymous listing; the 401 starts registration and sign-in', async () => {
      const { tool, result } = await host.ask("owners and admins: list the site's courses with their status");
      expect(tool.name).toBe('list_courses');
      expect(tool.description).toMatch(/^For the site's owners and admins only/);
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { courses: Array<{ slug: string }> }).courses.map((c) => c.slug)).toContain(
        'sql-basics',
      );
      expect(param(provider.challenges[0], 'scope')).toBe('courses:read');
      expect(provider.registrations).toBe(1);
      expect(scopesOf(provider.authorizationUrls[0])).toEqual(['courses:read']);
    });

    test('second scope: 403 insufficient_scope → step-up with the same registration', async () => {
      const { tool, result } = await host.ask('owners and admins: list the orders and payments of the site', {
        status: 'paid',
      });
      expect(tool.name).toBe('list_orders');
      expect(result.isError).toBeFalsy();
      expect(provider.challenges.at(-1)).toContain('error="insufficient_scope"');
      expect(scopesOf(provider.authorizationUrls[1])).toEqual(['courses:read', 'orders:read']);
      expect(provider.registrations).toBe(1);
    });

    test('third scope: another step-up; the token now carries all three', async () => {
      const { tool, result } = await host.ask('owners and admins: sales and learning analytics of the site');
      expect(tool.name).toBe('site_analytics');
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ courses: { total: 3 } });
      expect(provider.tokens()!.scope!.split(' ').sort()).toEqual(['analytics:read', 'courses:read', 'orders:read']);
      expect(provider.authorizationUrls).toHaveLength(3);
      expect(provider.registrations).toBe(1);
    });

    test('revoked (RFC 7009): the next listing is a 401 naming the client default, the host signs in again, and the tool works again', async () => {
      const clientId = provider.clientInformation()!.client_id;
      const revoked = await fetch(`${server.baseUrl}/api/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: provider.tokens()!.refresh_token!, client_id: clientId }),
      });
      expect(revoked.status).toBe(200);
      const before = { challenges: provider.challenges.length, authorizations: provider.authorizationUrls.length };
      const { tool, result } = await host.ask('owners and admins: sales and learning analytics of the site');
      expect(tool.name).toBe('site_analytics');
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ courses: { total: 3 } });
      // The revoked token's 401 (tools/list) named the client's default scope, read from its
      // tombstone, not `openid`: the re-authorization asked for it, then stepped up for the tool.
      const gone = provider.challenges[before.challenges]!;
      expect(gone).toContain('error="invalid_token"');
      expect(param(gone, 'scope')).toBe('courses:read');
      const reauth = provider.authorizationUrls.slice(before.authorizations);
      expect(reauth[0]!.searchParams.get('client_id')).toBe(clientId);
      expect(scopesOf(reauth[0])).toEqual(['courses:read']);
      expect(scopesOf(reauth.at(-1))).toEqual(expect.arrayContaining(['analytics:read']));
      expect(provider.tokens()!.scope!.split(' ')).toContain('analytics:read');
      expect(provider.registrations).toBe(1);
    });
  });
});
