/**
 * DESIGN D15 policy at the token endpoint: a client that must bind its tokens (its kind is listed
 * in `DPOP_REQUIRED`, an operator switched its member app, or it registered
 * `dpop_bound_access_tokens`, RFC 9449 §5.2) and sends no proof is refused by oidc-provider with
 * `invalid_grant` "DPoP proof JWT not provided". This step answers `invalid_dpop_proof` instead,
 * whose description says what to send, so a developer reading the error knows the fix.
 */
import type { Middleware } from 'koa';

/** oidc-provider's description of the refusal (lib/helpers/sender_constraints.js `checkDpopRequired`). */
const ENGINE_DESCRIPTION = 'DPoP proof JWT not provided';

/**
 * Step of the token pipeline, after the provider answered: rewrites the missing-proof refusal.
 * @param docsUrl DOCS_URL, whose client-developer guide has the DPoP section
 */
export function explainMissingDpopProof(docsUrl: string): Middleware {
  const description =
    'this client must prove possession of a key (DPoP, RFC 9449): send a DPoP header with a proof JWT ' +
    `(typ dpop+jwt, htm POST, htu the token endpoint, a fresh jti and iat) signed by the client's key; see ${docsUrl}/client-developer-guide.md#dpop`;
  return async function explainMissingDpopProof(ctx, next) {
    await next();
    const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
    if (ctx.status !== 400 || !body || typeof body !== 'object' || Buffer.isBuffer(body)) return;
    if (body.error !== 'invalid_grant' || body.error_description !== ENGINE_DESCRIPTION) return;
    body.error = 'invalid_dpop_proof';
    body.error_description = description;
  };
}
