/**
 * MCP Inspector 2.12 `--cli` as a listed-only host (issue #26): starting without a token, it lists
 * the tools anonymously, the scripted model (test/helpers/listed-only-model.ts) picks the member's
 * enrollments tool from that listing, and the CLI's own OAuth (pre-registered `demo-member-cli`,
 * loopback `--callback-url`) signs in and steps up until the call succeeds, as student@demo.test.
 *
 * Driven headlessly: `MCP_AUTO_OPEN_ENABLED=true` lets the CLI start OAuth without a TTY (it prints
 * "Please navigate to: <url>", which the headless user agent completes and delivers to the CLI's
 * callback listener); `MCP_INSPECTOR_SECRET_STORE=file` under a temporary HOME keeps its tokens
 * from one invocation to the next. What the CLI cannot do in one invocation: on a 401 it signs in
 * with the protected resource's `scopes_supported` (identity scopes), not the challenge's scope;
 * the retried call then gets 403 `insufficient_scope` and the run ends with "Interactive auth
 * recovery required". The next invocation asks "Proceed with step-up authorization? [y/N]" on
 * stdin (answered "y" here) and re-authorizes with the token's scopes plus the challenge's.
 * Inspector 2.x needs Node >= 22.19 (the tests run on Node 24).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { completeAuthorization } from '../helpers/user-agent.js';
import { pickByDescription, type ListedTool } from '../helpers/listed-only-model.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const INSPECTOR = path.join(ROOT, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');

let server: TestServer;
let home: string;
let callbackPort: number;
/** Every authorization URL the CLI asked the "browser" to open, over all invocations. */
const authorizationUrls: URL[] = [];

beforeAll(async () => {
  server = await startTestServer();
  home = mkdtempSync(path.join(os.tmpdir(), 'inspector2-'));
  callbackPort = await freePort();
});
afterAll(async () => {
  rmSync(home, { recursive: true, force: true });
  await server?.close();
});

/**
 * One `inspector --cli <BASE_URL>/mcp … --format json` invocation as student@demo.test: completes
 * every authorization URL the CLI prints and answers "y" to its step-up prompt.
 * @returns the exit code, the parsed JSON line of stdout (the result) and stdout + stderr (the
 *   error envelope of a failed run is on stderr)
 */
function inspector(...args: string[]): Promise<{ code: number | null; json: Record<string, unknown>; log: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        INSPECTOR,
        '--cli',
        `${server.baseUrl}/mcp`,
        ...args,
        '--client-id',
        'demo-member-cli',
        '--callback-url',
        `http://127.0.0.1:${callbackPort}/callback`,
        '--format',
        'json',
      ],
      {
        env: {
          ...process.env,
          HOME: home,
          NO_COLOR: '1',
          BROWSER: 'true',
          MCP_AUTO_OPEN_ENABLED: 'true',
          MCP_INSPECTOR_SECRET_STORE: 'file',
        },
      },
    );
    let stdout = '';
    let log = '';
    const handled = new Set<string>();
    const onOutput = (chunk: Buffer) => {
      const text = chunk.toString();
      log += text;
      if (text.includes('[y/N]')) child.stdin.write('y\n');
      for (const m of log.matchAll(/Please navigate to: (\S+)/g)) {
        const href = m[1]!;
        if (handled.has(href)) continue;
        handled.add(href);
        authorizationUrls.push(new URL(href));
        completeAuthorization(href, {
          email: 'student@demo.test',
          password: DEMO_PASSWORD,
          isRedirectUri: (u) => u.hostname === '127.0.0.1' && u.port === String(callbackPort),
        })
          .then(({ callback }) => fetch(callback))
          .catch((err: unknown) => {
            log += `\n[driver] authorization failed: ${String(err)}\n`;
          });
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      onOutput(chunk);
    });
    child.stderr.on('data', onOutput);
    child.on('error', reject);
    const timer = setTimeout(() => child.kill('SIGTERM'), 45_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith('{')) ?? '{}';
      resolve({ code, json: JSON.parse(line) as Record<string, unknown>, log });
    });
  });
}

describe('MCP Inspector 2.12 --cli, listed-only, starting without a token', () => {
  let picked: ListedTool;

  test('tools/list answers anonymously with every tool; the model picks the member enrollments tool', async () => {
    const { code, json } = await inspector('--method', 'tools/list');
    expect(code).toBe(0);
    const tools = (json.result as { tools: ListedTool[] }).tools;
    picked = pickByDescription(tools, 'members: which courses am I enrolled in, my enrollments and access expiry');
    expect(picked.name).toBe('my_enrollments');
    expect(picked.description).toMatch(/^For members of the site/);
    expect(authorizationUrls).toHaveLength(0);
  }, 60_000);

  test('tools/call of the picked tool: 401 → sign-in with scopes_supported, then 403 ends the first run', async () => {
    const { code, log } = await inspector('--method', 'tools/call', '--tool-name', picked.name);
    expect(code).not.toBe(0);
    expect(log).toContain('Interactive auth recovery required'); // the error envelope (stderr)
    expect(authorizationUrls).toHaveLength(1);
    expect(authorizationUrls[0]!.searchParams.get('client_id')).toBe('demo-member-cli');
    // scopes_supported of the protected-resource metadata: a sign-in every client kind may ask for.
    expect(authorizationUrls[0]!.searchParams.get('scope')).toBe('openid profile email');
  }, 60_000);

  test('the next run steps up (account:read from the 403 challenge) and the call answers with the member courses', async () => {
    const { code, json, log } = await inspector('--method', 'tools/call', '--tool-name', picked.name);
    if (code !== 0) console.log(log);
    expect(code).toBe(0);
    expect(log).toContain('needs additional scope: account:read');
    expect(authorizationUrls).toHaveLength(2);
    expect(authorizationUrls[1]!.searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['openid', 'account:read']),
    );
    const result = json.result as { isError?: boolean; structuredContent: { enrollments: Array<{ slug: string }> } };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.enrollments.map((e) => e.slug)).toEqual([
      'typescript-fundamentals',
      'oauth-in-practice',
      'sql-basics',
    ]);
  }, 60_000);
});
