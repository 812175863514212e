/**
 * Raw-HTTP OAuth steps with the demo member client (`demo-member-cli`, public, PKCE), for tests
 * that drive several servers: authorize at one origin, call the token endpoint at another.
 */
import { DEMO_PASSWORD } from './server.js';
import { completeAuthorization } from './user-agent.js';
import { pkcePair, randomString } from './pkce.js';

export const MEMBER_CLIENT = 'demo-member-cli';
export const REDIRECT_URI = 'http://127.0.0.1:53682/callback';

/** An authorization code obtained through the interaction pages of `authOrigin`. */
export interface IssuedCode {
  code: string;
  verifier: string;
}

/** Runs login + consent as student@demo.test at `authOrigin`; `resource` is the issuer (BASE_URL). */
export async function authorizeMember(
  authOrigin: string,
  resource: string,
  scope = 'openid account:read',
): Promise<IssuedCode> {
  const { verifier, challenge } = pkcePair();
  const url = new URL('/oauth/authorize', authOrigin);
  url.search = new URLSearchParams({
    client_id: MEMBER_CLIENT,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope,
    resource,
    state: randomString(8),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  const { callback } = await completeAuthorization(url, { email: 'student@demo.test', password: DEMO_PASSWORD });
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback.href}`);
  return { code, verifier };
}

/** POSTs a form to `origin + path`; returns status, JSON body and headers. */
export async function postForm(
  origin: string,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const res = await fetch(new URL(path, origin), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { raw: text };
  }
  return { status: res.status, body, headers: res.headers };
}

/** Exchanges a code at `tokenOrigin`. */
export function redeemCode(tokenOrigin: string, resource: string, issued: IssuedCode) {
  return postForm(tokenOrigin, '/api/oauth/token', {
    grant_type: 'authorization_code',
    code: issued.code,
    code_verifier: issued.verifier,
    redirect_uri: REDIRECT_URI,
    client_id: MEMBER_CLIENT,
    resource,
  });
}

/** Uses a refresh token at `tokenOrigin`. */
export function refresh(tokenOrigin: string, refreshToken: string) {
  return postForm(tokenOrigin, '/api/oauth/token', {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: MEMBER_CLIENT,
  });
}

/** Calls the Account API viewer query at `origin`; returns the HTTP status. */
export async function viewerStatus(origin: string, accessToken: string): Promise<number> {
  const res = await fetch(new URL('/account/graphql', origin), {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ viewer { id } }' }),
  });
  await res.arrayBuffer();
  return res.status;
}
