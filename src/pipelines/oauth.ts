/**
 * Pipelines of oidc-provider's endpoints (DESIGN §1, SPEC §4.2): discovery, JWKS, authorization,
 * token, revocation, introspection, registration, end_session. Each ends in `handToProvider`; the
 * steps before it are ours (limits, D1 decision, suspension, default scope), the steps wrapping it
 * post-process the provider's answer (src/oauth/provider-hooks.ts). The provider's own router
 * answers methods it does not serve (404) and its CORS preflights, so these pipelines take every
 * method (`answersEveryMethod`).
 *
 * Inside the provider, on every endpoint: the hooks of `declareProviderHooks` (audit trail,
 * suspended tokens hidden, connected-app use, metrics) and SPEC §2.2's id_token rule
 * (src/oauth/id-token-policy.ts: no id_token on refresh, none before signing starts).
 */
import { completeDiscovery, nameIdentityScopes } from '../oauth/provider-hooks.js';
import { answerOutageAs503 as outageStep } from '../ops/store-outage.js';
import { defaultScopeMiddleware } from '../oauth/default-scope.js';
import { authorizationGuard } from '../oauth/suspension.js';
import { settleRefreshRotation } from '../oauth/refresh-rotation.js';
import type { Services } from '../compose.js';
import { answersEveryMethod, type Pipelines, type Step } from './pipeline.js';
import { MethodNotAllowed } from '../errors/catalogue.js';
import type { SharedSteps } from './steps.js';

/** The oauth family's pipelines. */
export function oauthPipelines(services: Services, { limitBody, limitByClient, limitByIp, handToProvider }: SharedSteps): Pipelines {
  const { registration, signing, config } = services;
  const explainMetadataFailure = registration.explainMetadataFailure;
  const { answerPreflight, readMetadata, decideD1Row, answerRefusal, answerVendor, createLoopbackClient } = registration.steps(services.adapter);
  const fillDefaultScope = defaultScopeMiddleware(services.provider);
  const refuseSuspendedClient = authorizationGuard(services.suspensions);
  const announce = completeDiscovery(config, signing.signingActive);
  const answerOutageAs503 = outageStep(services.renderError);
  // JWKS of the store's keys with the schedule's Cache-Control (DESIGN D6), else the provider's route.
  // CORS preflights (OPTIONS) stay the provider's.
  const ring = signing.ring;
  const serveRingJwks: Step = async function serveRingJwks(ctx, next) {
    if (!ring || ctx.method === 'OPTIONS') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new MethodNotAllowed(`${ctx.method} is not allowed here; allowed: GET, HEAD`, ['GET', 'HEAD']);
    ring.jwksHandler(ctx);
  };
  const jwks = ring ? answersEveryMethod(serveRingJwks, answerOutageAs503, handToProvider) : answersEveryMethod(answerOutageAs503, handToProvider);

  return {
    discovery: answersEveryMethod(answerOutageAs503, announce, handToProvider),
    jwks,
    authorization: answersEveryMethod(limitBody, fillDefaultScope, refuseSuspendedClient, answerOutageAs503, explainMetadataFailure, handToProvider),
    resume: answersEveryMethod(answerOutageAs503, explainMetadataFailure, handToProvider),
    token: answersEveryMethod(limitBody, limitByClient, answerOutageAs503, explainMetadataFailure, nameIdentityScopes, settleRefreshRotation, handToProvider),
    revocation: answersEveryMethod(limitBody, limitByClient, answerOutageAs503, explainMetadataFailure, handToProvider),
    introspection: answersEveryMethod(limitBody, limitByClient, answerOutageAs503, explainMetadataFailure, handToProvider),
    // DESIGN D1: the table decides (vendor record, refusal) before the provider creates a loopback client.
    registration: answersEveryMethod(
      answerPreflight,
      limitBody,
      limitByIp,
      readMetadata,
      decideD1Row,
      answerRefusal,
      answerVendor,
      createLoopbackClient,
      answerOutageAs503,
      explainMetadataFailure,
      handToProvider,
    ),
    client: answersEveryMethod(answerOutageAs503, explainMetadataFailure, handToProvider),
    end_session: answersEveryMethod(limitBody, answerOutageAs503, explainMetadataFailure, handToProvider),
    end_session_confirm: answersEveryMethod(limitBody, answerOutageAs503, explainMetadataFailure, handToProvider),
    end_session_success: answersEveryMethod(answerOutageAs503, explainMetadataFailure, handToProvider),
  };
}
