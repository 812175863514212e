/**
 * Site analytics for operators (SPEC §2.5 `analytics:read`): counts computed at `now` from the
 * platform tables. Revenue counts `paid` orders only, per currency, in minor units.
 */
import type { Kysely } from 'kysely';
import { OVERVIEW_METRICS, type OperatorDatabase } from './schema.js';

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
   * @param db where the reads run: on the embedded store the long-read worker
   *   (src/store/worker-reader.ts, issue #29), so no read of it holds the event loop
   */
  constructor(private readonly db: Kysely<OperatorDatabase>) {}

  /**
   * The figures of one site (issue #29: the cost does not grow with the site). Counts are the
   * site's maintained tallies (`site_tallies`, migration 0026: kept by triggers in the same
   * transaction as the rows they count), one primary-key range per overview metric
   * ({@link OVERVIEW_METRICS}: not the per-item counts of migration 0029, whose rows grow with the
   * site's courses, events and forms, nor token usage). Two figures depend on `now` and are read
   * from an index range: enrollments with an expiry after `now` (the active ones that
   * do not count as open; `enrollments_site_expiring`, only enrollments with an expiry and no
   * lifetime access, so the range is the not-yet-expired ones) and the learners with playback
   * progress recorded in the last 30 days (`learner_activity_site_last`: each learner's last
   * progress at the site, kept by triggers on lecture_progress; the range is the learners active
   * in those 30 days, one index entry each). An enrollment is active by the rule of
   * `accessActive` (src/platform/enrollments.ts): lifetime access, no expiry, or an expiry after
   * `now` (expiries are stored as `Date.toISOString()`, so ISO strings compare as instants).
   */
  async summary(siteId: string, now = new Date()): Promise<SiteAnalytics> {
    const nowIso = now.toISOString();
    const since = new Date(now.getTime() - 30 * 86_400_000).toISOString();
    const n = (v: unknown): number => Number(v ?? 0);
    const [tallies, expiring, learners] = await Promise.all([
      this.db
        .selectFrom('site_tallies')
        .select(['metric', 'key', 'n'])
        .where('site_id', '=', siteId)
        .where('metric', 'in', OVERVIEW_METRICS)
        .execute(),
      this.db
        .selectFrom('enrollments')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('site_id', '=', siteId)
        .where('lifetime_access', '=', 0)
        .where('expires_at', '>', nowIso)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('learner_activity')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('site_id', '=', siteId)
        .where('last_at', '>=', since)
        .executeTakeFirstOrThrow(),
    ]);
    const of = (metric: string): Record<string, number> =>
      Object.fromEntries(tallies.filter((t) => t.metric === metric && n(t.n) > 0).map((t) => [t.key, n(t.n)]));
    const sum = (byKey: Record<string, number>) => Object.values(byKey).reduce((a, b) => a + b, 0);
    const courses = of('courses');
    const enrollments = of('enrollments');
    const byStatus = of('order_status');
    const registrationsByStatus = of('registration_status');
    const enrolled = enrollments.total ?? 0;
    const open = enrollments.open ?? 0;
    const active = open + n(expiring.n);
    return {
      asOf: nowIso,
      courses: { total: courses.total ?? 0, public: courses.public ?? 0 },
      members: { total: of('people')[''] ?? 0, byRole: of('role') },
      enrollments: { total: enrolled, active, expired: enrolled - active, lifetime: open },
      orders: { total: sum(byStatus), byStatus },
      revenue: Object.entries(of('paid_minor'))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([currency, paidMinor]) => ({ currency, paidMinor })),
      eventRegistrations: { total: sum(registrationsByStatus), byStatus: registrationsByStatus },
      activeLearners30d: n(learners.n),
    };
  }
}
