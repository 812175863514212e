/**
 * Command-line login to coursegate with openid-client: authorization code + PKCE (S256) through a
 * loopback redirect (RFC 8252 §7.3), `resource` = the issuer (SPEC §5.6), tokens cached in a file
 * and refreshed when the access token has expired (the refresh token rotates, DESIGN D3).
 *
 *   npx tsx examples/cli-login.ts                                  # member client demo-member-cli
 *   npx tsx examples/cli-login.ts --register --scope "openid school:read"   # a registered operator CLI
 *   npx tsx examples/cli-login.ts --refresh                        # force a refresh
 *   npx tsx examples/cli-login.ts --port 8765                      # a fixed loopback port
 *
 * Prints the access token on stdout (`ACCESS_TOKEN=$(npx tsx examples/cli-login.ts)`), progress
 * on stderr. Settings: COURSEGATE_URL (http://localhost:3000), COURSEGATE_TOKEN_CACHE (a JSON file;
 * default ~/.cache/coursegate-examples/<client>.json).
 */
import { createServer } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as client from 'openid-client';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);

const issuer = new URL(process.env.COURSEGATE_URL ?? 'http://localhost:3000');
const register = flag('register');
const scope = option('scope') ?? 'openid profile email account:read';
// The loopback port of the redirect URI: a free one by default (any port matches a loopback
// redirect URI, RFC 8252 §7.3); a fixed one for a firewall rule or a port forwarded into a container.
const port = Number(option('port') ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port takes a TCP port (0-65535)');
const cacheFile =
  process.env.COURSEGATE_TOKEN_CACHE ??
  path.join(os.homedir(), '.cache', 'coursegate-examples', `${register ? 'registered' : 'demo-member-cli'}.json`);
// Plain http only for a local development server.
const insecure = issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {};

interface Cache {
  client_id: string;
  access_token?: string;
  refresh_token?: string;
  expires_at?: number;
}

const cache: Cache | undefined = existsSync(cacheFile)
  ? (JSON.parse(readFileSync(cacheFile, 'utf8')) as Cache)
  : undefined;
const save = (c: Cache) => {
  mkdirSync(path.dirname(cacheFile), { recursive: true });
  writeFileSync(cacheFile, JSON.stringify(c, null, 2), { mode: 0o600 }); // tokens: owner-only
};
const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * Runs a loopback server on `wanted` (0 = a free port); resolves with the URL of the first request
 * to /callback.
 */
async function loopback(wanted: number): Promise<{ redirectUri: string; callback: Promise<URL> }> {
  let resolve!: (u: URL) => void;
  const callback = new Promise<URL>((r) => (resolve = r));
  let port = wanted;
  let answered = false;
  // A browser sends more than the redirect (`/favicon.ico`, a second tab, a reload), also after the
  // server was closed: the handler never asks the closed server for its address again.
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname !== '/callback') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('Signed in: you can close this tab.\n');
    if (answered) return;
    answered = true;
    server.close();
    resolve(url);
  });
  await new Promise<void>((r, reject) => server.once('error', reject).listen(wanted, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
  return { redirectUri: `http://127.0.0.1:${port}/callback`, callback };
}

async function clientId(): Promise<string> {
  if (cache?.client_id) return cache.client_id;
  if (!register) return 'demo-member-cli';
  // RFC 7591 registration of a native public client with a loopback redirect (DESIGN D1).
  const registered = await client.dynamicClientRegistration(
    issuer,
    {
      client_name: 'coursegate example CLI',
      redirect_uris: ['http://127.0.0.1/callback'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      scope,
    },
    client.None(),
    insecure,
  );
  log(`registered client ${registered.clientMetadata().client_id}`);
  return registered.clientMetadata().client_id;
}

const id = await clientId();
const config = await client.discovery(issuer, id, undefined, client.None(), insecure);
const resource = { resource: issuer.href.replace(/\/$/, '') };

let tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
if (cache?.access_token && cache.expires_at && cache.expires_at > Date.now() / 1000 + 30 && !flag('refresh')) {
  log(`using the cached access token (expires ${new Date(cache.expires_at * 1000).toISOString()})`);
  process.stdout.write(`${cache.access_token}\n`);
  process.exit(0);
} else if (cache?.refresh_token) {
  log('refreshing the access token');
  tokens = await client.refreshTokenGrant(config, cache.refresh_token, resource);
} else {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const { redirectUri, callback } = await loopback(port);
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    ...resource,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  log(`Open this URL in your browser to sign in:\n${url.href}`);
  const returned = await callback;
  tokens = await client.authorizationCodeGrant(
    config,
    returned,
    { pkceCodeVerifier: verifier, expectedState: state },
    { redirect_uri: redirectUri, ...resource },
  );
}
save({
  client_id: id,
  access_token: tokens.access_token,
  refresh_token: tokens.refresh_token ?? cache?.refresh_token,
  expires_at: Math.floor(Date.now() / 1000) + (tokens.expiresIn() ?? 0),
});
log(`signed in; scope: ${tokens.scope ?? scope}; tokens cached in ${cacheFile}`);
process.stdout.write(`${tokens.access_token}\n`);
