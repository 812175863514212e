/**
 * The error catalogue (issue #9, DESIGN §1 "one error catalogue, one mapper per surface"): every
 * error code the service answers with outside oidc-provider, as a class carrying its HTTP status,
 * its code and whether its message is shown to the caller (`expose`), in the spirit of
 * oidc-provider's `lib/helpers/errors.js`. The surfaces (`src/errors/surfaces/*`) render these
 * classes their way; `classify` turns anything thrown into one of them.
 *
 * Codes are the RFC 6749 §5.2 / RFC 6750 §3.1 vocabulary (SPEC §7) plus a few of our own
 * (`not_found`, `conflict`, …, docs/admin-api.md "Errors"). A domain refusal (`PlatformError`,
 * `src/platform/errors.ts`) keeps its finer `reason` as the code when it has one.
 */
import { PlatformError, type PlatformErrorCode } from '../platform/errors.js';
import { isStoreOutage } from './outage.js';

/** What the catalogue knows of one code. */
export interface CodeEntry {
  /** The usual HTTP status (a class may be raised with another, e.g. `invalid_request` 413). */
  status: number;
  /** True when the description is shown to the caller; false: a generic text replaces it. */
  expose: boolean;
  /** One line for the docs and the unit test. */
  means: string;
}

/**
 * Every code and its status. Codes a domain rule adds through `PlatformError.reason` (e.g.
 * `last_owner`) take the status of their domain code (`DOMAIN_STATUS`).
 */
export const CODES = {
  invalid_request: {
    status: 400,
    expose: true,
    means: 'the request is malformed or a value breaks a rule (also 413, 415 for the body)',
  },
  invalid_token: {
    status: 401,
    expose: true,
    means: 'the access token is missing, unknown, expired, revoked or for another origin',
  },
  invalid_dpop_proof: {
    status: 401,
    expose: true,
    means: 'the DPoP proof (RFC 9449) is missing, malformed, for another request or replayed',
  },
  use_dpop_nonce: {
    status: 401,
    expose: true,
    means: 'retry with a DPoP proof carrying the nonce of the `DPoP-Nonce` header (RFC 9449 §9)',
  },
  insufficient_scope: { status: 403, expose: true, means: 'the access token lacks a scope the operation needs' },
  access_denied: { status: 403, expose: true, means: 'the person may not do this (e.g. no operator role at the site)' },
  not_found: { status: 404, expose: true, means: "nothing at this path, or not at the caller's site" },
  method_not_allowed: { status: 405, expose: true, means: 'the path exists but not with this method' },
  conflict: { status: 409, expose: true, means: 'the change clashes with the current state' },
  precondition_failed: { status: 412, expose: true, means: 'If-Match does not match the current ETag' },
  unsupported_media_type: { status: 415, expose: true, means: 'the body is not of an accepted media type' },
  too_many_requests: { status: 429, expose: true, means: 'a rate limit is spent (Retry-After says when to retry)' },
  server_error: {
    status: 500,
    expose: false,
    means: 'a fault on our side; the answer names the request id, never a stack',
  },
  temporarily_unavailable: {
    status: 503,
    expose: true,
    means: 'a backing store is unreachable (Retry-After says when to retry)',
  },
} as const satisfies Record<string, CodeEntry>;

/** A code of the catalogue. */
export type ErrorCode = keyof typeof CODES;

/** HTTP status of each domain code (`PlatformError.code`). */
export const DOMAIN_STATUS: Record<PlatformErrorCode, number> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
};

/**
 * The wire code of a domain code when the refusal has no finer reason. `invalid` is answered as
 * `invalid_request` on every surface (one code for every 400, schema or domain rule).
 */
const DOMAIN_WIRE: Record<PlatformErrorCode, ErrorCode> = {
  invalid: 'invalid_request',
  forbidden: 'access_denied',
  not_found: 'not_found',
  conflict: 'conflict',
};

/** Finer reasons whose status is not their domain code's. */
const REASON_STATUS: Record<string, number> = {
  unsupported_media_type: 415,
  precondition_failed: 412,
  too_many_requests: 429,
};

/** One failing input field: `pointer` is an RFC 6901 JSON pointer into the request part. */
export interface FieldIssue {
  in: 'body' | 'query' | 'path' | 'header';
  pointer: string;
  detail: string;
}

/**
 * The base of the catalogue: an error with an RFC error code, an HTTP status, a description and
 * response headers (e.g. `WWW-Authenticate`, `Retry-After`). `expose` says whether `description`
 * may reach the caller (default: the code's rule in `CODES`, else status < 500).
 */
export class HttpError extends Error {
  override name = 'HttpError';
  /** True when `description` may be shown to the caller. */
  readonly expose: boolean;
  /** The failing input fields, when the refusal is about some (problem+json `errors[]`). */
  issues?: FieldIssue[];
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
    expose?: boolean,
  ) {
    super(description);
    this.expose = expose ?? (CODES as Record<string, CodeEntry>)[error]?.expose ?? status < 500;
  }
}

/**
 * 400 `invalid_request`, with the failing fields when known. Other statuses of the same code: 413 /
 * 415 for the body; on the pages for people (DESIGN D8) 403 for a form whose CSRF field does not
 * verify (src/http/csrf.ts) and 404 for a one-time link that is not well-formed.
 */
export class InvalidRequest extends HttpError {
  override name = 'InvalidRequest';
  constructor(
    description: string,
    options: { status?: 400 | 403 | 404 | 413 | 415; issues?: FieldIssue[]; headers?: Record<string, string> } = {},
  ) {
    super(options.status ?? 400, 'invalid_request', description, options.headers);
    if (options.issues) this.issues = options.issues;
  }
}

/** 400 `invalid_request` for a request whose input failed its schema, naming each failing field. */
export class InputError extends InvalidRequest {
  override name = 'InputError';
  constructor(issues: FieldIssue[]) {
    super(issues.map((i) => `${i.in}${i.pointer.replaceAll('/', '.')}: ${i.detail}`).join('; '), { issues });
  }
}

/** 401 `invalid_token` (RFC 6750 §3.1); built by `challenge()` (src/resource/bearer.ts) with its header. */
export class InvalidToken extends HttpError {
  override name = 'InvalidToken';
  constructor(description: string, headers: Record<string, string>) {
    super(401, 'invalid_token', description, headers);
  }
}

/** 401 `invalid_dpop_proof` (RFC 9449 §7.1); built by `dpopChallenge()` with its header. */
export class InvalidDpopProof extends HttpError {
  override name = 'InvalidDpopProof';
  constructor(description: string, headers: Record<string, string>) {
    super(401, 'invalid_dpop_proof', description, headers);
  }
}

/** 401 `use_dpop_nonce` (RFC 9449 §9); built by `dpopChallenge()` with `DPoP-Nonce`. */
export class UseDpopNonce extends HttpError {
  override name = 'UseDpopNonce';
  constructor(description: string, headers: Record<string, string>) {
    super(401, 'use_dpop_nonce', description, headers);
  }
}

/** 403 `insufficient_scope` (RFC 6750 §3.1); built by `challenge()` with its header. */
export class InsufficientScope extends HttpError {
  override name = 'InsufficientScope';
  constructor(description: string, headers: Record<string, string>) {
    super(403, 'insufficient_scope', description, headers);
  }
}

/** 403 `access_denied`: the person may not do this. On a resource surface built by `challenge()`. */
export class AccessDenied extends HttpError {
  override name = 'AccessDenied';
  constructor(description: string, headers: Record<string, string> = {}) {
    super(403, 'access_denied', description, headers);
  }
}

/** 404 `not_found`, or a finer code of the same status (a domain refusal's `reason`). */
export class NotFound extends HttpError {
  override name = 'NotFound';
  constructor(description: string, code = 'not_found') {
    super(404, code, description);
  }
}

/** 405 `method_not_allowed`, with `Allow`. */
export class MethodNotAllowed extends HttpError {
  override name = 'MethodNotAllowed';
  constructor(description: string, allowed?: readonly string[]) {
    super(405, 'method_not_allowed', description, allowed ? { Allow: allowed.join(', ') } : {});
  }
}

/** 409 `conflict`, or a finer code of the same status (e.g. `feature_disabled`, `public_client`). */
export class Conflict extends HttpError {
  override name = 'Conflict';
  constructor(description: string, code = 'conflict') {
    super(409, code, description);
  }
}

/**
 * 410: a one-time link (invitation, set-password) that was used, withdrawn or has expired; the
 * code is the domain's finer reason (e.g. `invitation_used`), as `PlatformError.reason` names it.
 */
export class Gone extends HttpError {
  override name = 'Gone';
  constructor(description: string, code: string) {
    super(410, code, description);
  }
}

/** 412 `precondition_failed` (RFC 9110 §13.1.1, If-Match). */
export class PreconditionFailed extends HttpError {
  override name = 'PreconditionFailed';
  constructor(description: string) {
    super(412, 'precondition_failed', description);
  }
}

/** 415 `unsupported_media_type`. */
export class UnsupportedMediaType extends HttpError {
  override name = 'UnsupportedMediaType';
  constructor(description: string) {
    super(415, 'unsupported_media_type', description);
  }
}

/** 429 `too_many_requests` (DESIGN D7), with `Retry-After` in seconds. */
export class TooManyRequests extends HttpError {
  override name = 'TooManyRequests';
  constructor(description: string, retryAfterSeconds: number) {
    super(429, 'too_many_requests', description, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** 500 `server_error`: never exposed; surfaces show a generic text with the request id. */
export class ServerError extends HttpError {
  override name = 'ServerError';
  constructor(description = 'internal error') {
    super(500, 'server_error', description, {}, false);
  }
}

/** Seconds a client should wait before retrying during a store outage (issue #14). */
export const OUTAGE_RETRY_AFTER = 5;
/** The error_description / detail of every outage answer. */
export const OUTAGE_DESCRIPTION = 'a backing store is unreachable; retry shortly';

/** 503 `temporarily_unavailable` (issue #14: a store outage), with `Retry-After`. */
export class TemporarilyUnavailable extends HttpError {
  override name = 'TemporarilyUnavailable';
  constructor(description = OUTAGE_DESCRIPTION, retryAfterSeconds = OUTAGE_RETRY_AFTER) {
    super(503, 'temporarily_unavailable', description, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/**
 * The catalogue error of a domain refusal: status from the domain code (`DOMAIN_STATUS`), code
 * from the finer `reason` when there is one, else `invalid_request` / `access_denied` /
 * `not_found` / `conflict`; the field at fault becomes one body issue; a refusal that passes with
 * time (`retryAfterSeconds`, reason `too_many_requests`: 429) carries `Retry-After`.
 */
export function fromDomain(err: PlatformError): HttpError {
  const finer = err.reason !== err.code;
  const out = new HttpError(
    (finer && REASON_STATUS[err.reason]) || DOMAIN_STATUS[err.code],
    finer ? err.reason : DOMAIN_WIRE[err.code],
    err.message,
    err.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(err.retryAfterSeconds) },
  );
  if (err.field !== undefined) out.issues = [{ in: 'body', pointer: `/${err.field}`, detail: err.message }];
  return out;
}

/**
 * Turns anything thrown into a catalogue error, or undefined when it is a fault of ours (the
 * caller logs it and answers 500 `server_error`):
 * - catalogue errors as they are; domain refusals through `fromDomain`;
 * - a store outage → 503 `temporarily_unavailable`;
 * - Koa / body-parser client errors (status 4xx): `invalid_request` with that status; their
 *   message is shown only when they mark it `expose` (co-body's JSON syntax errors do not).
 */
export function classify(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (err instanceof PlatformError) return fromDomain(err);
  if (isStoreOutage(err)) return new TemporarilyUnavailable();
  const e = err as { status?: number; expose?: boolean; message?: string } | undefined;
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    const description =
      e.status === 413
        ? 'request body too large (limit 64 KiB)'
        : e.expose && e.message
          ? e.message
          : 'malformed request body';
    return new HttpError(e.status, 'invalid_request', description);
  }
  return undefined;
}
