/**
 * Process lifecycle: a restart loses nothing (DESIGN.md §3), production mode refuses to start
 * without its settings, and the "JWKS published, signing not started" state (SPEC §2.2, D6).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as client from 'openid-client';
import { startTestServer, DEMO_PASSWORD, freePort, type TestServer } from '../helpers/server.js';
import { completeAuthorization, CookieJar } from '../helpers/user-agent.js';
import { loadConfig, ConfigError } from '../../src/config.js';
import { generateSigningKey } from '../../src/oauth/keys.js';

const REDIRECT = 'http://127.0.0.1:61001/callback';

async function memberLogin(base: string, jar: CookieJar, scope = 'openid profile email account:read') {
  const config = await client.discovery(new URL(base), 'demo-member-cli', undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope,
    resource: base,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const { callback, visits } = await completeAuthorization(
    url,
    { email: 'student@demo.test', password: DEMO_PASSWORD },
    jar,
  );
  const tokens = await client.authorizationCodeGrant(
    config,
    callback,
    { pkceCodeVerifier: verifier, expectedState: state },
    { resource: base },
  );
  return { config, tokens, visits };
}

const viewer = (base: string, token: string) =>
  fetch(`${base}/account/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ viewer { email } }' }),
  });

describe('DESIGN §3: a restart loses nothing', () => {
  let first: TestServer | undefined;
  let second: TestServer | undefined;
  afterAll(async () => {
    await second?.close();
  });

  test('clients, grants, sessions, tokens and keys survive a restart', async () => {
    first = await startTestServer();
    const base = first.baseUrl;
    const jar = new CookieJar();
    const { tokens } = await memberLogin(base, jar);
    const registered = await client.dynamicClientRegistration(
      new URL(base),
      {
        redirect_uris: ['http://127.0.0.1:9/callback'],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
        client_name: 'restart test',
      },
      client.None(),
      { execute: [client.allowInsecureRequests] },
    );
    const jwksBefore = await (await fetch(`${base}/.well-known/jwks.json`)).json();
    await first.close({ keepData: true });
    await new Promise((r) => setTimeout(r, 200)); // let the client's pool see the closed sockets

    second = await startTestServer({}, first.dataDir, first.port);
    expect((await viewer(base, tokens.access_token)).status).toBe(200);
    expect(await (await fetch(`${base}/.well-known/jwks.json`)).json()).toEqual(jwksBefore);
    const config = await client.discovery(new URL(base), 'demo-member-cli', undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, { resource: base });
    expect((await viewer(base, refreshed.access_token)).status).toBe(200);
    const clientAfter = await second.provider.Client.find(registered.clientMetadata().client_id);
    expect(clientAfter?.clientName).toBe('restart test');
    // The browser session survived: the second authorization shows no login page.
    const { visits } = await memberLogin(base, jar);
    expect(visits.some((v) => v.body.includes('name="password"'))).toBe(false);
    expect(visits.some((v) => v.body.includes('name="decision"'))).toBe(true);
  });
});

describe('SPEC §2.2 / DESIGN D6: JWKS published, signing not started', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ID_TOKEN_SIGNING: 'published' });
  });
  afterAll(() => server.close());

  test('discovery keeps jwks_uri, omits the alg list; the code exchange returns no id_token', async () => {
    const md = await (await fetch(`${server.baseUrl}/.well-known/openid-configuration`)).json();
    expect(md.jwks_uri).toBe(`${server.baseUrl}/.well-known/jwks.json`);
    expect(md.id_token_signing_alg_values_supported).toBeUndefined();
    const jwks = await (await fetch(md.jwks_uri)).json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.keys[0].d).toBeUndefined();
    const { tokens, config } = await memberLogin(server.baseUrl, new CookieJar());
    expect(tokens.id_token).toBeUndefined();
    // The client falls back to UserInfo (SPEC §2.2).
    const info = await client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck);
    expect(info.sub).toBe('usr_student');
  });
});

describe('DESIGN D6: key rotation with a JWK Set', () => {
  test('the first key signs, every key is published', async () => {
    const [current, next] = [await generateSigningKey(), await generateSigningKey()];
    const server = await startTestServer({ SIGNING_KEY: JSON.stringify({ keys: [current, next] }) });
    try {
      const jwks = await (await fetch(`${server.baseUrl}/.well-known/jwks.json`)).json();
      expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([current.kid, next.kid]);
      const { tokens } = await memberLogin(server.baseUrl, new CookieJar(), 'openid account:read');
      expect(JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString()).kid).toBe(current.kid);
    } finally {
      await server.close();
    }
  });

  test('a JWK Set with a bad key is refused, naming the key', () => {
    expect(() => loadConfig({ SIGNING_KEY: JSON.stringify({ keys: [{ kty: 'RSA' }] }) })).toThrow(/SIGNING_KEY: key 0/);
    expect(() => loadConfig({ SIGNING_KEY: JSON.stringify({ keys: [] }) })).toThrow(/no keys/);
  });
});

describe('production mode (DESIGN §3)', () => {
  const base = { NODE_ENV: 'production' } as NodeJS.ProcessEnv;

  test('refuses to start without BASE_URL, cookie secrets or a signing key, naming the setting', () => {
    expect(() => loadConfig({ ...base })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base })).toThrow(/BASE_URL/);
    expect(() => loadConfig({ ...base, BASE_URL: 'https://auth.example.com' })).toThrow(/COOKIE_SECRETS/);
    expect(() => loadConfig({ ...base, BASE_URL: 'https://auth.example.com', COOKIE_SECRETS: 'short' })).toThrow(
      /COOKIE_SECRETS/,
    );
    expect(() => loadConfig({ ...base, BASE_URL: 'https://auth.example.com', COOKIE_SECRETS: 'x'.repeat(40) })).toThrow(
      /SIGNING_KEY/,
    );
    expect(() =>
      loadConfig({
        ...base,
        BASE_URL: 'https://auth.example.com/path',
        COOKIE_SECRETS: 'x'.repeat(40),
        SIGNING_KEY: '{}',
      }),
    ).toThrow(/BASE_URL/);
    expect(() =>
      loadConfig({
        ...base,
        BASE_URL: 'https://auth.example.com',
        COOKIE_SECRETS: 'x'.repeat(40),
        SIGNING_KEY: '{"kty":"RSA"}',
      }),
    ).toThrow(/SIGNING_KEY/);
  });

  test('`npm start` in production exits 1 with the missing setting; with all settings it starts without demo data', async () => {
    const run = (env: Record<string, string>, untilListening = false) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
          env: {
            PATH: process.env.PATH!,
            HOME: process.env.HOME ?? '/tmp',
            NODE_ENV: 'production',
            LOG_LEVEL: 'warn',
            SHUTDOWN_DELAY_SECONDS: '0',
            ...env,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        const onData = (d: Buffer) => {
          out += d.toString();
          if (untilListening && out.includes('listening on port')) child.kill('SIGTERM');
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.on('exit', (code) => resolve({ code, out }));
      });
    const missing = await run({});
    expect(missing.code).toBe(1);
    expect(missing.out).toContain('BASE_URL');
    expect(missing.out).not.toMatch(/at .*\.(ts|js):\d+/);

    const dir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-prod-'));
    try {
      const keyFile = path.join(dir, 'signing-key.json');
      writeFileSync(keyFile, JSON.stringify(await generateSigningKey()));
      const port = await freePort();
      const ok = await run(
        {
          BASE_URL: `http://127.0.0.1:${port}`,
          PORT: String(port),
          COOKIE_SECRETS: 'c'.repeat(48),
          SIGNING_KEY_FILE: keyFile,
          DATA_DIR: path.join(dir, 'data'),
        },
        true,
      );
      expect(ok.out).toContain('listening on port');
      expect(ok.out).not.toContain('demo accounts');
      expect(ok.out).not.toContain('demo_seeded');
      // DESIGN D11: an empty production store says how to create the first site.
      expect(ok.out).toContain('npm run admin -- site create');
      expect(ok.code).toBe(0); // graceful shutdown on SIGTERM
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
  test('the buffered access log of `npm start` shows a request within a second when idle and loses no line at SIGTERM', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-log-'));
    let child: ReturnType<typeof spawn> | undefined;
    try {
      const keyFile = path.join(dir, 'signing-key.json');
      writeFileSync(keyFile, JSON.stringify(await generateSigningKey()));
      const port = await freePort();
      child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        env: {
          PATH: process.env.PATH!,
          HOME: process.env.HOME ?? '/tmp',
          NODE_ENV: 'production',
          LOG_LEVEL: 'info',
          SHUTDOWN_DELAY_SECONDS: '0',
          BASE_URL: `http://127.0.0.1:${port}`,
          PORT: String(port),
          COOKIE_SECRETS: 'c'.repeat(48),
          SIGNING_KEY_FILE: keyFile,
          DATA_DIR: path.join(dir, 'data'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((resolve) => child!.on('exit', resolve));
      const requestLines = () =>
        out.split('\n').filter((l) => l.startsWith('{') && (JSON.parse(l) as { msg?: string }).msg === 'request');
      for (let i = 0; i < 600 && !out.includes('listening on port'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(out).toContain('listening on port');
      // One request, then idle: the periodic flush writes its line although the buffer is far from full.
      await (
        await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { 'x-request-id': 'idle-probe-1' } })
      ).arrayBuffer();
      for (let i = 0; i < 20 && !out.includes('idle-probe-1'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(out).toContain('idle-probe-1');
      const before = requestLines().length;
      // A burst, then SIGTERM at once: every line still buffered reaches stdout before the exit.
      const burst = 200;
      await Promise.all(
        Array.from({ length: burst }, async (_, i) =>
          (
            await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { 'x-request-id': `burst-${i}` } })
          ).arrayBuffer(),
        ),
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const ids = new Set(
        requestLines()
          .slice(before)
          .map((l) => (JSON.parse(l) as { req_id: string }).req_id),
      );
      expect(ids.size).toBe(burst);
      for (let i = 0; i < burst; i++) expect(ids.has(`burst-${i}`)).toBe(true);
      // Issue #28: in production every stdout line is JSON (the start and shutdown lines too), and a
      // request line names the client address and the route.
      const lines = out.split('\n').filter(Boolean);
      expect(
        lines.filter((l) => {
          try {
            JSON.parse(l);
            return false;
          } catch {
            return true;
          }
        }),
      ).toEqual([]);
      expect(lines.map((l) => (JSON.parse(l) as { event?: string }).event)).toEqual(
        expect.arrayContaining(['started', 'shutdown']),
      );
      expect(JSON.parse(requestLines()[0]!)).toMatchObject({
        remote_addr: expect.stringMatching(/127\.0\.0\.1$/),
        route: 'healthz',
        status: 200,
      });
    } finally {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
