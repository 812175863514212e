/**
 * Hands one parsed request to the MCP SDK (stateless, DESIGN §1: any process can answer any
 * request, and the answer is one JSON body, or 202 for notifications). Two ways, one behaviour:
 *
 * - `serveWithSdk`: the SDK's Web-standard Streamable HTTP transport in stateless JSON mode
 *   (`sessionIdGenerator: undefined`, `enableJsonResponse: true`), a new transport per request:
 *   every request that is not plain (below) goes this way, so the transport's own checks and
 *   answers (406, 415, 400 for a bad protocol version or JSON-RPC shape, 202, batches,
 *   `initialize`) are the SDK's.
 * - `DirectTransport` (issue #15): a plain request is handed to a pooled server that stays
 *   connected to an in-process SDK `Transport`, one request at a time. The transport per request,
 *   its Fetch `Request`/`Response`, and the connect/close of the server (whose close builds an
 *   `McpError` with a stack trace) cost more than the tool call itself. What the request reaches
 *   is the same: the SDK's `Protocol`/`McpServer` request handling (schema checks of the call,
 *   its arguments and its structured result, errors as JSON-RPC errors). A request is plain when
 *   the SDK transport would pass it through unchanged: one JSON-RPC request (not `initialize`,
 *   not a batch) that the SDK's `JSONRPCMessageSchema` accepts, `Content-Type: application/json`,
 *   an `Accept` naming both `application/json` and `text/event-stream`, and no
 *   `Mcp-Protocol-Version` or a supported one. Its answer is the SDK's JSON mode answer: 200,
 *   `Content-Type: application/json`, the JSON-RPC response.
 */
import type { Context } from 'koa';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonRpcBody } from './body.js';

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

/** Serves the request with `server` and writes the SDK's response to `ctx`. */
export async function serveWithSdk(ctx: Context, server: McpServer, body: JsonRpcBody, baseUrl: string): Promise<void> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const request = new Request(new URL(ctx.path, baseUrl), {
      method: 'POST',
      headers: webHeaders(ctx),
      body: body.raw,
    });
    const response = await transport.handleRequest(request, { parsedBody: body.parsed });
    const text = await response.text();
    ctx.status = response.status;
    response.headers.forEach((value, name) => {
      ctx.set(name, value);
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = text;
    // 202 for notifications has no body; Koa would type an empty string as text/plain.
    if (text.length === 0) ctx.remove('Content-Type');
  } finally {
    await transport.close();
    await server.close();
  }
}

/** The request `Content-Type` values the SDK transport takes as JSON without parsing parameters. */
const JSON_TYPE = 'application/json';

/**
 * The JSON-RPC request of a plain request (see the file comment), as the SDK's schema parses it,
 * or undefined when the request must go through the SDK transport.
 */
export function plainRequest(ctx: Context, body: JsonRpcBody): JSONRPCRequest | undefined {
  const parsed = body.parsed as { method?: unknown; id?: unknown } | null;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  if (typeof parsed.method !== 'string' || parsed.method === 'initialize' || parsed.id === undefined) return undefined;
  if (ctx.get('content-type') !== JSON_TYPE) return undefined;
  const accept = ctx.get('accept');
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  const version = ctx.get('mcp-protocol-version');
  if (version !== '' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  const message = JSONRPCMessageSchema.safeParse(parsed);
  if (!message.success || !('id' in message.data) || !('method' in message.data)) return undefined;
  return message.data as JSONRPCRequest;
}

/** What the SDK transport hands a request handler as `extra.requestInfo`. */
function requestInfo(ctx: Context, baseUrl: string): MessageExtraInfo['requestInfo'] {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value === undefined || SKIPPED_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { headers, url: new URL(ctx.path, baseUrl) };
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
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private waiting?: { id: JSONRPCRequest['id']; resolve: (response: JSONRPCMessage) => void };

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    // The server's own messages: a response has an id and a result or an error (the SDK's zod
    // guards would parse the whole result again, and build a failure for every non-error).
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
  dispatch(request: JSONRPCRequest, extra: MessageExtraInfo): Promise<JSONRPCMessage> {
    if (this.waiting) throw new Error('mcp: one request at a time on a direct transport');
    return new Promise((resolve) => {
      this.waiting = { id: request.id, resolve };
      this.onmessage?.(request, extra);
    });
  }
}

/** Answers a plain request through a server connected to `transport`, as the SDK's JSON mode does. */
export async function serveDirect(
  ctx: Context,
  transport: DirectTransport,
  request: JSONRPCRequest,
  baseUrl: string,
): Promise<void> {
  const response = await transport.dispatch(request, { requestInfo: requestInfo(ctx, baseUrl) });
  ctx.status = 200;
  ctx.set('Content-Type', 'application/json');
  ctx.set('Cache-Control', 'no-store');
  ctx.body = JSON.stringify(response);
}
