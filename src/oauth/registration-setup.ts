/**
 * Wires the client-registration paths of SPEC §5.4 into the provider and the request path: vendor
 * integrations (static clients), open loopback registration, Client ID Metadata Documents and the
 * 24 h expiry of unused loopback clients. The policy itself is in `registration-policy.ts`; this
 * file only connects it. Its steps are named by the pipelines of `src/pipelines/oauth.ts`
 * (`registrationSteps` on `registration`, `explainMetadataFailure` on every provider endpoint),
 * its provider hook by `declareProviderHooks` (src/oauth/provider-hooks.ts).
 */
import type { Middleware } from 'koa';
import type Provider from 'oidc-provider';
import type { Adapter, KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { ProviderDeps } from './provider.js';
import { loadCatalogueDocuments, loadIntegrations, vendorClientMetadata, type Integration } from './integrations.js';
import {
  keepUsedLoopbackClient,
  registrationSteps,
  validateLoopbackRegistration,
  type RegistrationSteps,
} from './registration-policy.js';
import {
  CimdFailures,
  CimdRefusals,
  cimdFeature,
  cimdPolicy,
  classifyCimdClient,
  documentFetch,
  explainCimdFailure,
} from './cimd.js';

type RegistrationProviderDeps = Pick<
  ProviderDeps,
  | 'staticClients'
  | 'validateRegistration'
  | 'classifyClient'
  | 'clientIdMetadataDocument'
  | 'fetch'
  | 'explainError'
  | 'redirectRefusal'
>;

/** The registration paths, ready to plug in. */
export interface RegistrationSetup {
  integrations: Integration[];
  /** Spread into `createProvider`'s deps. */
  providerDeps: RegistrationProviderDeps;
  /**
   * The steps of `POST /api/oauth/register` (DESIGN D1, `registrationSteps`): read the JSON body,
   * decide the row, answer refusals and vendor records, hand loopback creations to the provider.
   */
  steps(adapter: new (name: string) => Adapter): RegistrationSteps;
  /** Step of every provider endpoint: JSON error bodies name why a metadata document failed to load. */
  explainMetadataFailure: Middleware;
  /** Provider hook: a loopback client that obtained a grant is kept past its 24 h expiry. */
  keepUsedLoopbackClients(provider: Provider, adapter: new (name: string) => Adapter): void;
}

/**
 * Builds the registration setup.
 * @param env environment holding vendor secrets named by `client_secret_env` (default: the one the configuration was loaded from)
 * @throws ConfigError when config/integrations.yaml is invalid
 */
export function registrationSetup(
  config: Config,
  logger: Logger,
  env: Readonly<NodeJS.ProcessEnv> = config.secretEnvironment,
): RegistrationSetup {
  const integrations = loadIntegrations(config.integrationsFile, env, config.mode);
  logger.info({ event: 'integrations_loaded', names: integrations.map((i) => i.name) }, 'vendor integrations loaded');
  const documents = loadCatalogueDocuments(config.integrationsFile);
  logger.info(
    {
      event: 'cimd_catalogue_loaded',
      reviewed: documents.filter((d) => d.enabled && d.reviewed).map((d) => d.name),
      switched_off: documents.filter((d) => !d.enabled).map((d) => d.name),
    },
    'client metadata document catalogue loaded',
  );
  const policy = cimdPolicy(config.cimd, documents);
  const failures = new CimdFailures(config.cimd.negativeCacheSeconds);
  const refusals = new CimdRefusals();
  return {
    integrations,
    providerDeps: {
      staticClients: integrations.map(vendorClientMetadata),
      validateRegistration: validateLoopbackRegistration,
      classifyClient: (metadata) => classifyCimdClient(policy, metadata),
      clientIdMetadataDocument: cimdFeature(policy, logger, failures, config.docsUrl, refusals),
      fetch: documentFetch(config.cimd, failures),
      explainError: (ctx, out) => explainCimdFailure(failures, ctx.oidc?.params?.client_id, out),
      redirectRefusal: (ctx, out) => refusals.redirectFor(ctx as never, out),
    },
    steps: (adapter) => registrationSteps({ integrations, adapter, logger, docsUrl: config.docsUrl }),
    explainMetadataFailure: async (ctx, next) => {
      await next();
      const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
      if (body && typeof body === 'object' && !Buffer.isBuffer(body) && 'error' in body) {
        explainCimdFailure(failures, (ctx as unknown as Partial<KoaContextWithOIDC>).oidc?.params?.client_id, body);
      }
    },
    keepUsedLoopbackClients(provider, adapter) {
      provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
        keepUsedLoopbackClient(adapter, ctx).catch((err: unknown) =>
          logger.error(
            { event: 'loopback_keep_failed', err: { message: (err as Error).message } },
            'could not keep loopback client',
          ),
        );
      });
    },
  };
}
