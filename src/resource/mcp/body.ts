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

/** Reads the request stream up to `limit` bytes. @throws JsonRpcHttpError 413 beyond it */
async function readLimited(ctx: Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || NaN);
  if (declared > limit) throw new JsonRpcHttpError(413, -32600, `request body too large (limit ${limit / 1024} KiB)`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) {
      ctx.req.destroy();
      throw new JsonRpcHttpError(413, -32600, `request body too large (limit ${limit / 1024} KiB)`);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
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
