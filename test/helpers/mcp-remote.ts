/**
 * Runs `mcp-remote` (the stdio ↔ Streamable HTTP proxy Claude Desktop and others launch) as a
 * child process behind the MCP SDK's stdio client, headlessly (research §4): `BROWSER=true` keeps
 * it from opening a browser; its stderr is read for "Please authorize this client by visiting:"
 * and the URL is completed with the headless user agent, which then calls mcp-remote's own
 * callback listener.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { completeAuthorization, type UserAgentOptions } from './user-agent.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const PROXY = path.join(ROOT, 'node_modules/mcp-remote/dist/proxy.js');

export interface McpRemoteSession {
  client: Client;
  /** Everything mcp-remote wrote to stderr (its log). */
  log(): string;
  /** Authorization URLs mcp-remote asked the "browser" to open. */
  authorizationUrls: URL[];
  close(): Promise<void>;
}

/** GETs the callback URL, retrying while mcp-remote's listener is still starting. */
async function deliver(callback: URL): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await (await fetch(callback)).text();
      return;
    } catch (err) {
      if (attempt >= 50) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Starts mcp-remote for `mcpUrl` and connects an SDK client to it over stdio.
 * @param extraArgs e.g. `['--static-oauth-client-info', '{"client_id":"demo-member-cli"}']`
 */
export async function startMcpRemote(
  mcpUrl: string,
  callbackPort: number,
  login: UserAgentOptions,
  extraArgs: string[] = [],
): Promise<McpRemoteSession> {
  const configDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-remote-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      PROXY,
      mcpUrl,
      String(callbackPort),
      '--host',
      '127.0.0.1',
      '--callback-path',
      '/callback',
      '--transport',
      'http-only',
      ...extraArgs,
    ],
    env: {
      ...(process.env as Record<string, string>),
      MCP_REMOTE_CONFIG_DIR: configDir,
      BROWSER: 'true',
      NO_COLOR: '1',
    },
    stderr: 'pipe',
  });
  let log = '';
  const authorizationUrls: URL[] = [];
  const handled = new Set<string>();
  transport.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
    for (const m of log.matchAll(/Please authorize this client by visiting:\s*\n(\S+)/g)) {
      const href = m[1]!;
      if (handled.has(href)) continue;
      handled.add(href);
      authorizationUrls.push(new URL(href));
      const isRedirectUri = (u: URL) =>
        u.hostname === '127.0.0.1' && u.port === String(callbackPort) && u.pathname === '/callback';
      completeAuthorization(href, { ...login, isRedirectUri })
        .then(({ callback }) => deliver(callback))
        .catch((err: unknown) => {
          log += `\n[driver] authorization failed: ${String(err)}\n`;
        });
    }
  });
  const client = new Client({ name: 'coursegate-mcp-remote-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    log: () => log,
    authorizationUrls,
    async close() {
      await client.close();
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}
