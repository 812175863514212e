/**
 * Membership plans and subscriptions (SPEC §2.5 `membership_plans:*`, `subscriptions:*`): a plan
 * is a recurring price (integer minor units + ISO 4217 currency, monthly or yearly) that includes
 * some courses of the site; a subscription puts a person who has a role at the site on a plan for
 * a billing period. Knows nothing of HTTP or payment providers. Rows of another site are "not
 * found"; people are never looked up across the platform (DESIGN D5).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { PlatformError, notFound } from './errors.js';
import {
  afterNewestFirst,
  clampPageSize,
  decodeCursor,
  keysetPage,
  MAX_ADMIN_PAGE_SIZE,
  type KeysetPage,
  type KeysetRequest,
} from './paging.js';

/** Table `membership_plans` (migration `0019_membership_plans_products`). */
export interface MembershipPlansTable {
  id: string;
  site_id: string;
  name: string;
  price_minor: number;
  currency: string;
  /** `month` or `year`. */
  billing_interval: string;
  /** JSON array of course slugs of the site. */
  course_slugs: string;
  /** `active` or `archived`. */
  status: string;
  created_at: string;
  updated_at: string;
}

/** Table `subscriptions` (migration `0019_membership_plans_products`). */
export interface SubscriptionsTable {
  id: string;
  site_id: string;
  plan_id: string;
  user_id: string;
  /** `active`, `past_due` or `cancelled`. */
  status: string;
  current_period_start: string;
  current_period_end: string;
  cancelled_at: string | null;
  created_at: string;
}

type MembershipDatabase = PlatformDatabase & {
  membership_plans: MembershipPlansTable;
  subscriptions: SubscriptionsTable;
};

export const BILLING_INTERVALS = ['month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];
export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** A plan as operators see it. `priceMinor` is in minor units (cents) of `currency`. */
export interface MembershipPlan {
  id: string;
  name: string;
  priceMinor: number;
  currency: string;
  interval: BillingInterval;
  courseSlugs: string[];
  status: 'active' | 'archived';
  createdAt: string;
  updatedAt: string;
}

/** A person on a plan. Period bounds are ISO 8601 UTC. */
export interface Subscription {
  id: string;
  planId: string;
  email: string;
  name: string;
  status: SubscriptionStatus;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelledAt: string | null;
  createdAt: string;
}

export interface PlanInput {
  name: string;
  priceMinor: number;
  currency: string;
  interval: BillingInterval;
  courseSlugs?: string[];
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/**
 * Checks a price (shared with digital products).
 * @throws PlatformError `invalid` naming `priceMinor` or `currency`
 */
export function checkPrice(priceMinor: number, currency: string): string {
  if (!Number.isInteger(priceMinor) || priceMinor < 0 || priceMinor > 100_000_000)
    throw new PlatformError('invalid', 'priceMinor must be a whole number of minor units, 0–100000000', {
      field: 'priceMinor',
    });
  const code = currency.toUpperCase();
  if (!/^[A-Z]{3}$/.test(code) || !CURRENCIES.has(code))
    throw new PlatformError('invalid', `currency "${currency}" is not an ISO 4217 code`, { field: 'currency' });
  return code;
}

/**
 * The end of a billing period that starts at `start`: the same day and time one calendar month or
 * year later (UTC), or the last day of that month when it is shorter (Jan 31 → Feb 28).
 */
export function periodEnd(start: Date, interval: BillingInterval): Date {
  const months = interval === 'year' ? 12 : 1;
  const end = new Date(start);
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  return end;
}

const plan = (r: MembershipPlansTable): MembershipPlan => ({
  id: r.id,
  name: r.name,
  priceMinor: Number(r.price_minor),
  currency: r.currency,
  interval: r.billing_interval === 'year' ? 'year' : 'month',
  courseSlugs: JSON.parse(r.course_slugs) as string[],
  status: r.status === 'archived' ? 'archived' : 'active',
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Membership plans and subscriptions of a site. */
export class Memberships {
  private readonly db: Kysely<MembershipDatabase>;
  constructor(db: Kysely<PlatformDatabase>) {
    this.db = db as unknown as Kysely<MembershipDatabase>;
  }

  /** Plans of the site, oldest first, optionally of one status. */
  async plans(siteId: string, status?: 'active' | 'archived'): Promise<MembershipPlan[]> {
    let q = this.db.selectFrom('membership_plans').selectAll().where('site_id', '=', siteId);
    if (status) q = q.where('status', '=', status);
    return (await q.orderBy('created_at').orderBy('id').execute()).map(plan);
  }

  /**
   * One page of the site's plans in the order of {@link plans} (oldest first, then id), optionally
   * of one status (issue #29: "Keyset pagination in SQL for every list (no in-memory paging, no row
   * cap: every row reachable by cursor)"; keyset on `membership_plans_site_created` /
   * `membership_plans_site_status`, migration 0028).
   * @param options `limit` 1…MAX_ADMIN_PAGE_SIZE (clamped), `cursor` of an earlier page, `status`
   * @throws PlatformError `invalid` (field `cursor`) for a cursor of another list
   */
  async plansPage(
    siteId: string,
    options: KeysetRequest & { status?: 'active' | 'archived' },
  ): Promise<KeysetPage<MembershipPlan>> {
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    let q = this.db
      .selectFrom('membership_plans')
      .selectAll()
      .where('site_id', '=', siteId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit + 1);
    if (options.status) q = q.where('status', '=', options.status);
    if (options.cursor !== undefined) {
      const [createdAt, id] = decodeCursor(options.cursor, 2) as [string, string];
      q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(createdAt, id)));
    }
    return keysetPage(await q.execute(), limit, (r) => [r.created_at, r.id], plan);
  }

  /** @throws PlatformError `not_found` */
  async plan(siteId: string, planId: string): Promise<MembershipPlan> {
    const row = await this.db
      .selectFrom('membership_plans')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('id', '=', planId)
      .executeTakeFirst();
    if (!row) throw notFound('membership plan', planId);
    return plan(row);
  }

  /** Creates an active plan. @throws PlatformError `invalid` (price, currency, interval, course slugs) */
  async createPlan(siteId: string, input: PlanInput, now = new Date()): Promise<MembershipPlan> {
    const currency = checkPrice(input.priceMinor, input.currency);
    if (!(BILLING_INTERVALS as readonly string[]).includes(input.interval))
      throw new PlatformError('invalid', 'interval must be month or year', { field: 'interval' });
    const courseSlugs = await this.checkCourses(siteId, input.courseSlugs ?? []);
    const at = now.toISOString();
    const id = `pln_${randomUUID()}`;
    await this.db
      .insertInto('membership_plans')
      .values({
        id,
        site_id: siteId,
        name: input.name,
        price_minor: input.priceMinor,
        currency,
        billing_interval: input.interval,
        course_slugs: JSON.stringify(courseSlugs),
        status: 'active',
        created_at: at,
        updated_at: at,
      })
      .execute();
    return this.plan(siteId, id);
  }

  /**
   * Changes name, price or included courses (the interval is fixed: subscribers' periods depend on it).
   * @throws PlatformError `not_found`, `invalid`
   */
  async updatePlan(
    siteId: string,
    planId: string,
    patch: { name?: string; priceMinor?: number; currency?: string; courseSlugs?: string[] },
    now = new Date(),
  ): Promise<MembershipPlan> {
    const current = await this.plan(siteId, planId);
    const currency = checkPrice(patch.priceMinor ?? current.priceMinor, patch.currency ?? current.currency);
    const set: Partial<MembershipPlansTable> = { currency, updated_at: now.toISOString() };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.priceMinor !== undefined) set.price_minor = patch.priceMinor;
    if (patch.courseSlugs !== undefined)
      set.course_slugs = JSON.stringify(await this.checkCourses(siteId, patch.courseSlugs));
    await this.db
      .updateTable('membership_plans')
      .set(set)
      .where('site_id', '=', siteId)
      .where('id', '=', planId)
      .execute();
    return this.plan(siteId, planId);
  }

  /** Archives a plan: nobody new can subscribe; current subscriptions go on (idempotent). @throws PlatformError `not_found` */
  async archivePlan(siteId: string, planId: string, now = new Date()): Promise<MembershipPlan> {
    await this.plan(siteId, planId);
    await this.db
      .updateTable('membership_plans')
      .set({ status: 'archived', updated_at: now.toISOString() })
      .where('site_id', '=', siteId)
      .where('id', '=', planId)
      .where('status', '<>', 'archived')
      .execute();
    return this.plan(siteId, planId);
  }

  /** Subscriptions of the site, newest first, optionally of one plan and/or status. */
  async subscriptions(
    siteId: string,
    filter: { planId?: string; status?: SubscriptionStatus } = {},
  ): Promise<Subscription[]> {
    let q = this.subscriptionQuery(siteId);
    if (filter.planId) q = q.where('subscriptions.plan_id', '=', filter.planId);
    if (filter.status) q = q.where('subscriptions.status', '=', filter.status);
    return (await q.orderBy('subscriptions.created_at', 'desc').orderBy('subscriptions.id').execute()).map((r) =>
      this.subscription(r),
    );
  }

  /**
   * One page of the site's subscriptions in the order of {@link subscriptions} (newest first, then
   * id ascending), optionally of one plan and/or status (issue #29: "Keyset pagination in SQL for
   * every list (no in-memory paging, no row cap: every row reachable by cursor)"; keyset on
   * `subscriptions_site_created`, `_plan`, `_status` or `_plan_status`, migration 0028).
   * @param options `limit` 1…MAX_ADMIN_PAGE_SIZE (clamped), `cursor` of an earlier page, `planId`, `status`
   * @throws PlatformError `invalid` (field `cursor`) for a cursor of another list
   */
  async subscriptionsPage(
    siteId: string,
    options: KeysetRequest & { planId?: string; status?: SubscriptionStatus },
  ): Promise<KeysetPage<Subscription>> {
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    let q = this.subscriptionQuery(siteId)
      .orderBy('subscriptions.created_at', 'desc')
      .orderBy('subscriptions.id')
      .limit(limit + 1);
    if (options.planId) q = q.where('subscriptions.plan_id', '=', options.planId);
    if (options.status) q = q.where('subscriptions.status', '=', options.status);
    if (options.cursor !== undefined)
      q = q.where(afterNewestFirst('subscriptions.created_at', 'subscriptions.id', options.cursor));
    return keysetPage(
      await q.execute(),
      limit,
      (r) => [r.created_at, r.id],
      (r) => this.subscription(r),
    );
  }

  /** @throws PlatformError `not_found` */
  async getSubscription(siteId: string, subscriptionId: string): Promise<Subscription> {
    const row = await this.subscriptionQuery(siteId).where('subscriptions.id', '=', subscriptionId).executeTakeFirst();
    if (!row) throw notFound('subscription', subscriptionId);
    return this.subscription(row);
  }

  /**
   * Puts a person who has a role at the site on an active plan; the first period starts now.
   * @throws PlatformError `not_found` (plan; nobody with that e-mail has a role here, whether or
   *   not they exist elsewhere), `conflict` (plan archived; already subscribed to it)
   */
  async subscribe(siteId: string, input: { email: string; planId: string }, now = new Date()): Promise<Subscription> {
    const target = await this.plan(siteId, input.planId).catch((err: unknown) => {
      throw err instanceof PlatformError ? new PlatformError('not_found', err.message, { field: 'planId' }) : err;
    });
    if (target.status === 'archived')
      throw new PlatformError('conflict', `membership plan "${target.id}" is archived; nobody new can subscribe`, {
        field: 'planId',
      });
    const user = await this.db
      .selectFrom('users')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .select('users.id as id')
      .where('users.email', '=', input.email.trim().toLowerCase())
      .where('memberships.site_id', '=', siteId)
      .executeTakeFirst();
    if (!user)
      throw new PlatformError(
        'not_found',
        `nobody with the e-mail "${input.email}" has a role at this site; invite them first`,
        { field: 'email' },
      );
    const id = `sub_${randomUUID()}`;
    const taken = new PlatformError('conflict', `${input.email} already has a live subscription to this plan`, {
      field: 'email',
    });
    const live = await this.db
      .selectFrom('subscriptions')
      .select('id')
      .where('site_id', '=', siteId)
      .where('plan_id', '=', target.id)
      .where('user_id', '=', user.id)
      .where('status', '<>', 'cancelled')
      .executeTakeFirst();
    if (live) throw taken;
    try {
      await this.db
        .insertInto('subscriptions')
        .values({
          id,
          site_id: siteId,
          plan_id: target.id,
          user_id: user.id,
          status: 'active',
          current_period_start: now.toISOString(),
          current_period_end: periodEnd(now, target.interval).toISOString(),
          cancelled_at: null,
          created_at: now.toISOString(),
        })
        .execute();
    } catch (err) {
      // The partial unique index `subscriptions_live` caught a concurrent subscribe.
      const code = String((err as { code?: unknown }).code ?? '');
      if (code === '23505' || code.startsWith('SQLITE_CONSTRAINT')) throw taken;
      throw err;
    }
    return this.getSubscription(siteId, id);
  }

  /** Cancels a subscription now (idempotent: the first cancellation time stays). @throws PlatformError `not_found` */
  async cancel(siteId: string, subscriptionId: string, now = new Date()): Promise<Subscription> {
    await this.getSubscription(siteId, subscriptionId);
    await this.db
      .updateTable('subscriptions')
      .set({ status: 'cancelled', cancelled_at: now.toISOString() })
      .where('site_id', '=', siteId)
      .where('id', '=', subscriptionId)
      .where('status', '<>', 'cancelled')
      .execute();
    return this.getSubscription(siteId, subscriptionId);
  }

  private subscriptionQuery(siteId: string) {
    return this.db
      .selectFrom('subscriptions')
      .innerJoin('users', 'users.id', 'subscriptions.user_id')
      .selectAll('subscriptions')
      .select(['users.email as email', 'users.name as user_name'])
      .where('subscriptions.site_id', '=', siteId);
  }

  private subscription(r: SubscriptionsTable & { email: string; user_name: string }): Subscription {
    return {
      id: r.id,
      planId: r.plan_id,
      email: r.email,
      name: r.user_name,
      status: (SUBSCRIPTION_STATUSES as readonly string[]).includes(r.status)
        ? (r.status as SubscriptionStatus)
        : 'active',
      currentPeriodStart: r.current_period_start,
      currentPeriodEnd: r.current_period_end,
      cancelledAt: r.cancelled_at,
      createdAt: r.created_at,
    };
  }

  /** @throws PlatformError `invalid` naming `courseSlugs` when a slug is no course of this site */
  private async checkCourses(siteId: string, slugs: string[]): Promise<string[]> {
    const unique = [...new Set(slugs)];
    if (unique.length === 0) return [];
    const found = await this.db
      .selectFrom('courses')
      .select('slug')
      .where('site_id', '=', siteId)
      .where('slug', 'in', unique)
      .execute();
    const known = new Set(found.map((c) => c.slug));
    const missing = unique.filter((s) => !known.has(s));
    if (missing.length > 0)
      throw new PlatformError('invalid', `courseSlugs: no course "${missing[0]}" at this site`, {
        field: 'courseSlugs',
      });
    return unique;
  }
}
