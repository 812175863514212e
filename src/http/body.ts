/**
 * The one request-body reader (DESIGN D7, issue #9): text, JSON and form bodies are read under the
 * limit of the request's route-table row (`ctx.state.route.spec.body.limit`, src/http/route-table.ts),
 * once per request, with one error for each failure:
 * - larger than the limit (declared `Content-Length` or counted while reading a chunked body):
 *   `413 invalid_request`, `Connection: close`;
 * - unreadable (aborted, length mismatch) or not parseable as the declared type: `400 invalid_request`.
 * The errors are the catalogue's `InvalidRequest` (src/errors/catalogue.ts); each surface renders
 * them in its own shape (OAuth JSON, problem+json, GraphQL, HTML page); `/mcp` turns them into its
 * JSON-RPC shape (src/resource/mcp/body.ts). Multipart uploads stream through busboy instead
 * (src/resource/admin-api/upload.ts), held to the limit of their own row.
 *
 * The text read is left on `req.body`, where oidc-provider and GraphQL Yoga pick it up, so a later
 * reader (the rate-limit key, then the provider) never reads the stream twice.
 */
import type { Context, Middleware } from 'koa';
import getRawBody from 'raw-body';
import { parse as parseJsonText } from '@hapi/bourne';
import { InvalidRequest, type HttpError } from '../errors/catalogue.js';
import { MAX_BODY_BYTES } from './route-table.js';

declare module 'koa' {
  interface Request {
    /** The parsed body (`parseForm`, `parseJson`, or a handler that sets it for oidc-provider). */
    body?: unknown;
  }
}

/** Form fields: a repeated name gives an array, in the order sent. */
export type FormFields = Record<string, string | string[]>;

/** The route's body limit in bytes (MAX_BODY_BYTES for a request no row serves). */
export const bodyLimitOf = (ctx: Context): number => ctx.state.route?.spec.body?.limit ?? MAX_BODY_BYTES;

/** The 413 of a body over `limit` bytes (DESIGN D7). */
export const bodyTooLarge = (limit: number): HttpError =>
  new InvalidRequest(`request body too large (limit ${Math.round(limit / 1024)} KiB)`, {
    status: 413,
    headers: { Connection: 'close' },
  });

/** A 400 for a body that cannot be read or parsed. */
const malformed = (description: string): HttpError => new InvalidRequest(description);

/**
 * The body as UTF-8 text, at most the route's limit; read once (a second call returns the same
 * text). Past the limit the rest of the request is drained unread, so the client can read the 413
 * before the connection closes.
 * @throws InvalidRequest 413 when the body is larger than the limit, 400 when it cannot be read
 */
export async function readText(ctx: Context): Promise<string> {
  const req = ctx.req as unknown as { body?: unknown };
  if (typeof req.body === 'string') return req.body;
  const limit = bodyLimitOf(ctx);
  if (Number(ctx.get('content-length') || 0) > limit) {
    ctx.req.resume();
    throw bodyTooLarge(limit);
  }
  // raw-body (the reader of Koa's and Express's body parsers) rather than `for await` over the
  // request: the async-iterator path costs ~50 µs per request, a third of a token request's budget.
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit, encoding: 'utf8' });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') {
      ctx.req.resume();
      throw bodyTooLarge(limit);
    }
    throw malformed('the request body could not be read');
  }
  req.body = text;
  return text;
}

/** Most fields a form body may carry (`&`-separated pairs, empty ones included). */
export const MAX_FORM_FIELDS = 512;
/** Most values one form field name may carry (a list of checkboxes, a list of redirect URIs). */
export const MAX_FORM_REPEATS = 100;
/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 32;
/** Most object members (`"name": value` pairs, all levels together) a JSON body may have. */
export const MAX_JSON_MEMBERS = 4096;

/**
 * How deep a JSON text nests and how many object members it has, in one pass over its characters
 * (strings skipped, escapes honoured), stopping as soon as a bound is passed. Linear in the text,
 * so a body is measured before any parser builds anything from it.
 * @returns undefined when the text is within both bounds, else why not: the top-level member it
 *   happened in (when there is one) and which bound
 */
export function jsonOverBounds(text: string): string | undefined {
  let depth = 0;
  let members = 0;
  /** The name of the top-level member being read (the last string read at depth 1). */
  let topLevel: string | undefined;
  let lastString = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i + 1;
      for (i = start; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
      if (depth === 1) lastString = text.slice(start, Math.min(i, start + 64));
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > MAX_JSON_DEPTH) {
        const where = topLevel === undefined ? 'the body' : `\`${topLevel}\``;
        return `${where} nests deeper than ${MAX_JSON_DEPTH} levels`;
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    } else if (c === 0x3a /* : */) {
      if (depth === 1) topLevel = lastString;
      if (++members > MAX_JSON_MEMBERS) return `the body has more than ${MAX_JSON_MEMBERS} object members`;
    }
  }
  return undefined;
}

/**
 * The body parsed as JSON (RFC 8259), at most the route's limit, `MAX_JSON_DEPTH` levels deep and
 * `MAX_JSON_MEMBERS` object members: measured first in one linear pass (`jsonOverBounds`), so no
 * body costs more than a read of its bytes before it is refused. Keys that would poison an
 * object's prototype (`__proto__`, `constructor.prototype`) are refused.
 * @param options.empty what an empty body gives (default: undefined)
 * @throws InvalidRequest 413 over the limit, 400 when the text is not JSON or over a bound
 */
export async function readJson(ctx: Context, options: { empty?: unknown } = {}): Promise<unknown> {
  const text = await readText(ctx);
  if (text.trim() === '') return options.empty;
  const over = jsonOverBounds(text);
  if (over) throw malformed(`request body refused: ${over}`);
  try {
    return parseJsonText(text, { protoAction: 'error' }) as unknown;
  } catch {
    throw malformed('malformed request body: send a JSON object');
  }
}

/**
 * The body as `application/x-www-form-urlencoded` pairs (WHATWG URL "urlencoded parser", through
 * `URLSearchParams`), at most the route's limit and `MAX_FORM_FIELDS` fields: the fields are
 * counted (one scan for `&`) before the parser runs, so a body of thousands of empty fields costs
 * a scan, not a parse. For a reader that wants a field or two (the rate-limit key's `client_id`).
 * @throws InvalidRequest 413 over the limit, 400 when it cannot be read or has too many fields
 */
export async function readFormPairs(ctx: Context): Promise<URLSearchParams> {
  const text = await readText(ctx);
  let separators = 0;
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) {
    if (++separators >= MAX_FORM_FIELDS) throw malformed(`request body refused: more than ${MAX_FORM_FIELDS} fields`);
  }
  return new URLSearchParams(text);
}

/**
 * The body parsed as `application/x-www-form-urlencoded` (`readFormPairs`), at most
 * `MAX_FORM_REPEATS` values per name. Linear in the body: a repeated name appends to its list in
 * place (copying the list at every repeat made a 64 KiB body of `a&a&…` cost seconds of event loop).
 * @throws InvalidRequest 413 over the limit, 400 when it cannot be read or is over a bound
 */
export async function readForm(ctx: Context): Promise<FormFields> {
  const lists = new Map<string, string[]>();
  for (const [name, value] of await readFormPairs(ctx)) {
    const list = lists.get(name);
    if (!list) lists.set(name, [value]);
    else if (list.push(value) > MAX_FORM_REPEATS)
      throw malformed(`request body refused: more than ${MAX_FORM_REPEATS} values for one field`);
  }
  const fields: FormFields = Object.create(null) as FormFields;
  for (const [name, list] of lists) fields[name] = list.length === 1 ? list[0]! : list;
  return fields;
}

/** Methods whose body the parsing steps read. */
const WITH_BODY: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The step that reads an HTML form into `ctx.request.body` (POST/PUT/PATCH with a form content
 * type; any other request gets `{}` and its body is left unread).
 * @throws InvalidRequest 413 / 400 (see `readForm`)
 */
export const parseForm: Middleware = async (ctx, next) => {
  if (ctx.request.body === undefined && WITH_BODY.has(ctx.method)) {
    ctx.request.body = ctx.is('application/x-www-form-urlencoded') ? await readForm(ctx) : {};
  }
  await next();
};

/**
 * The step that reads a JSON body into `ctx.request.body` (POST/PUT/PATCH whose content type is one
 * of `types`; any other request gets `{}` and its body is left unread). An empty body gives `{}`.
 * @param types media types read as JSON (default `application/json`)
 * @throws InvalidRequest 413 / 400 (see `readJson`)
 */
export function parseJson(types: readonly string[] = ['application/json']): Middleware {
  return async (ctx, next) => {
    if (ctx.request.body === undefined && WITH_BODY.has(ctx.method)) {
      ctx.request.body = ctx.is([...types]) ? await readJson(ctx, { empty: {} }) : {};
    }
    await next();
  };
}

/** The fields `parseForm` read (`{}` when it read none). */
export const formBody = (ctx: Context): FormFields => (ctx.request.body ?? {}) as FormFields;
