/**
 * RFC 9457 `application/problem+json` for `/api/v1` (DESIGN §1 "one mapper per surface", D9).
 * Every refusal of the admin API goes through `renderProblems`: domain errors (`PlatformError`),
 * bearer challenges (`HttpError`, `WWW-Authenticate` kept), validation failures (`InputError`,
 * naming each failing field as a JSON pointer) and body-parser errors. Besides the RFC 9457
 * members (`type`, `title`, `status`, `detail`) a problem carries `error` / `error_description`
 * (the RFC 6749/6750 vocabulary the other surfaces speak) and, for input errors, `errors[]`.
 */
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { PlatformError, type PlatformErrorCode } from '../../platform/errors.js';
import { HttpError } from '../../http/errors.js';
import { isStoreOutage, OUTAGE_DESCRIPTION, OUTAGE_RETRY_AFTER } from '../../ops/store-outage.js';

/** One failing input field: `pointer` is an RFC 6901 JSON pointer into the request part. */
export interface FieldIssue {
  /** `body`, `query` or `path`. */
  in: 'body' | 'query' | 'path' | 'header';
  pointer: string;
  detail: string;
}

/** A request whose input failed its schema: 400 `invalid_request`, listing every failing field. */
export class InputError extends Error {
  override name = 'InputError';
  constructor(readonly issues: FieldIssue[]) {
    super(issues.map((i) => `${i.in}${i.pointer.replaceAll('/', '.')}: ${i.detail}`).join('; '));
  }
}

/** A refusal of the API itself (not of the domain), e.g. 412 precondition failed. */
export class ProblemError extends Error {
  override name = 'ProblemError';
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

const STATUS_OF: Record<PlatformErrorCode, number> = { not_found: 404, invalid: 400, conflict: 409, forbidden: 403 };
const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  500: 'Internal Server Error',
};

/** The problem document of one refusal. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  error: string;
  error_description: string;
  errors?: FieldIssue[];
}

/** Builds a problem document; `type` points at the error section of docs/admin-api.md. */
export function problem(docsUrl: string, status: number, error: string, detail: string, errors?: FieldIssue[]): Problem {
  return {
    type: `${docsUrl}/admin-api#${error}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    error,
    error_description: detail,
    ...(errors ? { errors } : {}),
  };
}

/** Maps any thrown value to a status, an error code, a detail and field issues. */
function classify(err: unknown): { status: number; error: string; detail: string; errors?: FieldIssue[]; headers?: Record<string, string> } | undefined {
  if (err instanceof InputError) return { status: 400, error: 'invalid_request', detail: err.message, errors: err.issues };
  if (err instanceof PlatformError) {
    const issues: FieldIssue[] | undefined = err.field ? [{ in: 'body', pointer: `/${err.field}`, detail: err.message }] : undefined;
    return { status: err.reason === 'unsupported_media_type' ? 415 : STATUS_OF[err.code], error: err.reason, detail: err.message, errors: issues };
  }
  if (err instanceof ProblemError) return { status: err.status, error: err.error, detail: err.message };
  if (err instanceof HttpError) return { status: err.status, error: err.error, detail: err.description, headers: err.headers };
  const e = err as { status?: number; expose?: boolean; message?: string };
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    // Koa / body-parser client errors (malformed JSON, 413, 415).
    const detail = e.status === 413 ? 'request body too large (limit 64 KiB)' : e.expose && e.message ? e.message : 'malformed request body: send a JSON object';
    return { status: e.status, error: 'invalid_request', detail };
  }
  return undefined;
}

/** First step of every admin route: renders refusals as problem+json; logs and hides the rest. */
export function renderProblems(docsUrl: string, logger?: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const known = classify(err);
      ctx.set('Cache-Control', 'no-store');
      if (!known && isStoreOutage(err)) {
        // Issue #14: a store outage is temporary, not a server error: 503 + Retry-After.
        ctx.set('Retry-After', String(OUTAGE_RETRY_AFTER));
        ctx.status = 503;
        ctx.type = 'application/problem+json';
        ctx.body = problem(docsUrl, 503, 'temporarily_unavailable', OUTAGE_DESCRIPTION);
        return;
      }
      if (!known) {
        logger?.error({ req_id: ctx.state.requestId, err: { type: (err as Error)?.name, message: (err as Error)?.message } }, 'admin API error');
        ctx.status = 500;
        ctx.type = 'application/problem+json';
        ctx.body = problem(docsUrl, 500, 'server_error', `internal error (request id ${String(ctx.state.requestId ?? '')})`);
        return;
      }
      for (const [k, v] of Object.entries(known.headers ?? {})) ctx.set(k, v);
      ctx.status = known.status;
      ctx.type = 'application/problem+json';
      ctx.body = problem(docsUrl, known.status, known.error, known.detail, known.errors);
    }
  };
}
