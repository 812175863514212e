/**
 * Hands one parsed request to the MCP SDK's Streamable HTTP transport in stateless JSON mode
 * (`sessionIdGenerator: undefined`, `enableJsonResponse: true`): any process can answer any
 * request, and the answer is one JSON body (or 202 for notifications). The Web-standard transport
 * is used so the response comes back as a value Koa sends, through the usual logging and headers.
 */
import type { Context } from 'koa';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JsonRpcBody } from './body.js';

const SKIPPED_HEADERS = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'cookie']);

function webHeaders(ctx: Context): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value === undefined || SKIPPED_HEADERS.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/** Serves the request with `server` and writes the SDK's response to `ctx`. */
export async function serveWithSdk(ctx: Context, server: McpServer, body: JsonRpcBody, baseUrl: string): Promise<void> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const request = new Request(new URL(ctx.path, baseUrl), { method: 'POST', headers: webHeaders(ctx), body: body.raw });
    const response = await transport.handleRequest(request, { parsedBody: body.parsed });
    const text = await response.text();
    ctx.status = response.status;
    response.headers.forEach((value, name) => ctx.set(name, value));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = text;
    // 202 for notifications has no body; Koa would type an empty string as text/plain.
    if (text.length === 0) ctx.remove('Content-Type');
  } finally {
    await transport.close();
    await server.close();
  }
}
