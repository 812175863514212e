/**
 * examples/ run as a client developer runs them (docs/client-developer-guide.md "Runnable
 * examples"), each as its own process against a started server: the CLI login (openid-client,
 * PKCE, loopback redirect, token cache, refresh), the member GraphQL query, the MCP SDK client
 * calling a member tool, and the operator script on the admin API. The browser step of the login
 * is the test's user agent (login, site picker, consent as forms).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { completeAuthorization } from '../helpers/user-agent.js';
import { freePort } from '../helpers/ports.js';

let server: TestServer;
const dir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-examples-'));

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npx tsx examples/<file>` (as node --import tsx); when it prints an authorization URL,
 * signs in as `login.email` like a browser would and follows the redirect to its loopback server.
 */
function example(
  file: string,
  args: string[],
  env: Record<string, string>,
  login?: { email: string; site?: string },
): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', `examples/${file}`, ...args], {
    env: { ...process.env, COURSEGATE_URL: server.baseUrl, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let signingIn: Promise<unknown> = Promise.resolve();
  let started = false;
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    const url = /^(http\S+\/oauth\/authorize\?\S+)\n/m.exec(stderr)?.[1];
    if (url && login && !started) {
      started = true;
      // As a browser does (issue #30 item 3): the redirect, the favicon and a reload, at once.
      signingIn = completeAuthorization(url, { email: login.email, password: DEMO_PASSWORD, site: login.site }).then(
        ({ callback }) =>
          Promise.all([
            fetch(callback),
            fetch(new URL('/favicon.ico', callback)).catch(() => undefined),
            fetch(callback).catch(() => undefined),
          ]),
      );
    }
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', async (status) => {
      await signingIn;
      resolve({ status, stdout, stderr });
    });
  });
}

describe('examples/ against a running server', () => {
  const cache = path.join(dir, 'member.json');
  let token: string;

  test('cli-login.ts: PKCE login through the loopback redirect, token cached (0600), reused, refreshed', async () => {
    const first = await example('cli-login.ts', [], { COURSEGATE_TOKEN_CACHE: cache }, { email: 'student@demo.test' });
    expect(first.stderr).toContain('Open this URL in your browser');
    expect(first.status).toBe(0);
    token = first.stdout.trim();
    expect(token.length).toBeGreaterThan(20);
    expect(statSync(cache).mode & 0o777).toBe(0o600);

    const again = await example('cli-login.ts', [], { COURSEGATE_TOKEN_CACHE: cache });
    expect(again.stderr).toContain('using the cached access token');
    expect(again.stdout.trim()).toBe(token);

    const refreshed = await example('cli-login.ts', ['--refresh'], { COURSEGATE_TOKEN_CACHE: cache });
    expect(refreshed.stderr).toContain('refreshing the access token');
    expect(refreshed.status).toBe(0);
    expect(refreshed.stdout.trim()).not.toBe(token);
    token = refreshed.stdout.trim();
    expect(JSON.parse(readFileSync(cache, 'utf8')).access_token).toBe(token);
  }, 60_000);

  test('cli-login.ts --port: the redirect URI uses the chosen loopback port; a bad port is refused', async () => {
    const wanted = await freePort();
    const run = await example(
      'cli-login.ts',
      ['--port', String(wanted)],
      { COURSEGATE_TOKEN_CACHE: path.join(dir, 'fixed-port.json') },
      { email: 'student@demo.test' },
    );
    expect(run.status).toBe(0);
    const url = new URL(/^(http\S+\/oauth\/authorize\?\S+)$/m.exec(run.stderr)?.[1] ?? 'http://x/');
    expect(url.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${wanted}/callback`);
    expect(run.stdout.trim().length).toBeGreaterThan(20);

    const bad = await example('cli-login.ts', ['--port', 'eighty'], {
      COURSEGATE_TOKEN_CACHE: path.join(dir, 'bad.json'),
    });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--port takes a TCP port');
  }, 60_000);

  test('member-graphql.ts: the viewer and their enrolled courses', async () => {
    const run = await example('member-graphql.ts', [], { ACCESS_TOKEN: token });
    expect(run.stderr).toBe('');
    const data = JSON.parse(run.stdout) as {
      viewer: { email: string; enrolledCourses: { nodes: Array<{ slug: string }> } };
    };
    expect(data.viewer.email).toBe('student@demo.test');
    expect(data.viewer.enrolledCourses.nodes.length).toBeGreaterThan(0);
  }, 30_000);

  test('mcp-member-tool.ts: the MCP SDK client calls my_enrollments, which names the course slugs', async () => {
    const run = await example('mcp-member-tool.ts', [], { ACCESS_TOKEN: token });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('my_enrollments');
    const slugs = (
      (await (
        await fetch(`${server.baseUrl}/account/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ viewer { enrolledCourses { nodes { slug } } } }' }),
        })
      ).json()) as { data: { viewer: { enrolledCourses: { nodes: Array<{ slug: string }> } } } }
    ).data.viewer.enrolledCourses.nodes.map((n) => n.slug);
    for (const slug of slugs) expect(run.stdout).toContain(slug);
  }, 30_000);

  test('operator-site.ts: a registered CLI signs the owner in with school:read; the script reads the site', async () => {
    const login = await example(
      'cli-login.ts',
      ['--register', '--scope', 'openid school:read'],
      { COURSEGATE_TOKEN_CACHE: path.join(dir, 'operator.json') },
      { email: 'owner@demo.test', site: 'demo' },
    );
    expect(login.stderr).toContain('registered client');
    expect(login.status).toBe(0);
    const run = await example('operator-site.ts', [], { ACCESS_TOKEN: login.stdout.trim() });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('site demo: Demo Academy');
    // The API's field names (clientName), not guesses: issue #30 item 3 printed empty names.
    expect(run.stdout).toContain('application demo-member-cli: Demo member CLI');
  }, 60_000);
});

test('every command of the guide\'s "Runnable examples" is copied from an example\'s header', () => {
  const guide = readFileSync('docs/client-developer-guide.md', 'utf8');
  const section = guide.slice(guide.indexOf('## Runnable examples'));
  const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) =>
    m[1]!
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );
  expect(commands.length).toBeGreaterThanOrEqual(5);
  const sources = readdirSync('examples')
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(path.join('examples', f), 'utf8'));
  for (const command of commands)
    expect([command, sources.some((s) => s.includes(` *   ${command}\n`))]).toEqual([command, true]);
});
