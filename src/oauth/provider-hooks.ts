/**
 * Wrapping middleware around oidc-provider's own actions (registered with `provider.use`), for
 * the few rules of SPEC.md that the engine has no switch for.
 *
 * - SPEC §2.2: refresh responses carry no id_token; with signing not started (DESIGN D6, state
 *   `published`) no response carries one and discovery omits `id_token_signing_alg_values_supported`.
 */
import type Provider from 'oidc-provider';
import type { Config } from '../config.js';
import { ROUTES } from './provider.js';

type Body = Record<string, unknown>;

/** Installs the post-processing middleware on the provider. */
export function installProviderHooks(provider: Provider, config: Config): void {
  const signingActive = config.idTokenSigning === 'active';
  provider.use(async (ctx, next) => {
    await next();
    const route = ctx.oidc?.route;
    if (!route || !ctx.body || typeof ctx.body !== 'object') return;
    const body = ctx.body as Body;
    switch (route) {
      case 'discovery':
        body.userinfo_endpoint = `${config.baseUrl}${ROUTES.userinfo}`;
        if (!signingActive) delete body.id_token_signing_alg_values_supported;
        break;
      case 'token':
        if (!signingActive || ctx.oidc.params?.grant_type === 'refresh_token') delete body.id_token;
        break;
      default:
        break;
    }
  });
}
