/**
 * Member access tokens through the real flow (SPEC §4.2, §5.3): authorization request with PKCE
 * and `resource`, login/site picker/consent with the headless user agent, code exchange.
 */
import { completeAuthorization } from './user-agent.js';
import { pkcePair, randomString } from './pkce.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from './server.js';

export interface MemberTokenOptions {
  baseUrl: string;
  email: string;
  /** Member client; default `demo-member-cli`. */
  clientId?: string;
  /** Default `openid account:read account:write`. */
  scope?: string;
  /** Site to pick when the user has roles at several sites. */
  site?: string;
}

/** Runs the authorization-code flow and returns the access token. @throws when any step fails */
export async function memberToken(options: MemberTokenOptions): Promise<string> {
  const clientId = options.clientId ?? 'demo-member-cli';
  const redirectUri = 'http://127.0.0.1:53682/callback';
  const { verifier, challenge } = pkcePair();
  const state = randomString(16);
  const url = new URL('/oauth/authorize', options.baseUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: options.scope ?? 'openid account:read account:write',
    resource: options.baseUrl,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  }).toString();
  const { callback } = await completeAuthorization(url, {
    email: options.email,
    password: DEMO_PASSWORD,
    site: options.site,
  });
  const code = callback.searchParams.get('code');
  if (!code || callback.searchParams.get('state') !== state) throw new Error(`authorization failed: ${callback.href}`);
  const res = await fetch(new URL('/api/oauth/token', options.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
      resource: options.baseUrl,
    }).toString(),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!res.ok || !body.access_token) throw new Error(`token exchange failed: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/**
 * Registers a loopback public client at `/api/oauth/register` (DESIGN D1 row: loopback redirect,
 * `token_endpoint_auth_method: none`, redirect `http://127.0.0.1/callback`) and returns its client_id.
 * @param extra further client metadata (e.g. `application_type: 'native'`)
 * @throws when registration does not answer 201 with a client_id
 */
export async function registerLoopbackClient(
  baseUrl: string,
  clientName: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await fetch(new URL('/api/oauth/register', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: clientName,
      redirect_uris: ['http://127.0.0.1/callback'],
      token_endpoint_auth_method: 'none',
      ...extra,
    }),
  });
  const body = (await res.json()) as { client_id?: string };
  if (res.status !== 201 || !body.client_id)
    throw new Error(`registration failed: ${res.status} ${JSON.stringify(body)}`);
  return body.client_id;
}

/** Result of one GraphQL call over HTTP. */
export interface GraphqlResponse {
  status: number;
  headers: Headers;
  // The GraphQL result as parsed JSON; tests read it loosely.
  body: { data?: any; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
}

/** POSTs a GraphQL request to `/account/graphql`. */
export async function graphql(
  baseUrl: string,
  token: string,
  query: string,
  variables?: Record<string, unknown>,
  accept = 'application/json',
): Promise<GraphqlResponse> {
  const res = await fetch(`${baseUrl}/account/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  let body: GraphqlResponse['body'];
  try {
    body = JSON.parse(text) as GraphqlResponse['body'];
  } catch {
    throw new Error(`not JSON (HTTP ${res.status}): ${text.slice(0, 300)}`);
  }
  return { status: res.status, headers: res.headers, body };
}

/**
 * A test server on the demo seed and an access token of its demo member (student@demo.test,
 * `demo-member-cli`) for `scope` (default `openid account:read`), through the real flow. The
 * server is closed again when the token cannot be had.
 * @throws when the server does not start or any step of the flow fails
 */
export async function serverWithMemberToken(
  scope = 'openid account:read',
): Promise<{ server: TestServer; token: string }> {
  const server = await startTestServer();
  try {
    return { server, token: await memberToken({ baseUrl: server.baseUrl, email: 'student@demo.test', scope }) };
  } catch (err) {
    await server.close();
    throw err;
  }
}
