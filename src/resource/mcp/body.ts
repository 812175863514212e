/**
 * Reads and parses the JSON-RPC body of a `/mcp` POST (MCP 2025-11-25 Streamable HTTP). Limits
 * and shapes are checked here, before authentication and before the SDK sees anything:
 * - `Content-Type` must be `application/json` → 415;
 * - at most 64 KiB (DESIGN D7) → 413;
 * - valid JSON → otherwise 400 with JSON-RPC `-32700 Parse error`.
 */
import type { Context } from 'koa';
import { JsonRpcHttpError } from './errors.js';

export const MAX_BODY_BYTES = 64 * 1024;

/** The raw text and the parsed value of the body. */
export interface JsonRpcBody {
  raw: string;
  parsed: unknown;
}

/**
 * Reads the request stream up to `limit` bytes. Past the limit the rest is drained unread (the
 * socket stays usable for the 413, then closes) instead of destroying the connection.
 * @throws JsonRpcHttpError 413 beyond the limit
 */
function readLimited(ctx: Context, limit: number): Promise<Buffer> {
  const tooLarge = () => new JsonRpcHttpError(413, -32600, `request body too large (limit ${limit / 1024} KiB)`, { Connection: 'close' });
  const declared = Number(ctx.get('content-length') || NaN);
  if (declared > limit) {
    ctx.req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      ctx.req.off('data', onData).off('end', onEnd);
      ctx.req.resume();
      reject(tooLarge());
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    ctx.req.on('data', onData).on('end', onEnd).once('error', reject);
  });
}

/** Reads, limits and parses the body. @throws JsonRpcHttpError 415, 413 or 400 */
export async function readJsonRpcBody(ctx: Context): Promise<JsonRpcBody> {
  if (!ctx.is('application/json')) throw new JsonRpcHttpError(415, -32600, 'Content-Type must be application/json');
  const raw = (await readLimited(ctx, MAX_BODY_BYTES)).toString('utf8');
  try {
    return { raw, parsed: JSON.parse(raw) as unknown };
  } catch {
    throw new JsonRpcHttpError(400, -32700, 'Parse error: the body is not valid JSON');
  }
}
