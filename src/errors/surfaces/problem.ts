/**
 * The problem surface (`/api/v1`, DESIGN D9): RFC 9457 `application/problem+json`. Besides the RFC
 * 9457 members (`type`, `title`, `status`, `detail`) a problem carries `error` /
 * `error_description` (the RFC 6749/6750 vocabulary the other surfaces speak) and, when the
 * refusal is about input fields, `errors[]` (each an RFC 6901 JSON pointer).
 */
import type { Context } from 'koa';
import type { FieldIssue, HttpError } from '../catalogue.js';
import { shownDescription } from '../shown.js';

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
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
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

/**
 * Builds a problem document; `type` points at the error's section of docs/admin-api.md.
 * @param docsUrl DOCS_URL (src/http/docs-links.ts)
 */
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

/** Renders a catalogue error as problem+json (`Cache-Control: no-store`), with its headers. */
export function renderProblem(ctx: Context, err: HttpError, docsUrl: string): void {
  for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
  ctx.set('Cache-Control', 'no-store');
  ctx.status = err.status;
  ctx.type = 'application/problem+json';
  ctx.body = problem(docsUrl, err.status, err.error, shownDescription(ctx, err), err.issues);
}
