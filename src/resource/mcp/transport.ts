/**
 * Hands one request to the MCP SDK v2's HTTP entry, `createMcpHandler` of
 * `@modelcontextprotocol/server` (stateless, DESIGN §1: any process can answer any request, and
 * the answer is one JSON body, or 202 for notifications). One endpoint serves every revision:
 *
 * - 2026-07-28 ("modern": every request carries its `_meta` envelope, `server/discover` instead of
 *   `initialize`): the SDK's per-request path answers, with its validation ladder (header/body
 *   mismatches `-32020`, an unknown revision `-32022` naming the supported ones, a malformed
 *   envelope `-32602`, removed or unknown methods HTTP 404 `-32601`, errors carrying the request
 *   id), `resultType`, and `ttlMs`/`cacheScope` on `tools/list` and `server/discover`;
 * - 2025-11-25 back to 2024-10-07 ("legacy": `initialize`, no envelope, as `isLegacyRequest`
 *   classifies it, the SDK's own routing step): a Streamable HTTP transport of the SDK per request
 *   in stateless JSON mode (`sessionIdGenerator: undefined`, `enableJsonResponse: true`), so its
 *   checks and answers (406, 415, 400 for a bad protocol version or JSON-RPC shape, 202, batches,
 *   `initialize`) are the SDK's. This is the SDK's stateless fallback (`legacy: 'stateless'`) with
 *   one difference: that fallback answers with an SSE stream, and every 2025 answer of this
 *   endpoint has been one JSON body, which every 2025 client reads.
 *
 * A plain 2025-era request (one JSON-RPC request that is not `initialize`, with the headers the
 * SDK transport would accept unchanged, see `plainRequest`) skips the per-request transport: it is
 * handed to a pooled server that stays connected to an in-process `DirectTransport`, one request
 * at a time. Building a transport, its Fetch `Response` and the connect/close of the server cost
 * twice the tool call itself; what the request reaches is the same SDK request handling (schema
 * checks of the call, its arguments and its structured result, errors as JSON-RPC errors).
 *
 * Both eras are served by the same servers (server.ts), so tools, `_meta`, results and audit lines
 * cannot differ between them. Every answer is one JSON body: the SDK's `responseMode: 'auto'`
 * (its default) streams only when a handler sends a message before its result, and these tools
 * send none (no progress, no logging; `'json'` would say the same and warn at every start). The body was read and
 * parsed by body.ts under the route's limit; the SDK gets the parsed value and reads nothing again.
 */
import type { Context } from 'koa';
import {
  createMcpHandler,
  isJSONRPCRequest,
  isLegacyRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type McpHttpHandler,
  type MessageExtraInfo,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { JsonRpcBody } from './body.js';
import type { CallScope, McpServerPool } from './server.js';

/** Request headers the SDK never needs (hop-by-hop, and credentials of other schemes). */
const SKIPPED_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'cookie',
]);

function webHeaders(ctx: Context): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value === undefined || SKIPPED_HEADERS.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/**
 * The SDK handler of `/mcp` over `servers`: each request takes a pooled server and gives it back
 * once answered.
 */
export function mcpHandler(servers: McpServerPool, logger: Logger): McpHttpHandler {
  return createMcpHandler(({ era }) => servers.take(era), {
    // 2025-era requests never reach it: `serveWithSdk` routes them to `serveLegacy`.
    legacy: 'reject',
    responseMode: 'auto',
    // Requests the SDK refuses are the client's to fix; record them at debug level only.
    onerror: (err) => logger.debug({ err: { type: err.name, message: err.message } }, 'mcp request refused by the SDK'),
  });
}

/**
 * Serves the request with the SDK handler and writes its response to `ctx`.
 * @param scope the caller and request id every tool call of this request reads
 */
export async function serveWithSdk(
  ctx: Context,
  handler: McpHttpHandler,
  servers: McpServerPool,
  scope: CallScope,
  body: JsonRpcBody,
  baseUrl: string,
): Promise<void> {
  const plain = plainRequest(ctx, body);
  if (plain) {
    const response = await servers.run(scope, () => servers.direct((transport) => transport.dispatch(plain)));
    ctx.status = 200;
    ctx.set('Content-Type', 'application/json');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = JSON.stringify(response);
    return;
  }
  const request = new Request(new URL(ctx.path, baseUrl), {
    method: 'POST',
    headers: webHeaders(ctx),
    body: body.raw,
  });
  const legacy = await isLegacyRequest(request, body.parsed);
  const response = await servers.run(scope, () =>
    legacy ? serveLegacy(servers, request, body.parsed) : handler.fetch(request, { parsedBody: body.parsed }),
  );
  const text = await response.text();
  ctx.status = response.status;
  response.headers.forEach((value, name) => {
    ctx.set(name, value);
  });
  ctx.set('Cache-Control', 'no-store');
  ctx.body = text;
  // 202 for notifications has no body; Koa would type an empty string as text/plain.
  if (text.length === 0) ctx.remove('Content-Type');
}

/** Answers a 2025-era request with a pooled server on a stateless JSON-mode transport of its own. */
async function serveLegacy(servers: McpServerPool, request: Request, parsedBody: unknown): Promise<Response> {
  const server = servers.take('legacy');
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await transport.close();
    await server.close();
  }
}

/** The request `Content-Type` the SDK transport takes as JSON without parsing parameters. */
const JSON_TYPE = 'application/json';

/**
 * The JSON-RPC request of a plain 2025-era request, or undefined when the request must go through
 * the SDK's HTTP handling: one JSON-RPC request (not `initialize`, not a batch, not a
 * notification) without the 2026-07-28 `_meta` envelope, `Content-Type: application/json`, an
 * `Accept` naming both `application/json` and `text/event-stream`, and no `Mcp-Protocol-Version`
 * or a 2025-era one the SDK supports: what the SDK's transport would pass through unchanged.
 */
export function plainRequest(ctx: Context, body: JsonRpcBody): JSONRPCRequest | undefined {
  const parsed = body.parsed;
  if (!isJSONRPCRequest(parsed) || parsed.method === 'initialize') return undefined;
  const meta = (parsed.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  if (meta !== undefined && PROTOCOL_VERSION_META_KEY in meta) return undefined;
  if (ctx.get('content-type') !== JSON_TYPE) return undefined;
  const accept = ctx.get('accept');
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  const version = ctx.get('mcp-protocol-version');
  if (version !== '' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  return parsed;
}

/**
 * An SDK `Transport` that stays connected to one server and carries one request at a time: the
 * request goes to the server's `onmessage`, its JSON-RPC response comes back through `send`.
 * Other messages a server sends while answering (notifications) are dropped, as the SDK
 * transport's JSON mode drops them.
 */
export class DirectTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private waiting?: { id: JSONRPCRequest['id']; resolve: (response: JSONRPCMessage) => void };

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    const response = message as { id?: unknown; result?: unknown; error?: unknown };
    if (
      !this.waiting ||
      response.id !== this.waiting.id ||
      (response.result === undefined && response.error === undefined)
    )
      return;
    const { resolve } = this.waiting;
    this.waiting = undefined;
    resolve(message);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  /**
   * The server's JSON-RPC response to `request`.
   * @throws Error when a request is already in flight on this transport
   */
  dispatch(request: JSONRPCRequest): Promise<JSONRPCMessage> {
    if (this.waiting) throw new Error('mcp: one request at a time on a direct transport');
    return new Promise((resolve) => {
      this.waiting = { id: request.id, resolve };
      this.onmessage?.(request, {});
    });
  }
}
