/**
 * Site analytics for operators (SPEC §2.5 `analytics:read`): counts computed at `now` from the
 * platform tables. Revenue counts `paid` orders only, per currency, in minor units.
 */
import type { Kysely } from 'kysely';
import type { OperatorDatabase } from './schema.js';
import { rowAccessActive } from '../enrollments.js';

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
  constructor(private readonly db: Kysely<OperatorDatabase>) {}

  /** The figures of one site. */
  async summary(siteId: string, now = new Date()): Promise<SiteAnalytics> {
    const nowIso = now.toISOString();
    const since = new Date(now.getTime() - 30 * 86_400_000).toISOString();
    const [courses, roles, enrollments, orders, revenue, registrations, learners] = await Promise.all([
      this.db.selectFrom('courses').select(['is_public']).where('site_id', '=', siteId).execute(),
      this.db.selectFrom('memberships').select(['user_id', 'role']).where('site_id', '=', siteId).execute(),
      this.db.selectFrom('enrollments').select(['expires_at', 'lifetime_access']).where('site_id', '=', siteId).execute(),
      this.db.selectFrom('orders').select(['status']).where('site_id', '=', siteId).execute(),
      this.db
        .selectFrom('orders')
        .select((eb) => ['currency', eb.fn.sum<number>('total_minor').as('paid')])
        .where('site_id', '=', siteId)
        .where('status', '=', 'paid')
        .groupBy('currency')
        .orderBy('currency')
        .execute(),
      this.db.selectFrom('event_registrations').select(['status']).where('site_id', '=', siteId).execute(),
      this.db.selectFrom('lecture_progress').select('user_id').distinct().where('site_id', '=', siteId).where('recorded_at', '>=', since).execute(),
    ]);
    const lifetime = enrollments.filter((e) => e.lifetime_access === 1 || e.expires_at === null).length;
    const active = enrollments.filter((e) => rowAccessActive(e, now)).length;
    return {
      asOf: nowIso,
      courses: { total: courses.length, public: courses.filter((c) => c.is_public === 1).length },
      members: { total: new Set(roles.map((r) => r.user_id)).size, byRole: tally(roles.map((r) => r.role)) },
      enrollments: { total: enrollments.length, active, expired: enrollments.length - active, lifetime },
      orders: { total: orders.length, byStatus: tally(orders.map((o) => o.status)) },
      revenue: revenue.map((r) => ({ currency: r.currency, paidMinor: Number(r.paid) })),
      eventRegistrations: { total: registrations.length, byStatus: tally(registrations.map((r) => r.status)) },
      activeLearners30d: learners.length,
    };
  }
}

function tally(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
