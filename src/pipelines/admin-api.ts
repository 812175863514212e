/**
 * Pipelines of the admin API (`/api/v1/*`, DESIGN D5, D9; docs/admin-api.md). The family's router
 * is generated from the per-operation declarations (src/resource/admin-api/router.ts) and runs each
 * operation's own steps: scope → operator role → body → input → If-Match → Idempotency-Key → run,
 * after the row's bearer step. Refusals are thrown to the edge (problem+json, the row's surface). It reads its bodies itself (JSON under 64 KiB, uploads under
 * `UPLOAD_MAX_BYTES`) with problem+json 413s, and answers 405 with `Allow` per operation path.
 */
import { adminApiRouter } from '../resource/admin-api/index.js';
import type { Services } from '../compose.js';
import { answersEveryMethod, routerStep, type Pipelines, type Step } from './pipeline.js';

/**
 * The admin API family's pipelines. The body step and the bearer step (row `admin_api`: `auth:
 * bearer`) come from the row (src/pipelines/assemble.ts); the router adds each operation's scope.
 */
export function adminApiPipelines(services: Services): Pipelines {
  const { config } = services;
  const router = adminApiRouter({
    provider: services.provider,
    baseUrl: config.baseUrl,
    docsUrl: config.docsUrl,
    services: services.admin,
    idempotency: services.idempotency,
    logger: services.logger,
    audit: services.audit,
    uploadMaxBytes: config.uploadMaxBytes,
  });
  const runOperation = routerStep(router);
  const answerMethodNotAllowed = router.allowedMethods() as Step;
  // The router answers every method itself: 405 problem+json with the operation path's `Allow`.
  const adminApi = answersEveryMethod(runOperation, answerMethodNotAllowed);
  return { admin_api: adminApi, admin_api_files: adminApi };
}
