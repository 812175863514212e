/**
 * The reserve/release pair of a failure-counted limit (DESIGN D7, route-table `rateLimit.on:
 * 'failure'`; issue #27 part 2). A row that declares one gets the step `offerFailureCount`
 * (src/pipelines/assemble.ts), which puts the pair on `ctx.state.failureCount`; its handler takes
 * it with `failureCountOf(ctx)`. A handler on a row that declares no such limit gets no pair and
 * fails loudly, so a limited page cannot sit on an unlimited row (the `invitation` row had no
 * limit yet was limited, by hand).
 */
import type { Context, Middleware } from 'koa';

/** The pair a failure-counted row hands its handler. */
export interface FailureCount {
  /**
   * Reserves one point for `key` (the account of the form: its e-mail) together with the client
   * address, before the check that may fail (the password).
   * @throws TooManyRequests (429, with `Retry-After`) when the account + address has no point left
   */
  reserve(key: string): Promise<void>;
  /** Gives the reserved point back after the check succeeded. */
  release(key: string): Promise<void>;
}

/** The limiter's hooks the pair is bound to (src/http/rate-limits.ts `reserveLogin` / `releaseLogin`). */
export interface FailureLimiter {
  reserve(ctx: Context, key: string): Promise<void>;
  release(ctx: Context, key: string): Promise<void>;
}

declare module 'koa' {
  interface DefaultState {
    /** Set by `offerFailureCount` on rows with a failure-counted limit. */
    failureCount?: FailureCount;
  }
}

/**
 * The step of a row whose limit counts failures: hands the handler its reserve/release pair.
 * @param limiter the limit's counters (DESIGN D7 `loginFailures`)
 */
export function offerFailureCount(limiter: FailureLimiter): Middleware {
  return function offerFailureCount(ctx, next) {
    ctx.state.failureCount = {
      reserve: (key) => limiter.reserve(ctx, key),
      release: (key) => limiter.release(ctx, key),
    };
    return next();
  };
}

/**
 * The reserve/release pair of this request's row.
 * @throws Error when the row declares no failure-counted limit (a route-table mistake, found by
 *   the first request and by test/unit/route-pipelines.test.ts)
 */
export function failureCountOf(ctx: Context): FailureCount {
  const pair = ctx.state.failureCount;
  if (!pair)
    throw new Error(
      `route ${ctx.state.route?.spec.name ?? ctx.path} declares no failure-counted limit (route table: rateLimit.on 'failure')`,
    );
  return pair;
}
