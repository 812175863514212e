/**
 * Issue #26, scope selection that cannot fail (DESIGN D2, D4; SPEC §4.1, §2.5 rule 1):
 *
 * - the protected-resource metadata (RFC 9728) lists in `scopes_supported` only the minimal set
 *   every client kind may request (the identity scopes): an MCP client with no challenge `scope`
 *   asks for exactly these (MCP 2025-11-25 "scope selection"), and for each client kind (loopback
 *   DCR, unreviewed CIMD, member client, vendor) that authorization succeeds, through login,
 *   consent and the code exchange;
 * - the authorization server metadata still lists every scope;
 * - every `invalid_scope` says which scopes this client may ask for and links a docs page the
 *   server serves (no more oidc-provider's generic "requested scope is not allowed").
 */
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { startDocumentServer, type DocumentServer } from '../helpers/https-documents.js';
import { completeAuthorization, type UserAgentOptions } from '../helpers/user-agent.js';
import { registerLoopbackClient } from '../helpers/member-token.js';
import { pkcePair, randomString } from '../helpers/pkce.js';
import { postForm } from '../helpers/flows.js';

const LOOPBACK = 'http://127.0.0.1:7777/callback';
const MEMBER_REDIRECT = 'http://127.0.0.1:53682/callback';
const CLAUDE_REDIRECT = 'https://claude.ai/api/mcp/auth_callback';

let docs: DocumentServer;
let server: TestServer;
let base: string;
let prmScopes: string;

beforeAll(async () => {
  docs = await startDocumentServer();
  docs.route('/host.json', {
    client_id: `${docs.origin}/host.json`,
    client_name: 'unreviewed MCP host',
    redirect_uris: [LOOPBACK],
    token_endpoint_auth_method: 'none',
    application_type: 'native',
  });
  server = await startTestServer({
    CIMD_ALLOWED_HOSTS: docs.host,
    CIMD_ALLOW_LOOPBACK: '1',
    CIMD_TEST_CA_FILE: docs.caFile,
  });
  base = server.baseUrl;
  const prm = (await (await fetch(`${base}/.well-known/oauth-protected-resource`)).json()) as {
    scopes_supported: string[];
  };
  prmScopes = prm.scopes_supported.join(' ');
});
afterAll(async () => {
  await server?.close();
  await docs?.close();
});

interface Kind {
  name: string;
  clientId: () => Promise<string>;
  redirectUri: string;
  user: UserAgentOptions;
}

const owner: UserAgentOptions = { email: 'owner@demo.test', password: DEMO_PASSWORD, site: 'demo' };
const KINDS: Kind[] = [
  {
    name: 'loopback (dynamic registration)',
    clientId: () => registerLoopbackClient(base, 'scope-selection loopback'),
    redirectUri: LOOPBACK,
    user: owner,
  },
  { name: 'unreviewed CIMD', clientId: async () => `${docs.origin}/host.json`, redirectUri: LOOPBACK, user: owner },
  {
    name: 'member client demo-member-cli',
    clientId: async () => 'demo-member-cli',
    redirectUri: MEMBER_REDIRECT,
    user: { email: 'student@demo.test', password: DEMO_PASSWORD },
  },
  {
    name: 'vendor (config/integrations.yaml, Claude)',
    clientId: async () => 'vendor-claude',
    redirectUri: CLAUDE_REDIRECT,
    user: { ...owner, isRedirectUri: (u) => u.href.startsWith(CLAUDE_REDIRECT) },
  },
];

function authorizeUrl(clientId: string, redirectUri: string, scope: string, challenge: string): URL {
  const url = new URL(`${base}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    resource: base,
    state: randomString(8),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  return url;
}

describe('RFC 9728 scopes_supported is the minimal set every client kind may request', () => {
  test('the protected-resource metadata names the identity scopes; the AS metadata every scope', async () => {
    expect(prmScopes).toBe('openid profile email');
    const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as {
      scopes_supported: string[];
    };
    expect(as.scopes_supported).toEqual(
      expect.arrayContaining([
        'openid',
        'profile',
        'email',
        'courses:read',
        'analytics:read',
        'account:read',
        'account:write',
      ]),
    );
    expect(as.scopes_supported.length).toBeGreaterThan(30);
  });

  test.each(KINDS.map((k) => [k.name, k] as const))(
    '%s: an authorization for exactly scopes_supported succeeds (code and token)',
    async (_name, kind) => {
      const clientId = await kind.clientId();
      const { verifier, challenge } = pkcePair();
      const { callback } = await completeAuthorization(
        authorizeUrl(clientId, kind.redirectUri, prmScopes, challenge),
        kind.user,
      );
      expect(callback.searchParams.get('error')).toBeNull();
      const code = callback.searchParams.get('code');
      expect(code).toBeTruthy();
      const token = await postForm(base, '/api/oauth/token', {
        grant_type: 'authorization_code',
        code: code!,
        code_verifier: verifier,
        redirect_uri: kind.redirectUri,
        client_id: clientId,
        resource: base,
      });
      expect(token.status).toBe(200);
      expect(String(token.body.scope).split(' ').sort()).toEqual(['email', 'openid', 'profile']);
    },
  );
});

describe('every invalid_scope says which scopes the client may ask for and links the docs', () => {
  /** The error redirect of an authorization asking for `scope` (no sign-in happens first). */
  async function refusal(clientId: string, redirectUri: string, scope: string): Promise<URL> {
    const res = await fetch(authorizeUrl(clientId, redirectUri, scope, pkcePair().challenge), { redirect: 'manual' });
    expect([302, 303]).toContain(res.status);
    const location = new URL(res.headers.get('location')!);
    expect(location.href.startsWith(redirectUri)).toBe(true);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    return location;
  }

  /** The docs link of a description, fetched: it must be a page this server serves. */
  async function linkedPage(description: string): Promise<string> {
    const link = /\(see (\S+)\)/.exec(description)?.[1];
    expect(link).toMatch(new RegExp(`^${base}/docs/[a-z-]+\\.md#`));
    const page = await fetch(link!.split('#')[0]!);
    expect(page.status).toBe(200);
    return page.text();
  }

  test('member client asking for an operator scope: the account scopes it may ask for, and why, with a served docs link', async () => {
    const location = await refusal('demo-member-cli', MEMBER_REDIRECT, 'openid analytics:read');
    const description = location.searchParams.get('error_description')!;
    expect(description).not.toContain('requested scope is not allowed');
    expect(description).toContain('scope analytics:read is not allowed for this client');
    expect(description).toContain('This client may ask for: openid profile email account:read account:write');
    expect(await linkedPage(description)).toContain('Scopes your client may request');
  });

  test('vendor asking for an operator scope its integration does not list: the scopes it may ask for', async () => {
    const location = await refusal('vendor-claude', CLAUDE_REDIRECT, 'openid courses:write');
    const description = location.searchParams.get('error_description')!;
    expect(description).not.toContain('requested scope is not allowed');
    expect(description).toContain('scope courses:write is not allowed for this client');
    expect(description).toContain(
      'This client may ask for: openid profile email courses:read students:read analytics:read curriculum:read orders:read events:read',
    );
    await linkedPage(description);
  });

  test('loopback client asking for account:read: sent to the member client, with the scopes it may ask for', async () => {
    const clientId = await registerLoopbackClient(base, 'scope-selection refused');
    const location = await refusal(clientId, LOOPBACK, 'openid account:read');
    const description = location.searchParams.get('error_description')!;
    expect(description).toContain("only the site's member client may request");
    expect(description).toMatch(/This client may ask for: openid profile email courses:read .*analytics:read/);
    expect(description).not.toMatch(/may ask for: .*account:read/);
    await linkedPage(description);
  });
});
