/**
 * Pipelines of the interaction pages (SPEC §5.1–5.3; DESIGN D5): login, site choice and consent
 * inside an authorization, and the one-time invitation link. Their handlers read the form
 * (64 KiB, HTML 413) and check the CSRF field (src/http/csrf.ts); the failed-login limit
 * (DESIGN D7, `account+ip`) is reserved before the password check and given back on success
 * (`reserveLogin` / `releaseLogin`).
 */
import { interactionRouter } from '../interaction/routes.js';
import { invitationRouter } from '../interaction/invitations.js';
import type { Services } from '../compose.js';
import { pipeline, routerStep, type Pipelines } from './pipeline.js';
import type { SharedSteps } from './steps.js';

/** The interaction family's pipelines. */
export function interactionPipelines(services: Services, { limitBody }: SharedSteps): Pipelines {
  const { provider, accounts, siteChoices, csrf, logger, audit, grants, config, limits } = services;
  const pages = routerStep(interactionRouter({
    provider,
    accounts,
    siteChoices,
    csrf,
    logger,
    audit,
    grants,
    baseUrl: config.baseUrl,
    reserveLogin: limits.reserveLogin,
    releaseLogin: limits.releaseLogin,
    // Issue 30 item 10: one password entry signs the person in to the people's pages too.
    startWebSession: (ctx, userId) => services.sessions.start(ctx, userId),
  }));
  const invitation = routerStep(
    invitationRouter({
      accounts,
      invitations: services.invitations,
      addressLinks: services.addressLinks,
      mailer: services.mailer,
      baseUrl: config.baseUrl,
      csrf,
      logger,
      reserveLogin: limits.reserveLogin,
      releaseLogin: limits.releaseLogin,
    }),
  );
  return {
    interaction: pipeline(pages),
    login: pipeline(limitBody, pages),
    site_choice: pipeline(limitBody, pages),
    consent: pipeline(limitBody, pages),
    invitation: pipeline(limitBody, invitation),
  };
}
