/**
 * Pipelines of oidc-provider's endpoints (DESIGN §1, SPEC §4.2): discovery, JWKS, authorization,
 * token, revocation, introspection, registration, end_session. Each ends in `handToProvider`; the
 * steps before it are ours (limits, D1 decision, suspension, default scope), the steps wrapping it
 * post-process the provider's answer (src/oauth/provider-hooks.ts). The provider's own router
 * answers its CORS preflights, so these pipelines take OPTIONS (`answersEveryMethod`); any other
 * method their row does not list is answered 405 + `Allow` by the dispatcher before the provider
 * runs (src/pipelines/pipeline.ts).
 *
 * Inside the provider, on every endpoint: the hooks of `declareProviderHooks` (audit trail,
 * suspended tokens hidden, connected-app use, metrics) and SPEC §2.2's id_token rule
 * (src/oauth/id-token-policy.ts: no id_token on refresh, none before signing starts).
 */
import { completeDiscovery, nameIdentityScopes } from '../oauth/provider-hooks.js';
import { explainMissingDpopProof } from '../oauth/dpop-policy.js';
import { defaultScopeMiddleware, keepKnownScopes } from '../oauth/default-scope.js';
import { authorizationGuard } from '../oauth/suspension.js';
import { settleRefreshRotation } from '../oauth/refresh-rotation.js';
import { endWebSessionAtLogout } from '../oauth/one-sign-out.js';
import type { Services } from '../compose.js';
import { answersEveryMethod, type Pipelines, type Step } from './pipeline.js';
import { MethodNotAllowed } from '../errors/catalogue.js';

/**
 * The oauth family's pipelines: only the family's own steps. The row's columns add the body step,
 * the rate limit (`limitByClient` on token/revocation/introspection, `limitByIp` on registration),
 * the provider prelude (`answerOutageAs503`, `explainMetadataFailure`) before these steps and the
 * postlude `handToProvider` after them (src/pipelines/assemble.ts).
 */
export function oauthPipelines(services: Services): Pipelines {
  const { registration, signing, config } = services;
  const { answerPreflight, readMetadata, decideD1Row, answerRefusal, answerVendor, createLoopbackClient } =
    registration.steps(services.adapter);
  const fillDefaultScope = defaultScopeMiddleware(services.provider);
  const refuseSuspendedClient = authorizationGuard(services.suspensions);
  const announce = completeDiscovery(config, signing.signingActive);
  // JWKS of the store's keys with the schedule's Cache-Control (DESIGN D6), else the provider's route.
  // CORS preflights (OPTIONS) stay the provider's.
  const ring = signing.ring;
  const serveRingJwks: Step = async function serveRingJwks(ctx, next) {
    if (!ring || ctx.method === 'OPTIONS') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      throw new MethodNotAllowed(`${ctx.method} is not allowed here; allowed: GET, HEAD`, ['GET', 'HEAD']);
    ring.jwksHandler(ctx);
  };
  const providerAlone = answersEveryMethod();
  // DESIGN D14: "Yes, sign me out" ends the web session of the browser too.
  const endWebSessionToo = endWebSessionAtLogout(services.provider, services.sessions);

  return {
    discovery: answersEveryMethod(announce),
    jwks: ring ? answersEveryMethod(serveRingJwks) : providerAlone,
    authorization: answersEveryMethod(keepKnownScopes, fillDefaultScope, refuseSuspendedClient),
    resume: providerAlone,
    token: answersEveryMethod(
      explainMissingDpopProof(services.provider, config.docsUrl),
      nameIdentityScopes,
      settleRefreshRotation,
    ),
    revocation: providerAlone,
    introspection: providerAlone,
    // DESIGN D1: the table decides (vendor record, refusal) before the provider creates a loopback client.
    registration: answersEveryMethod(
      answerPreflight,
      readMetadata,
      decideD1Row,
      answerRefusal,
      answerVendor,
      createLoopbackClient,
    ),
    client: providerAlone,
    end_session: providerAlone,
    end_session_confirm: answersEveryMethod(endWebSessionToo),
    end_session_success: providerAlone,
  };
}
