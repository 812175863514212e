/**
 * Reads and parses the JSON-RPC body of a `/mcp` POST (MCP 2025-11-25 Streamable HTTP) through the
 * one body reader (src/http/body.ts) under the `/mcp` row's limit. Limits and shapes are checked
 * here, before authentication and before the SDK sees anything, and answered in JSON-RPC's shape:
 * - `Content-Type` must be `application/json` → 415;
 * - over the route's limit (DESIGN D7, 64 KiB) → 413;
 * - valid JSON → otherwise 400 with JSON-RPC `-32700 Parse error`;
 * - a JSON-RPC batch (an array: only protocol 2025-03-26 has them, 2025-06-18 removed them) of at
 *   most MAX_BATCH messages → otherwise 400 with `-32600 Invalid Request` (issue #25). The SDK's
 *   own cap is 100, and its batch entries run back to back without yielding: 100 tool calls held
 *   the event loop 200–400 ms on the demo data, anonymous `search_courses` calls included.
 */
import type { Context } from 'koa';
import { readText } from '../../http/body.js';
import { HttpError } from '../../http/errors.js';
import { JsonRpcHttpError } from './errors.js';

/** Most JSON-RPC messages in one batch (JSON-RPC 2.0 §6). */
export const MAX_BATCH = 10;

/** The raw text and the parsed value of the body. */
export interface JsonRpcBody {
  raw: string;
  parsed: unknown;
}

/** Reads, limits and parses the body. @throws JsonRpcHttpError 415, 413 or 400 (also for a batch over MAX_BATCH) */
export async function readJsonRpcBody(ctx: Context): Promise<JsonRpcBody> {
  if (!ctx.is('application/json')) throw new JsonRpcHttpError(415, -32600, 'Content-Type must be application/json');
  let raw: string;
  try {
    raw = await readText(ctx);
  } catch (err) {
    if (err instanceof HttpError && err.status === 413)
      throw new JsonRpcHttpError(413, -32600, err.description, err.headers);
    throw new JsonRpcHttpError(400, -32700, 'Parse error: the request body could not be read');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw) as unknown;
  } catch {
    throw new JsonRpcHttpError(400, -32700, 'Parse error: the body is not valid JSON');
  }
  if (Array.isArray(parsed) && parsed.length > MAX_BATCH) {
    throw new JsonRpcHttpError(
      400,
      -32600,
      `Invalid Request: a batch may hold at most ${MAX_BATCH} messages (this one has ${parsed.length})`,
    );
  }
  return { raw, parsed };
}

/** The first MCP revision without JSON-RPC batching (MCP 2025-06-18 changelog: "Remove support for JSON-RPC batching"). */
export const FIRST_REVISION_WITHOUT_BATCHES = '2025-06-18';

/**
 * The MCP revision a request speaks: its `MCP-Protocol-Version` header, else the `protocolVersion`
 * of an `initialize` it carries; undefined when it names none (the server then assumes 2025-03-26,
 * MCP 2025-06-18 transports, "Protocol Version Header").
 */
export function requestRevision(header: string, parsed: unknown): string | undefined {
  if (header) return header;
  for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
    const version =
      (m as { method?: unknown; params?: { protocolVersion?: unknown } } | null)?.method === 'initialize'
        ? (m as { params?: { protocolVersion?: unknown } }).params?.protocolVersion
        : undefined;
    if (typeof version === 'string') return version;
  }
  return undefined;
}

/**
 * Refuses a JSON-RPC batch (an array body) when the request's revision forbids batches (2025-06-18
 * and later, compared as ISO dates); earlier or unnamed revisions keep them (issue #26).
 * @throws JsonRpcHttpError 400 with JSON-RPC `-32600 Invalid Request`
 */
export function refuseForbiddenBatch(header: string, parsed: unknown): void {
  if (!Array.isArray(parsed)) return;
  const revision = requestRevision(header, parsed);
  if (revision !== undefined && revision >= FIRST_REVISION_WITHOUT_BATCHES) {
    throw new JsonRpcHttpError(
      400,
      -32600,
      `Invalid Request: JSON-RPC batches are not part of MCP ${revision.slice(0, 20)} (removed in ${FIRST_REVISION_WITHOUT_BATCHES}); send one message per request`,
    );
  }
}
