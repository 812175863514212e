/**
 * Pipelines of the people's pages (issue 11, DESIGN D11): home `/`, `/signin` (failed-login limit
 * reserved before the password check), `/signout`, `/account/connections` (connected apps),
 * `/set-password` (one-time links) and the operator area `/admin/*`. Each family keeps its small
 * router (src/operator/*), which reads its forms under 64 KiB and checks the session + CSRF field.
 */
import { webRouter } from '../operator/web-routes.js';
import { setPasswordRouter } from '../operator/set-password.js';
import { adminRouter } from '../operator/admin-routes.js';
import type { Services } from '../compose.js';
import { methodNotAllowedOf, pipeline, routerStep, type Pipelines } from './pipeline.js';
import type { SharedSteps } from './steps.js';

/** The people family's pipelines. */
export function peoplePipelines(services: Services, { limitBody }: SharedSteps): Pipelines {
  const { accounts, sessions, connections, config, limits } = services;
  const web = routerStep(webRouter({
    accounts, sessions, connections, baseUrl: config.baseUrl, docsUrl: config.docsUrl, reserveLogin: limits.reserveLogin, releaseLogin: limits.releaseLogin,
    // Issue 30: signing out here also ends the authorization pages' session (oidc-provider's `_session`).
    endProviderSession: async (ctx) => {
      const session = await services.provider.Session.get(ctx);
      if (session.accountId) await session.destroy();
    },
  }));
  const setPassword = routerStep(setPasswordRouter({ links: services.oneTimeLinks, csrf: services.csrf }));
  const operatorRouter = adminRouter({
    accounts,
    sessions,
    analytics: services.admin.operator.analytics,
    siteSettings: services.siteSettings,
    memberClients: services.memberClients,
    connections,
    audit: services.audit,
    people: services.admin.operator.people,
    invitations: services.invitations,
    baseUrl: config.baseUrl,
  });
  const operatorArea = routerStep(operatorRouter);
  const answerMethodNotAllowed = methodNotAllowedOf(operatorRouter);
  return {
    home: pipeline(web),
    signin: pipeline(limitBody, web),
    signout: pipeline(limitBody, web),
    account_connections: pipeline(web),
    account_connections_revoke: pipeline(limitBody, web),
    set_password: pipeline(limitBody, setPassword),
    admin: pipeline(operatorArea),
    admin_pages: pipeline(limitBody, operatorArea, answerMethodNotAllowed),
  };
}
