/**
 * DESIGN D15 policy at the token endpoint: a client that must bind its tokens (its kind is listed
 * in `DPOP_REQUIRED`, an operator switched its member app, or it registered
 * `dpop_bound_access_tokens`, RFC 9449 §5.2) and sends no proof is refused by oidc-provider with
 * `invalid_grant` "DPoP proof JWT not provided". This step answers `invalid_dpop_proof` instead,
 * whose description says what to send, so a developer reading the error knows the fix.
 */
import type { Middleware } from 'koa';
import type Provider from 'oidc-provider';

/**
 * oidc-provider's detail of the refusal (lib/helpers/sender_constraints.js `checkDpopRequired`);
 * its `invalid_grant` bodies hide details ("grant request is invalid"), the `grant.error` event
 * carries it as `error_detail`.
 */
const ENGINE_DETAIL = 'DPoP proof JWT not provided';

/**
 * Step of the token pipeline, after the provider answered: rewrites the missing-proof refusal.
 * @param provider whose `grant.error` events mark the requests refused for want of a proof
 * @param docsUrl DOCS_URL, whose client-developer guide has the DPoP section
 */
export function explainMissingDpopProof(provider: Provider, docsUrl: string): Middleware {
  const missingProof = new WeakSet<object>();
  provider.on('grant.error', (ctx: object, err: { error_detail?: unknown }) => {
    if (err?.error_detail === ENGINE_DETAIL) missingProof.add(ctx);
  });
  const description =
    'this client must prove possession of a key (DPoP, RFC 9449): send a DPoP header with a proof JWT ' +
    `(typ dpop+jwt, htm POST, htu the token endpoint, a fresh jti and iat) signed by the client's key; see ${docsUrl}/client-developer-guide.md#dpop-tokens-bound-to-your-key`;
  return async function explainMissingDpopProof(ctx, next) {
    await next();
    const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
    if (!missingProof.has(ctx) || !body || typeof body !== 'object' || Buffer.isBuffer(body)) return;
    if (body.error !== 'invalid_grant') return;
    body.error = 'invalid_dpop_proof';
    body.error_description = description;
  };
}
