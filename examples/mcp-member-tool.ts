/**
 * An MCP client (the MCP TypeScript SDK, Streamable HTTP) calling a member tool of coursegate's
 * `/mcp` endpoint (docs/mcp.md) with a member access token.
 *
 *   ACCESS_TOKEN=$(npx tsx examples/cli-login.ts) npx tsx examples/mcp-member-tool.ts
 *
 * Settings: COURSEGATE_URL (http://localhost:3000), ACCESS_TOKEN, MCP_TOOL (my_enrollments).
 * (An MCP host would run the OAuth flow itself from the 401's resource_metadata; see docs/mcp.md.)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const base = process.env.COURSEGATE_URL ?? 'http://localhost:3000';
const token = process.env.ACCESS_TOKEN;
if (!token) throw new Error('set ACCESS_TOKEN (npx tsx examples/cli-login.ts prints one)');
const tool = process.env.MCP_TOOL ?? 'my_enrollments';

const transport = new StreamableHTTPClientTransport(new URL('/mcp', base), {
  requestInit: { headers: { authorization: `Bearer ${token}` } },
});
const mcp = new Client({ name: 'coursegate-example', version: '1.0.0' });
await mcp.connect(transport);
const { tools } = await mcp.listTools();
// Every tool is listed to every caller (docs/mcp.md); a call without its scope gets the 403 challenge.
process.stderr.write(`tools listed: ${tools.map((t) => t.name).join(', ')}\n`);
const result = await mcp.callTool({ name: tool, arguments: {} });
for (const part of result.content as Array<{ type: string; text?: string }>)
  if (part.type === 'text') process.stdout.write(`${part.text}\n`);
await mcp.close();
if (result.isError) process.exitCode = 1;
