/**
 * DESIGN D4 scope hierarchy on the consent page: a write scope carries its read scope, so a
 * request for `account:write` alone names, on the consent page, the read access the token will
 * have too (the person consents to what the app gets, not only to what it asked for).
 */
import { createHash, randomBytes } from 'node:crypto';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { completeAuthorization } from '../helpers/user-agent.js';
import { SCOPES } from '../../src/domain/scopes.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(() => server?.close());

/** The consent page's HTML for `scope` asked by demo-member-cli (signed in as the student). */
async function consentFor(scope: string): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL('/oauth/authorize', server.baseUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: 'demo-member-cli',
    redirect_uri: 'http://127.0.0.1:53682/callback',
    scope,
    resource: server.baseUrl,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'xyz',
    prompt: 'consent',
  }).toString();
  const { visits } = await completeAuthorization(url, { email: 'student@demo.test', password: DEMO_PASSWORD });
  const page = visits.find((v) => v.body.includes('name="decision"'));
  expect(page).toBeDefined();
  return page!.body;
}

test('account:write alone: its line names the read access it includes', async () => {
  const html = await consentFor('openid account:write');
  const line = html.slice(html.indexOf('<code>account:write</code>') - 400, html.indexOf('<code>account:write</code>'));
  expect(line).toContain(SCOPES['account:write']!);
  expect(line).toContain(`includes: ${SCOPES['account:read']}`);
});

test('account:read asked too: listed once, on its own line, not repeated under write', async () => {
  const html = await consentFor('openid account:read account:write');
  expect(html).toContain('<code>account:read</code>');
  expect(html).not.toContain('includes:');
});
