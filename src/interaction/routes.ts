/**
 * Interaction pages (DESIGN.md §1, D2, D5; test-automation contract §3): login, site picker and
 * consent for oidc-provider's `login` and `consent` prompts.
 *
 * GET  /interaction/:uid          login page, or (signed in) site picker / consent page
 * POST /interaction/:uid/login    `email`, `password`                  → finish the login prompt
 * POST /interaction/:uid/site     `org_id`                             → consent page for that site
 * POST /interaction/:uid/consent  `org_id`, `decision` = approve|deny  → grant and finish, or access_denied
 *
 * The site is chosen per authorization (DESIGN D5): the user signs in once per browser session,
 * and each grant records the site it was given for (`SiteChoices`).
 *
 * Every POST carries a `csrf` field bound to the interaction (HMAC, constant-time check) on top of
 * the interaction cookie (HttpOnly, SameSite=Lax). Rules enforced here:
 * - a member client is authorized only by users with a role at its own site (D2);
 * - operator scopes only for users with an operator role at the chosen site (D2) → access_denied.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import type { Accounts, SiteMembership } from '../platform/accounts.js';
import { isOperator } from '../platform/accounts.js';
import { recordSignIn, type SignInAttempt, type SignInEvents, type SignInOutcome } from '../platform/sign-in-events.js';
import { parseForm as form, formBody } from '../http/body.js';
import { failureCountOf } from '../http/failure-count.js';
import { CLIENT_KINDS, CLIENT_ORG_PROPERTY, kindOf } from '../domain/client-kinds.js';
import { clientMetadata } from '../domain/client-metadata.js';
import { isLoopbackRedirectUri } from '../http/loopback.js';
import { IDENTITY_SCOPES, IMPLIES, OPERATOR_SCOPES, RESOURCE_SCOPES, SCOPES, parseScope } from '../domain/scopes.js';
import type { CsrfTokens } from '../http/csrf.js';
import { HttpError, InvalidRequest } from '../errors/catalogue.js';
import { consentPage, loginPage, sitePickerPage } from './templates.js';
import type { Logger } from 'pino';
import type { AuditTrail } from '../platform/audit.js';
import type { ConnectedGrants } from '../platform/connected-grants.js';

/**
 * Records the site chosen for a grant (DESIGN D5); `SiteChoices` in src/oauth/account.ts keeps it
 * in the provider's store. Declared here so that the interaction layer needs nothing of `src/oauth`.
 */
export interface SiteChoiceRecorder {
  record(grantId: string, siteId: string): Promise<void>;
}

/** What the interaction pages need: the provider, platform accounts, site choices, the CSRF tokens, and the D7 login-limit hooks. */
export interface InteractionDeps {
  provider: Provider;
  accounts: Accounts;
  siteChoices: SiteChoiceRecorder;
  csrf: CsrfTokens;
  logger: Logger;
  /** DESIGN D10: consents are recorded in the audit trail. */
  audit?: AuditTrail;
  /** Connected apps: each grant is indexed by site and user. */
  grants?: ConnectedGrants;
  baseUrl: string;
  // DESIGN D7: the failed-login point is the `login` row's (route table `rateLimit.on: 'failure'`),
  // taken with `failureCountOf(ctx)` (src/http/failure-count.ts).
  /**
   * Starts the people's pages' session (`cg_web`, src/operator/session.ts) for a user who just
   * proved their password here, so /account/connections right after an authorization does not ask
   * to sign in again (issue 30 item 10). The oidc-provider session and this one are separate cookies.
   */
  startWebSession?: (ctx: Context, userId: string) => unknown;
  /** DESIGN D14: sign-in attempts in the audit trail of the person's sites. */
  signInEvents?: Pick<SignInEvents, 'record'>;
}

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

/** A scope's description on the consent page, followed by what it implies that is not asked for itself. */
function withImplied(scope: string, requested: readonly string[]): string {
  const implied = (IMPLIES[scope] ?? []).filter((s) => !requested.includes(s) && SCOPES[s]);
  const own = SCOPES[scope]!;
  return implied.length === 0 ? own : `${own} (includes: ${implied.map((s) => SCOPES[s]).join('; ')})`;
}

/** Sites where a user may act for this client: its own site for member clients, else every site of the user. */
function eligibleSites(memberships: SiteMembership[], clientOrg: string | undefined): SiteMembership[] {
  return clientOrg ? memberships.filter((m) => m.site.id === clientOrg) : memberships;
}

/** Builds the router of the interaction pages. */
export function interactionRouter(deps: InteractionDeps): Router {
  const { provider, accounts, csrf, logger } = deps;
  const router = new Router();

  /**
   * The interaction of this browser's `_interaction` cookie, when it is the one the URL names.
   * oidc-provider finds the interaction by the cookie alone, so an unknown or expired `:uid` next to
   * another interaction's live cookie would otherwise show that one's page with 200. DESIGN D8:
   * every such case (no cookie, expired, unknown or mismatched uid) is the readable error page, 400.
   * @throws InvalidRequest (400, rendered by the html surface) in those cases
   */
  async function details(ctx: Context): Promise<Details> {
    ctx.set('Cache-Control', 'no-store');
    try {
      const d = await provider.interactionDetails(ctx.req, ctx.res);
      if (d.uid === (ctx.params as { uid?: string }).uid) return d;
    } catch {
      // SessionNotFound: no cookie, or the interaction expired / was finished.
    }
    throw new InvalidRequest(
      'This sign-in session has expired or was opened in another browser. Start again from the application.',
    );
  }

  async function clientOf(d: Details) {
    const client = await provider.Client.find(String(d.params.client_id));
    if (!client) throw new Error('interaction client vanished');
    const metadata = clientMetadata(client);
    const kind = kindOf(metadata);
    const org = kind === 'member' ? (metadata[CLIENT_ORG_PROPERTY] as string | undefined) : undefined;
    return { client, name: client.clientName ?? client.clientId, kind, org };
  }

  /** @throws InvalidRequest 403 when the form's CSRF field is not this interaction's */
  function checkCsrf(ctx: Context, uid: string): void {
    if (!csrf.verify(uid, formBody(ctx).csrf)) {
      throw new InvalidRequest('The form has expired or did not come from this page. Go back and try again.', {
        status: 403,
      });
    }
  }

  async function finish(ctx: Context, result: Record<string, unknown>, merge = false): Promise<void> {
    const redirectTo = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: merge });
    ctx.redirect(redirectTo);
    ctx.status = 303;
  }

  async function deny(ctx: Context, description: string): Promise<void> {
    await finish(ctx, { error: 'access_denied', error_description: description });
  }

  /** The signed-in user's sites this client may act at. */
  async function sitesFor(d: Details): Promise<SiteMembership[]> {
    const { org } = await clientOf(d);
    return eligibleSites(await accounts.membershipsOf(String(d.session?.accountId)), org);
  }

  /**
   * The same authorization request with `prompt=login` (OIDC Core §3.1.2.1): the "Not you?" link
   * of the site picker and consent pages signs in as someone else without JavaScript.
   */
  const switchAccountUrl = (d: Details): string => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(d.params)) if (typeof v === 'string' && k !== 'prompt') query.set(k, v);
    query.set('prompt', 'login');
    return `/oauth/authorize?${query}`;
  };

  /** Scopes of this user's earlier grants to this client (undefined: none, a first authorization). */
  async function earlierScopes(userId: string, clientId: string): Promise<Set<string> | undefined> {
    const rows = (await deps.grants?.ofUser(userId))?.filter((g) => g.clientId === clientId) ?? [];
    return rows.length ? new Set(rows.flatMap((g) => [...parseScope(g.scope)])) : undefined;
  }

  /**
   * The live grant this user gave this client at this site with exactly the identity scopes of
   * `requested`, and its recorded scope; undefined when there is none. Rows whose grant expired or
   * was revoked elsewhere are forgotten on the way.
   */
  const requestedScopes = (d: Details): string[] =>
    [...parseScope(String(d.params.scope ?? ''))].filter((s) => s in SCOPES);

  /** DESIGN D2: operator scopes need an operator role at the chosen site. */
  const operatorRoleMissing = (d: Details, site: SiteMembership): boolean =>
    requestedScopes(d).some((s) => OPERATOR_SCOPES.has(s)) && !isOperator(site.roles);

  async function showConsent(ctx: Context, d: Details, site: SiteMembership): Promise<void> {
    if (operatorRoleMissing(d, site))
      return deny(ctx, `operator scopes need an owner or admin role at ${site.site.name}`);
    const { client, name, kind } = await clientOf(d);
    const user = await accounts.findUser(String(d.session?.accountId));
    const before = await earlierScopes(String(d.session?.accountId), String(d.params.client_id));
    const redirectUri = String(d.params.redirect_uri ?? '');
    // A catalogue client's loopback callback can be any program on this computer: it is verified
    // only when its https callback is used.
    const shownKind = kind === 'vendor' && isLoopbackRedirectUri(redirectUri) ? 'loopback' : kind;
    const cimd = kind === 'cimd' || kind === 'cimd_reviewed';
    ctx.type = 'html';
    ctx.body = consentPage({
      action: `/interaction/${d.uid}/consent`,
      csrf: csrf.issue(d.uid),
      orgId: site.site.id,
      clientName: name,
      clientKind: CLIENT_KINDS[shownKind].label,
      clientDetail: cimd ? `described at ${new URL(String(d.params.client_id)).host}` : undefined,
      redirectHost: URL.parse(redirectUri)?.hostname,
      // MCP 2026-07-28 security considerations: warn when a document's every redirect is local.
      localOnly: cimd && !!client.redirectUris?.length && client.redirectUris.every(isLoopbackRedirectUri),
      siteName: site.site.name,
      userEmail: user?.email ?? '',
      // DESIGN D4: `X:write` implies `X:read`, so a write scope's line also names the read access
      // it carries when that scope is not listed on its own.
      scopes: requestedScopes(d).map((scope, _i, all) => ({
        scope,
        description: withImplied(scope, all),
        isNew: before ? !before.has(scope) : false,
      })),
      unverified: shownKind === 'loopback' || shownKind === 'cimd',
      switchAccountUrl: switchAccountUrl(d),
    });
  }

  router.get('/interaction/:uid', async (ctx) => {
    const d = await details(ctx);
    const { name } = await clientOf(d);
    if (d.prompt.name === 'login') {
      ctx.type = 'html';
      ctx.body = loginPage({ action: `/interaction/${d.uid}/login`, csrf: csrf.issue(d.uid), clientName: name });
      return;
    }
    if (d.prompt.name !== 'consent') throw new InvalidRequest(`Unsupported step: ${d.prompt.name}`);
    const sites = await sitesFor(d);
    if (sites.length === 0) return deny(ctx, 'the user has no role at a site this application may act at');
    if (sites.length === 1) return showConsent(ctx, d, sites[0]!);
    ctx.type = 'html';
    ctx.body = sitePickerPage({
      action: `/interaction/${d.uid}/site`,
      csrf: csrf.issue(d.uid),
      clientName: name,
      sites: sites.map((m) => ({ id: m.site.id, name: m.site.name, roles: m.roles })),
      userEmail: (await accounts.findUser(String(d.session?.accountId)))?.email,
      switchAccountUrl: switchAccountUrl(d),
    });
  });

  router.post('/interaction/:uid/login', form, async (ctx) => {
    const d = await details(ctx);
    checkCsrf(ctx, d.uid);
    if (d.prompt.name !== 'login') throw new InvalidRequest('You are already signed in.');
    const body = formBody(ctx);
    const email = typeof body.email === 'string' ? body.email.slice(0, 320) : '';
    const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
    const { name, org } = await clientOf(d);
    const showLogin = (error: string, status: number) => {
      ctx.status = status;
      ctx.type = 'html';
      ctx.body = loginPage({
        action: `/interaction/${d.uid}/login`,
        csrf: csrf.issue(d.uid),
        clientName: name,
        email,
        error,
      });
    };
    if (!email || !password) return showLogin('Enter your e-mail and password.', 400);
    const clientId = String(d.params.client_id);
    const audited = (outcome: SignInOutcome, attempt: Partial<SignInAttempt> = {}) =>
      recordSignIn(deps.signInEvents, logger, outcome, {
        email,
        clientId,
        page: 'authorization',
        address: ctx.ip,
        ...attempt,
      });
    try {
      await failureCountOf(ctx).reserve(email);
    } catch (err) {
      // DESIGN D7: a locked-out account + IP sees why on the login page itself.
      if (!(err instanceof HttpError) || err.status !== 429) throw err;
      for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
      audited('lockout', { retryAfterSeconds: Number(err.headers['Retry-After'] ?? 60) });
      return showLogin(err.description, 429);
    }
    const user = await accounts.authenticate(email, password);
    if (!user) {
      logger.info({ event: 'login_failed', uid: d.uid }, 'login failed');
      audited('failure');
      return showLogin('Wrong e-mail or password.', 401);
    }
    await failureCountOf(ctx).release(email);
    const sites = eligibleSites(await accounts.membershipsOf(user.id), org);
    if (sites.length === 0) {
      return deny(
        ctx,
        org ? 'this application belongs to a site where the user has no role' : 'the user has no role at any site',
      );
    }
    logger.info({ event: 'login', uid: d.uid, sub: user.id }, 'login succeeded');
    audited('success', { userId: user.id });
    await deps.startWebSession?.(ctx, user.id);
    await finish(ctx, { login: { accountId: user.id, amr: ['pwd'] } });
  });

  router.post('/interaction/:uid/site', form, async (ctx) => {
    const d = await details(ctx);
    checkCsrf(ctx, d.uid);
    if (d.prompt.name !== 'consent') throw new InvalidRequest('Sign in first.');
    const chosen = (await sitesFor(d)).find((m) => m.site.id === formBody(ctx).org_id);
    if (!chosen) throw new InvalidRequest('Choose one of the listed sites.');
    await showConsent(ctx, d, chosen);
  });

  router.post('/interaction/:uid/consent', form, async (ctx) => {
    const d = await details(ctx);
    checkCsrf(ctx, d.uid);
    if (d.prompt.name !== 'consent') throw new InvalidRequest('Nothing to consent to.');
    const body = formBody(ctx);
    if (body.decision === 'deny') return deny(ctx, 'the user denied the request');
    if (body.decision !== 'approve') throw new InvalidRequest('Choose Allow or Deny.');
    const site = (await sitesFor(d)).find((m) => m.site.id === body.org_id);
    if (!site) throw new InvalidRequest('The chosen site is not available to this application.');
    if (operatorRoleMissing(d, site))
      return deny(ctx, `operator scopes need an owner or admin role at ${site.site.name}`);

    // Each authorization is a grant of its own (one per device or chain of refresh tokens), as
    // oidc-provider makes it: revoking one (RFC 7009 revocation of its refresh token, a detected
    // reuse) ends that one only, and a retry after a failover is answered within its own chain.
    // Revocations of a user's, client's or site's grants reach every grant, in batches, so their
    // number never caps a revocation (src/platform/connected-grants.ts).
    const accountId = String(d.session!.accountId);
    const clientId = String(d.params.client_id);
    const scopes = requestedScopes(d);
    const grant = new provider.Grant({ accountId, clientId });
    grant.addOIDCScope(scopes.join(' '));
    const missing = d.prompt.details as { missingOIDCClaims?: string[] };
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const resource = typeof d.params.resource === 'string' ? d.params.resource : deps.baseUrl;
    const resourceScopes = scopes.filter((s) => RESOURCE_SCOPES.includes(s));
    if (resourceScopes.length > 0) grant.addResourceScope(resource, resourceScopes.join(' '));
    const grantId = await grant.save();
    // Recorded again for a grant saved again: the site choice lives as long as the grant it names.
    await deps.siteChoices.record(grantId, site.site.id);
    await deps.grants?.record({
      grantId,
      siteId: site.site.id,
      clientId,
      userId: accountId,
      scope: scopes.join(' '),
    });
    logger.info(
      { event: 'consent', uid: d.uid, client_id: clientId, sub: accountId, org_id: site.site.id },
      'consent given',
    );
    await deps.audit?.record({
      kind: 'consent',
      siteId: site.site.id,
      clientId,
      userId: accountId,
      detail: `scope=${scopes.join(' ')}`,
    });
    await finish(ctx, { consent: { grantId } }, true);
  });

  return router;
}
