/**
 * Transport-level errors of `/mcp` answered as JSON-RPC error objects (JSON-RPC 2.0 §5.1) with an
 * HTTP status, the way the MCP SDK answers its own transport errors. Authorization failures are
 * not these: they are `HttpError`s with a `WWW-Authenticate` challenge (bearer.ts).
 */
import type { Context } from 'koa';

/** A JSON-RPC error to send with `status`; `id` is null (the request could not be read). */
export class JsonRpcHttpError extends Error {
  override name = 'JsonRpcHttpError';
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Writes a JSON-RPC error response. */
export function sendJsonRpcError(ctx: Context, status: number, code: number, message: string, id: string | number | null = null): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id };
}
