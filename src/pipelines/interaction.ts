/**
 * Pipelines of the interaction pages (SPEC §5.1–5.3; DESIGN D5): login, site choice and consent
 * inside an authorization, and the one-time invitation link. Their handlers read the form
 * (64 KiB, HTML 413) and check the CSRF field (src/http/csrf.ts); the failed-login limit
 * (DESIGN D7, `account+ip`) is reserved before the password check and given back on success,
 * through the pair the row hands them (`failureCountOf`, src/http/failure-count.ts).
 */
import { interactionRouter } from '../interaction/routes.js';
import { invitationRouter } from '../interaction/invitations.js';
import type { Services } from '../compose.js';
import { pipeline, routerStep, type Pipelines } from './pipeline.js';

/**
 * The interaction family's pipelines. The body step and, on `login` and `invitation`, the
 * failed-login pair (`offerFailureCount`) come from the rows (src/pipelines/assemble.ts).
 */
export function interactionPipelines(services: Services): Pipelines {
  const { provider, accounts, siteChoices, csrf, logger, audit, grants, config } = services;
  const pages = routerStep(
    interactionRouter({
      provider,
      accounts,
      siteChoices,
      csrf,
      logger,
      audit,
      grants,
      baseUrl: config.baseUrl,
      // Issue 30 item 10: one password entry signs the person in to the people's pages too.
      startWebSession: (ctx, userId) => services.sessions.start(ctx, userId),
      signInEvents: services.signInEvents,
    }),
  );
  const invitation = routerStep(
    invitationRouter({
      accounts,
      invitations: services.invitations,
      addressLinks: services.addressLinks,
      mailer: services.mailer,
      mailBudget: services.mailBudget,
      baseUrl: config.baseUrl,
      csrf,
      logger,
    }),
  );
  return {
    interaction: pipeline(pages),
    login: pipeline(pages),
    site_choice: pipeline(pages),
    consent: pipeline(pages),
    invitation: pipeline(invitation),
  };
}
