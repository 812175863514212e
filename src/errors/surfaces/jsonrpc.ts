/**
 * The JSON-RPC surface (`/mcp`, JSON-RPC 2.0 §5.1, the way the MCP SDK answers its own transport
 * errors):
 * - transport refusals (origin, method, body, store outage, a fault): an HTTP status and a
 *   JSON-RPC error object with `id: null` (the request could not be read);
 * - bearer refusals (401/403 with `WWW-Authenticate`, built by `challenge()`): the RFC 6749 §5.2
 *   body of SPEC §7, as MCP clients act on the header (MCP authorization spec);
 * - a tool's domain refusal: a tool result with `isError` (`toolError`), in a 200.
 */
import type { Context } from 'koa';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { HttpError } from '../catalogue.js';
import { PlatformError } from '../../platform/errors.js';
import { shownDescription } from '../shown.js';
import { renderOAuth } from './oauth.js';

/** JSON-RPC 2.0 error codes (§5.1) used at the transport level. */
export const RPC = { parseError: -32700, invalidRequest: -32600, internalError: -32603, server: -32000 } as const;

const CODE_OF_STATUS: Record<number, string> = {
  400: 'invalid_request',
  403: 'access_denied',
  405: 'method_not_allowed',
  413: 'invalid_request',
  415: 'invalid_request',
  503: 'temporarily_unavailable',
};

/** A transport error of `/mcp` answered with `status` and the JSON-RPC error `code`. */
export class JsonRpcHttpError extends HttpError {
  override name = 'JsonRpcHttpError';
  constructor(
    status: number,
    readonly code: number,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(status, CODE_OF_STATUS[status] ?? 'invalid_request', message, headers);
  }
}

/** Writes a JSON-RPC error response. */
export function sendJsonRpcError(
  ctx: Context,
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id };
}

/** Renders a catalogue error on `/mcp` (see the module comment). */
export function renderJsonRpc(ctx: Context, err: HttpError): void {
  if (err.headers['WWW-Authenticate']) {
    renderOAuth(ctx, err);
    return;
  }
  for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
  const code =
    err instanceof JsonRpcHttpError
      ? err.code
      : err.status >= 500 && err.status !== 503
        ? RPC.internalError
        : err.status === 503
          ? RPC.server
          : RPC.invalidRequest;
  sendJsonRpcError(ctx, err.status, code, shownDescription(ctx, err));
}

/**
 * A tool's domain refusal as an MCP tool error (`isError`, text `<code>: <message>`), or undefined
 * for anything else (a fault: the caller logs it and answers a generic text).
 */
export function toolError(err: unknown): { code: string; result: CallToolResult } | undefined {
  if (!(err instanceof PlatformError)) return undefined;
  return {
    code: err.code,
    result: { isError: true, content: [{ type: 'text', text: `${err.code}: ${err.message}` }] },
  };
}
