/**
 * The admin REST API, `/api/v1/*` (SPEC §1, §2.5 rule 2; DESIGN D4, D9), generated from one
 * declaration per operation (`operations/`). See docs/admin-api.md.
 *
 * Every operation needs (1) a valid access token bound to BASE_URL, (2) the operation's scope, else
 * 403 `insufficient_scope` with `scope="<needed>"` (member tokens, `account:*` only, never pass),
 * and (3) an operator role (`owner`, `admin`) at the token's site *now*, else 403 `access_denied`.
 */
export { adminApiRouter, type AdminRouterDeps } from './router.js';
export { OPERATIONS } from '../../operations/index.js';
export { adminPaths, PROBLEM_SCHEMA } from './openapi.js';
export type { AdminServices, Operation } from '../../operations/operation.js';
