/**
 * Pipelines of the people's pages (issue 11, DESIGN D11): home `/`, `/signin` (failed-login limit
 * reserved before the password check), `/signout`, `/account/connections` (connected apps),
 * `/set-password` (one-time links) and the operator area `/admin/*`. Each family keeps its small
 * router (src/operator/*), which reads its forms under 64 KiB and checks the session + CSRF field.
 */
import { webRouter } from '../operator/web-routes.js';
import { setPasswordRouter } from '../operator/set-password.js';
import { adminRouter } from '../operator/admin-routes.js';
import { setPasswordUrl } from '../http/links.js';
import type { Services } from '../compose.js';
import { methodNotAllowedOf, pipeline, routerStep, type Pipelines } from './pipeline.js';
import { count } from '../operator/views.js';

/**
 * The people family's pipelines. The body step and, on `signin`, the failed-login pair
 * (`offerFailureCount`) come from the rows (src/pipelines/assemble.ts).
 */
/**
 * How a reset mail names where the account is: its one site ("Demo Academy"), its first site and
 * how many more ("Demo Academy and 1 other site"), or the server's host for an account of no site.
 */
function sitesNamed(names: readonly string[], host: string): string {
  if (names.length === 0) return host;
  return names.length === 1 ? names[0]! : `${names[0]} and ${count(names.length - 1, 'other site')}`;
}

export function peoplePipelines(services: Services): Pipelines {
  const { accounts, sessions, connections, config } = services;
  const { addressLinks, mailer, logger } = services;
  const platformName = new URL(config.baseUrl).host;
  /** Issue #30 item 6 (DESIGN D5): the same work whether or not the address has an account. */
  const requestReset = async (email: string): Promise<void> => {
    const [userId, link] = await Promise.all([accounts.userIdByEmail(email), addressLinks.issue(email, 'reset')]);
    try {
      if (userId)
        await mailer.sendAddressLink(email, {
          purpose: 'reset',
          siteName: sitesNamed(
            (await accounts.membershipsOf(userId)).map((m) => m.site.name),
            platformName,
          ),
          link: setPasswordUrl(config.baseUrl, link.token),
          expiresAt: link.expiresAt,
        });
      else await mailer.sendNoAccountNotice(email, platformName);
    } catch (err) {
      logger.warn(
        { event: 'reset_link_not_sent', domain: email.split('@')[1], err: { message: (err as Error).message } },
        'password reset e-mail not sent',
      );
      throw err;
    }
  };
  const web = routerStep(
    webRouter({
      accounts,
      sessions,
      connections,
      baseUrl: config.baseUrl,
      docsUrl: config.docsUrl,
      requestReset,
      mailBudget: services.mailBudget,
      signInEvents: services.signInEvents,
      logger,
      // Issue 30: signing out here also ends the authorization pages' session (oidc-provider's `_session`).
      endProviderSession: async (ctx) => {
        const session = await services.provider.Session.get(ctx);
        if (session.accountId) await session.destroy();
      },
    }),
  );
  const setPassword = routerStep(
    setPasswordRouter({
      links: services.oneTimeLinks,
      addressLinks: services.addressLinks,
      invitations: services.invitations,
      revokeGrantsOf: (userId, reason) => connections.revokeAllOf(userId, reason),
      csrf: services.csrf,
      logger: services.logger,
    }),
  );
  const operatorRouter = adminRouter({
    accounts,
    sessions,
    analytics: services.admin.operator.analytics,
    services: services.admin,
    baseUrl: config.baseUrl,
  });
  const operatorArea = routerStep(operatorRouter);
  const answerMethodNotAllowed = methodNotAllowedOf(operatorRouter);
  return {
    home: pipeline(web),
    signin: pipeline(web),
    signout: pipeline(web),
    account_connections: pipeline(web),
    account_connections_revoke: pipeline(web),
    set_password: pipeline(setPassword),
    admin: pipeline(operatorArea),
    admin_pages: pipeline(operatorArea, answerMethodNotAllowed),
  };
}
