/**
 * The MCP Inspector's CLI mode as a real client (issue #12; research §4): `--cli <BASE_URL>/mcp
 * --transport http --header "Authorization: Bearer …"`, with a member token of `demo-member-cli`
 * (student@demo.test). It lists the tools the token unlocks and calls a member tool, and a
 * revoked token ends in the server's 401, not in a tool list.
 *
 * Package: `@modelcontextprotocol/inspector-cli` (the Inspector's CLI, SDK 1.x line). The
 * Inspector 2.x bundle needs Node ≥ 22.19 and a browser UI toolchain (vite, react); see
 * docs/mcp.md.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestServer } from '../helpers/server.js';
import { serverWithMemberToken } from '../helpers/member-token.js';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const INSPECTOR = path.join(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');

let server: TestServer;
let token: string;

beforeAll(async () => ({ server, token } = await serverWithMemberToken()));
afterAll(() => server.close());

/** Runs `inspector --cli <mcp> --transport http --header … <args>`; resolves stdout, or rejects with the exit. */
async function inspector(bearer: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [
      INSPECTOR,
      '--cli',
      `${server.baseUrl}/mcp`,
      '--transport',
      'http',
      '--header',
      `Authorization: Bearer ${bearer}`,
      ...args,
    ],
    // cwd: the CLI decides which package.json to import by testing `../package.json` against the
    // working directory but imports it relative to its own file; from test/ both resolve.
    { timeout: 30_000, cwd: path.join(ROOT, 'test'), env: { ...process.env, NO_COLOR: '1' } },
  );
  return stdout;
}

describe('MCP Inspector CLI with --header "Authorization: Bearer …"', () => {
  test('tools/list shows every tool (issue #26), each saying whom it is for', async () => {
    const out = JSON.parse(await inspector(token, '--method', 'tools/list')) as {
      tools: Array<{ name: string; description: string }>;
    };
    const names = out.tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'search_courses',
        'my_enrollments',
        'continue_watching',
        'my_orders',
        'record_progress',
        'list_courses',
      ]),
    );
    expect(out.tools.find((t) => t.name === 'list_courses')!.description).toMatch(
      /^For the site's owners and admins only/,
    );
  }, 40_000);

  test('tools/call my_enrollments answers with the member course slugs', async () => {
    const out = JSON.parse(await inspector(token, '--method', 'tools/call', '--tool-name', 'my_enrollments')) as {
      isError?: boolean;
      structuredContent: { enrollments: Array<{ slug: string }> };
    };
    expect(out.isError).toBeFalsy();
    expect(out.structuredContent.enrollments.map((e) => e.slug)).toEqual([
      'typescript-fundamentals',
      'oauth-in-practice',
      'sql-basics',
    ]);
  }, 40_000);

  test('a revoked token: the CLI fails with the server 401, no tool list', async () => {
    await fetch(`${server.baseUrl}/api/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: 'demo-member-cli' }),
    });
    const failed = await inspector(token, '--method', 'tools/list').then(
      () => undefined,
      (err: { code?: number; stdout?: string; stderr?: string }) => err,
    );
    expect(failed).toBeDefined();
    expect(failed!.code).not.toBe(0);
    expect(`${failed!.stdout}${failed!.stderr}`).toContain('"error":"invalid_token"');
  }, 40_000);
});
