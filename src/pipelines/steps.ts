/**
 * The steps the route table's columns produce (issue #27 part 2), built once from the services
 * (src/compose.ts) and placed by `assemblePipelines` (./assemble.ts), never by a family:
 *
 * - `body` → `limitBody`: DESIGN D7 413 on the row's body limit (the default 64 KiB declared-length
 *   cap when the row names none); reads chunked bodies of `buffer` rows (src/http/body-limit.ts).
 *   Skipped for GET/HEAD and on rows whose handler answers 413 itself (`ownTooLarge`).
 * - `rateLimit` → one of three steps, by what the counter is kept under (DESIGN D7,
 *   src/http/rate-limits.ts):
 *   - `limitByClient` (`client+ip`): reads the form **before** the handler to learn the client_id
 *     (HTTP Basic user or `client_id` field), counts client_id + address, and keeps a client-wide
 *     ceiling only for a proven client or grant;
 *   - `limitByIp` (`ip`): counts the address alone, reads nothing of the request;
 *   - `offerFailureCount` (`account+ip`, `on: 'failure'`): counts nothing itself; hands the handler
 *     the reserve/release pair of the failed-login limit (src/http/failure-count.ts).
 * - `auth` bearer → `authenticateBearer(row)`: the RFC 6750 step with the row's scopes
 *   (src/resource/bearer.ts).
 * - `loop: 'operator'` → `shareLoop`: waits, when other requests are in flight and the operators'
 *   share of the event loop is spent, until it refills; charges the request's time once answered
 *   (issue #29, src/http/operator-share.ts). Never refuses.
 * - `owner: 'provider'` → the provider prelude `answerOutageAs503` (a store outage inside
 *   oidc-provider is 503 + Retry-After, issue #14) and `explainMetadataFailure` (JSON error bodies
 *   name why a Client ID Metadata Document failed to load), and the postlude `handToProvider`
 *   (oidc-provider, mounted at the root, answers on the same context).
 */
import mount from 'koa-mount';
import type Koa from 'koa';
import { bodyLimit } from '../http/body-limit.js';
import { offerFailureCount } from '../http/failure-count.js';
import { docsLink } from '../http/docs-links.js';
import { bearer } from '../resource/bearer.js';
import { answerOutageAs503 } from '../ops/store-outage.js';
import type { BearerAuthentication, RouteSpec } from '../http/route-table.js';
import type { Services } from '../compose.js';
import { SESSION_COOKIE } from '../operator/session.js';
import type { Step } from './pipeline.js';
import { tagColumnStep, type ColumnSteps } from './assemble.js';

/** The column steps, kept under the name they had when families placed them by hand. */
export type SharedSteps = ColumnSteps;

/** Builds the column steps once. */
export function sharedSteps(services: Services): ColumnSteps {
  const { config, limits, provider, accounts } = services;
  const readLimit = bodyLimit();
  // GET and HEAD carry no body anything reads: the body step lets them through.
  const limitBody: Step = function limitBody(ctx, next) {
    return ctx.method === 'GET' || ctx.method === 'HEAD' ? next() : readLimit(ctx, next);
  };
  // The limiter applies the row's policy (`ctx.state.route.spec.rateLimit`); these two steps name
  // which of its two keys the row counts under, and are placed only on rows that declare that key.
  const limitRate = limits.middleware;
  const limitByClient: Step = function limitByClient(ctx, next) {
    return limitRate(ctx, next);
  };
  const limitByIp: Step = function limitByIp(ctx, next) {
    return limitRate(ctx, next);
  };
  const failures = offerFailureCount({ reserve: limits.reserveLogin, release: limits.releaseLogin });
  const handToProvider = mount(provider as unknown as Koa);
  const { loopShare } = services;
  const shareLoop: Step = async function shareLoop(ctx, next) {
    // `/admin` checks its session inside its router, after this step: a request without a signed
    // session cookie (on its way to the sign-in page) is neither held nor charged, so anonymous
    // requests cannot spend the operators' share.
    if (ctx.state.route?.spec.auth.kind === 'session' && !ctx.cookies.get(SESSION_COOKIE, { signed: true }))
      return next();
    const release = await loopShare.admit({ startedAt: ctx.state.startedAt });
    // Charged once the response is closed: Koa writes the body (JSON) after every step returned.
    ctx.res.once('close', release);
    await next();
  };
  return {
    limitBody: tagColumnStep(limitBody, { column: 'body' }),
    limitByClient: tagColumnStep(limitByClient, { column: 'rateLimit', key: 'client+ip' }),
    limitByIp: tagColumnStep(limitByIp, { column: 'rateLimit', key: 'ip' }),
    offerFailureCount: tagColumnStep(failures, { column: 'rateLimit', key: 'account+ip' }),
    authenticateBearer(auth: BearerAuthentication, row: RouteSpec): Step {
      // Every surface's 401s link its docs page (RFC 6750 §3 `error_uri`): the Account API's, the
      // admin API's, else the client guide's errors (UserInfo).
      const errorUri = docsLink(
        config.docsUrl,
        row.surface === 'graphql' ? 'accountApi' : row.surface === 'problem' ? 'adminApi' : 'errors',
      );
      const step = bearer(provider, config.baseUrl, accounts, services.dpop, {
        scopes: auth.scopes,
        challengeScope: auth.challengeScope,
        errorUri,
      });
      return tagColumnStep(step, {
        column: 'auth',
        scopes: [...(auth.scopes ?? [])],
        challengeScope: auth.challengeScope,
      });
    },
    answerOutageAs503: tagColumnStep(answerOutageAs503(services.renderError), { column: 'owner', part: 'prelude' }),
    explainMetadataFailure: tagColumnStep(services.registration.explainMetadataFailure, {
      column: 'owner',
      part: 'prelude',
    }),
    handToProvider: tagColumnStep(handToProvider as Step, { column: 'owner', part: 'postlude' }),
    shareLoop: tagColumnStep(shareLoop, { column: 'loop' }),
  };
}
