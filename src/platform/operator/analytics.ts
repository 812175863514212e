/**
 * Site analytics for operators (SPEC §2.5 `analytics:read`): counts computed at `now` from the
 * platform tables. Revenue counts `paid` orders only, per currency, in minor units.
 */
import type { Kysely } from 'kysely';
import type { OperatorDatabase } from './schema.js';

export interface SiteAnalytics {
  /** ISO 8601 UTC: when the figures were computed. */
  asOf: string;
  courses: { total: number; public: number };
  members: { total: number; byRole: Record<string, number> };
  enrollments: { total: number; active: number; expired: number; lifetime: number };
  orders: { total: number; byStatus: Record<string, number> };
  revenue: Array<{ currency: string; paidMinor: number }>;
  eventRegistrations: { total: number; byStatus: Record<string, number> };
  /** Members with playback progress recorded in the 30 days before `asOf`. */
  activeLearners30d: number;
}

/** Site analytics for operators (analytics:read): counts and paid revenue per currency. */
export class AnalyticsAdmin {
  /**
   * @param db where the aggregates run: on the embedded store the long-read worker
   *   (src/store/worker-reader.ts, issue #29), so a big site's counts never hold the event loop
   */
  constructor(private readonly db: Kysely<OperatorDatabase>) {}

  /**
   * The figures of one site, each an aggregate computed by the store (issue #29: no row of the site
   * is brought into JavaScript; each count walks one index of the site). An enrollment is active
   * by the rule of `accessActive` (src/platform/enrollments.ts): lifetime access, no expiry, or an
   * expiry after `now` (expiries are stored as `Date.toISOString()`, so ISO strings compare as
   * instants).
   */
  async summary(siteId: string, now = new Date()): Promise<SiteAnalytics> {
    const nowIso = now.toISOString();
    const since = new Date(now.getTime() - 30 * 86_400_000).toISOString();
    const n = (v: unknown): number => Number(v ?? 0);
    const [courses, members, roles, enrollments, orders, revenue, registrations, learners] = await Promise.all([
      this.db
        .selectFrom('courses')
        .select((eb) => [
          eb.fn.countAll().as('total'),
          eb.fn.sum(eb.case().when('is_public', '=', 1).then(1).else(0).end()).as('public'),
        ])
        .where('site_id', '=', siteId)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('memberships')
        .select((eb) => eb.fn.count('user_id').distinct().as('total'))
        .where('site_id', '=', siteId)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('memberships')
        .select((eb) => ['role as key', eb.fn.countAll().as('n')])
        .where('site_id', '=', siteId)
        .groupBy('role')
        .execute(),
      this.db
        .selectFrom('enrollments')
        .select((eb) => [
          eb.fn.countAll().as('total'),
          eb.fn
            .sum(
              eb
                .case()
                .when(eb.or([eb('lifetime_access', '=', 1), eb('expires_at', 'is', null)]))
                .then(1)
                .else(0)
                .end(),
            )
            .as('lifetime'),
          eb.fn
            .sum(
              eb
                .case()
                .when(
                  eb.or([eb('lifetime_access', '=', 1), eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]),
                )
                .then(1)
                .else(0)
                .end(),
            )
            .as('active'),
        ])
        .where('site_id', '=', siteId)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('orders')
        .select((eb) => ['status as key', eb.fn.countAll().as('n')])
        .where('site_id', '=', siteId)
        .groupBy('status')
        .execute(),
      this.db
        .selectFrom('orders')
        .select((eb) => ['currency', eb.fn.sum<number>('total_minor').as('paid')])
        .where('site_id', '=', siteId)
        .where('status', '=', 'paid')
        .groupBy('currency')
        .orderBy('currency')
        .execute(),
      this.db
        .selectFrom('event_registrations')
        .select((eb) => ['status as key', eb.fn.countAll().as('n')])
        .where('site_id', '=', siteId)
        .groupBy('status')
        .execute(),
      this.db
        .selectFrom('lecture_progress')
        .select((eb) => eb.fn.count('user_id').distinct().as('n'))
        .where('site_id', '=', siteId)
        .where('recorded_at', '>=', since)
        .executeTakeFirstOrThrow(),
    ]);
    const tally = (rows: Array<{ key: string; n: unknown }>): Record<string, number> =>
      Object.fromEntries(rows.filter((r) => n(r.n) > 0).map((r) => [r.key, n(r.n)]));
    const sum = (byKey: Record<string, number>) => Object.values(byKey).reduce((a, b) => a + b, 0);
    const byStatus = tally(orders);
    const registrationsByStatus = tally(registrations);
    const enrolled = n(enrollments.total);
    const active = n(enrollments.active);
    return {
      asOf: nowIso,
      courses: { total: n(courses.total), public: n(courses.public) },
      members: { total: n(members.total), byRole: tally(roles) },
      enrollments: { total: enrolled, active, expired: enrolled - active, lifetime: n(enrollments.lifetime) },
      orders: { total: sum(byStatus), byStatus },
      revenue: revenue.map((r) => ({ currency: r.currency, paidMinor: Number(r.paid) })),
      eventRegistrations: { total: sum(registrationsByStatus), byStatus: registrationsByStatus },
      activeLearners30d: n(learners.n),
    };
  }
}
