/**
 * RFC 9457 `application/problem+json` for `/api/v1` (DESIGN §1 "one mapper per surface", D9).
 * Every refusal of the admin API goes through `renderProblems`, which hands it to the one error
 * renderer (src/errors/render.ts) on the `problem` surface: domain errors (`PlatformError`),
 * bearer challenges (`WWW-Authenticate` kept), validation failures (`InputError`, naming each
 * failing field as a JSON pointer), body-parser errors and store outages (503 + `Retry-After`).
 * The classes live in the catalogue (src/errors/catalogue.ts); the shape in
 * src/errors/surfaces/problem.ts.
 */
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { renderError } from '../../errors/render.js';

export { InputError, type FieldIssue } from '../../errors/catalogue.js';
export { problem, type Problem } from '../../errors/surfaces/problem.js';

/** First step of every admin route: renders refusals as problem+json; logs and hides the rest. */
export function renderProblems(docsUrl: string, logger?: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      renderError(ctx, err, { docsUrl, logger }, 'problem');
    }
  };
}
