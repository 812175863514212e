/**
 * Domain errors of the platform services. They carry a stable `code` and a message safe to show
 * to the caller; the protocol layers (MCP tools, admin API) map them to their own error shapes.
 * `platform/` knows nothing of HTTP: no status codes here.
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
  constructor(
    readonly code: PlatformErrorCode,
    message: string,
    details: { reason?: string; field?: string } = {},
  ) {
    super(message);
    this.reason = details.reason ?? code;
    if (details.field !== undefined) this.field = details.field;
  }
}

/** Shorthand for a `not_found` error, e.g. `notFound('course', 'sql-basics')`. */
export const notFound = (what: string, key: string): PlatformError => new PlatformError('not_found', `no ${what} "${key}"`);
