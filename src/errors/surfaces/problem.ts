/**
 * The problem surface (`/api/v1`, DESIGN D9): RFC 9457 `application/problem+json`. Besides the RFC
 * 9457 members (`type`, `title`, `status`, `detail`) a problem carries `error` /
 * `error_description` (the RFC 6749/6750 vocabulary the other surfaces speak) and, when the
 * refusal is about input fields, `errors[]` (each an RFC 6901 JSON pointer).
 */
import type { Context } from 'koa';
import { CODES, type FieldIssue, type HttpError } from '../catalogue.js';
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
 * The problem codes with a section of their own in docs/admin-api.md ("Problem types"), whose
 * heading is the code (so its GitHub slug, the `type` URI's fragment, is the code): every code of
 * the catalogue and the domain's finer reasons the admin API answers with.
 * `test/unit/problem-types.test.ts` checks that each has its section.
 */
export const DOCUMENTED_PROBLEMS: ReadonlySet<string> = new Set([
  ...Object.keys(CODES),
  'role_hierarchy',
  'last_owner',
  'already_accepted',
  'feature_disabled',
  'public_client',
  'idempotency_key_in_use',
  'idempotency_key_reused',
]);

/** The slug of docs/admin-api.md's "Errors: RFC 9457 problem details": the `type` of any other code. */
export const PROBLEMS_SECTION = 'errors-rfc-9457-problem-details';

/**
 * The RFC 9457 §3.1.1 `type` URI of a problem code: its section of docs/admin-api.md as published
 * under DOCS_URL (`/docs/admin-api.md`, src/http/docs-links.ts), or the Errors section for a code
 * without one of its own.
 */
export function problemType(docsUrl: string, error: string): string {
  return `${docsUrl.replace(/\/+$/, '')}/admin-api.md#${DOCUMENTED_PROBLEMS.has(error) ? error : PROBLEMS_SECTION}`;
}

/**
 * Builds a problem document; `type` points at the error's section of docs/admin-api.md.
 * @param docsUrl DOCS_URL (src/http/docs-links.ts)
 */
export function problem(
  docsUrl: string,
  status: number,
  error: string,
  detail: string,
  errors?: FieldIssue[],
): Problem {
  return {
    type: problemType(docsUrl, error),
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
