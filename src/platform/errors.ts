/**
 * The one domain error of the platform services (issue #9: one domain error type, one code set).
 * A refusal carries a stable `code`, an optional finer `reason` and a message safe to show to the
 * caller; each surface maps it to its own shape (src/errors/: problem+json `error`, GraphQL
 * `extensions.code`, MCP tool error text, HTML page). `platform/` knows nothing of HTTP: no
 * status codes here (they are in src/errors/catalogue.ts, `DOMAIN_STATUS`).
 *
 * | code | means | finer reasons in use |
 * |---|---|---|
 * | `invalid` | an input value breaks a documented rule (range, format, length) | `idempotency_key_reused`, `unsupported_media_type`, `weak_password` |
 * | `not_found` | the thing does not exist for this caller at this site (no difference is made with "not yours") | `unknown_or_used` (one-time link) |
 * | `conflict` | the change clashes with the current state (or cannot happen now: `too_many_requests`, with `retryAfterSeconds`) | `too_many_requests` (a mail budget is spent), `last_owner`, `precondition_failed` (If-Match, 412 on `/api/v1`), `feature_disabled`, `public_client`, `already_accepted`, `invitation_accepted`, `idempotency_key_in_use` |
 * | `forbidden` | the caller may not do this | `access_expired` (a course's `expireDate` passed), `role_hierarchy`, `wrong_account` |
 */

/** Why a domain operation was refused. */
export type PlatformErrorCode = 'not_found' | 'invalid' | 'conflict' | 'forbidden';

/** A refused domain operation; `message` names the offending value and never carries secrets. */
export class PlatformError extends Error {
  override name = 'PlatformError';
  /** A finer, stable reason (e.g. `feature_disabled`, `last_owner`); defaults to `code`. */
  readonly reason: string;
  /** The input field at fault, when one is (e.g. `slug`, `code`). */
  readonly field?: string;
  /** For a refusal that passes with time (reason `too_many_requests`): seconds until a retry may succeed. */
  readonly retryAfterSeconds?: number;
  constructor(
    readonly code: PlatformErrorCode,
    message: string,
    details: { reason?: string; field?: string; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.reason = details.reason ?? code;
    if (details.field !== undefined) this.field = details.field;
    if (details.retryAfterSeconds !== undefined) this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/** Shorthand for a `not_found` error, e.g. `notFound('course', 'sql-basics')`. */
export const notFound = (what: string, key: string): PlatformError =>
  new PlatformError('not_found', `no ${what} "${key}"`);

/** Shorthand for an `invalid` error naming its field, e.g. `invalid('name must not be empty', 'name')`. */
export const invalid = (message: string, field?: string): PlatformError =>
  new PlatformError('invalid', message, field === undefined ? {} : { field });

/** The member's access to a course has expired (`forbidden`, reason `access_expired`; GraphQL `ACCESS_EXPIRED`). */
export const accessExpired = (message: string): PlatformError =>
  new PlatformError('forbidden', message, { reason: 'access_expired' });
