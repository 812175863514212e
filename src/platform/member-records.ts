/**
 * A member's own records at one site beyond enrollments (SPEC §1: orders, event registrations,
 * last-watched lecture) and the one thing a member may write: playback progress. Every query is
 * scoped by (site id, user id), like `learning.ts`.
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import type { MemberRef } from './learning.js';
import { PlatformError, notFound } from './errors.js';

/** An order of the member. Amounts are integer minor units of `currency` (ISO 4217). */
export interface MemberOrder {
  number: string;
  status: string;
  totalMinor: number;
  currency: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  items: Array<{ title: string; courseSlug: string | null; quantity: number; unitPriceMinor: number }>;
}

export interface MemberEventRegistration {
  eventId: string;
  title: string;
  /** ISO 8601 UTC. */
  startsAt: string;
  endsAt: string;
  location: string;
  /** `registered`, `waitlisted`, `cancelled` or `attended`. */
  status: string;
}

/** Where to pick up a course: its most recently watched lecture. */
export interface ContinueWatching {
  courseSlug: string;
  courseTitle: string;
  lectureId: string;
  lectureTitle: string;
  positionSeconds: number;
  durationSeconds: number;
  /** ISO 8601 UTC, when the position was observed. */
  watchedAt: string;
  /** Null for lifetime access. */
  expireDate: string | null;
}

/** Input of `recordProgress`. */
export interface ProgressInput {
  lectureId: string;
  /** Playback position in whole seconds, 0…lecture duration. */
  positionSeconds: number;
  /** When the client observed the position (ISO 8601); default now. An older write never wins. */
  recordedAt?: string;
}

export class MemberRecords {
  constructor(private readonly db: Kysely<PlatformDatabase>) {}

  /** The member's orders, newest first, `limit` at most (1…100). */
  async orders(member: MemberRef, limit: number): Promise<MemberOrder[]> {
    const orders = await this.db
      .selectFrom('orders')
      .select(['id', 'number', 'status', 'total_minor', 'currency', 'created_at'])
      .where('site_id', '=', member.siteId)
      .where('user_id', '=', member.userId)
      .orderBy('created_at', 'desc')
      .limit(clamp(limit, 1, 100))
      .execute();
    if (orders.length === 0) return [];
    const items = await this.db
      .selectFrom('order_items')
      .leftJoin('courses', 'courses.id', 'order_items.course_id')
      .select(['order_items.order_id as order_id', 'order_items.title as title', 'courses.slug as slug', 'order_items.quantity as quantity', 'order_items.unit_price_minor as unit'])
      .where('order_items.order_id', 'in', orders.map((o) => o.id))
      .orderBy('order_items.id')
      .execute();
    return orders.map((o) => ({
      number: o.number,
      status: o.status,
      totalMinor: o.total_minor,
      currency: o.currency,
      createdAt: o.created_at,
      items: items
        .filter((i) => i.order_id === o.id)
        .map((i) => ({ title: i.title, courseSlug: i.slug ?? null, quantity: i.quantity, unitPriceMinor: i.unit })),
    }));
  }

  /** The member's event registrations, by event start. */
  async eventRegistrations(member: MemberRef): Promise<MemberEventRegistration[]> {
    const rows = await this.db
      .selectFrom('event_registrations')
      .innerJoin('events', 'events.id', 'event_registrations.event_id')
      .select(['events.id as id', 'events.title as title', 'events.starts_at as starts_at', 'events.ends_at as ends_at', 'events.location as location', 'event_registrations.status as status'])
      .where('event_registrations.site_id', '=', member.siteId)
      .where('event_registrations.user_id', '=', member.userId)
      .orderBy('events.starts_at')
      .execute();
    return rows.map((r) => ({ eventId: r.id, title: r.title, startsAt: r.starts_at, endsAt: r.ends_at, location: r.location, status: r.status }));
  }

  /** Per enrolled course, the last watched lecture and position; most recent first. */
  async continueWatching(member: MemberRef): Promise<ContinueWatching[]> {
    const rows = await this.db
      .selectFrom('lecture_progress')
      .innerJoin('lectures', 'lectures.id', 'lecture_progress.lecture_id')
      .innerJoin('courses', 'courses.id', 'lecture_progress.course_id')
      .innerJoin('enrollments', (j) =>
        j.onRef('enrollments.course_id', '=', 'lecture_progress.course_id').onRef('enrollments.user_id', '=', 'lecture_progress.user_id'),
      )
      .select([
        'courses.slug as slug',
        'courses.title as course_title',
        'lectures.id as lecture_id',
        'lectures.title as lecture_title',
        'lectures.duration_seconds as duration',
        'lecture_progress.position_seconds as position',
        'lecture_progress.recorded_at as recorded_at',
        'enrollments.expires_at as expires_at',
      ])
      .where('lecture_progress.site_id', '=', member.siteId)
      .where('lecture_progress.user_id', '=', member.userId)
      .where('enrollments.site_id', '=', member.siteId)
      .orderBy('lecture_progress.recorded_at', 'desc')
      .execute();
    const seen = new Set<string>();
    const result: ContinueWatching[] = [];
    for (const r of rows) {
      if (seen.has(r.slug)) continue;
      seen.add(r.slug);
      result.push({
        courseSlug: r.slug,
        courseTitle: r.course_title,
        lectureId: r.lecture_id,
        lectureTitle: r.lecture_title,
        positionSeconds: r.position,
        durationSeconds: r.duration,
        watchedAt: r.recorded_at,
        expireDate: r.expires_at,
      });
    }
    return result;
  }

  /**
   * Records the playback position of a lecture the member may watch (enrolled, access not expired).
   * @returns whether the write was applied (false: a newer position is already stored)
   * @throws PlatformError `not_found` (lecture unknown or not in an enrolled course), `forbidden`
   *   (access expired), `invalid` (position beyond the lecture, bad timestamp)
   */
  async recordProgress(member: MemberRef, input: ProgressInput, now = new Date()): Promise<{ applied: boolean; courseSlug: string }> {
    const recordedAt = input.recordedAt ?? now.toISOString();
    if (Number.isNaN(Date.parse(recordedAt))) throw new PlatformError('invalid', 'recordedAt must be an ISO 8601 date-time');
    const row = await this.db
      .selectFrom('lectures')
      .innerJoin('courses', 'courses.id', 'lectures.course_id')
      .innerJoin('enrollments', 'enrollments.course_id', 'courses.id')
      .select(['lectures.id as lecture_id', 'lectures.duration_seconds as duration', 'courses.id as course_id', 'courses.slug as slug', 'enrollments.expires_at as expires_at', 'enrollments.lifetime_access as lifetime'])
      .where('lectures.id', '=', input.lectureId)
      .where('enrollments.site_id', '=', member.siteId)
      .where('enrollments.user_id', '=', member.userId)
      .executeTakeFirst();
    if (!row) throw notFound('lecture in your enrolled courses', input.lectureId);
    if (row.lifetime !== 1 && row.expires_at !== null && Date.parse(row.expires_at) < now.getTime()) {
      throw new PlatformError('forbidden', `your access to ${row.slug} expired at ${row.expires_at}`);
    }
    if (!Number.isInteger(input.positionSeconds) || input.positionSeconds < 0 || input.positionSeconds > row.duration) {
      throw new PlatformError('invalid', `positionSeconds must be between 0 and ${row.duration} for this lecture`);
    }
    const canonical = new Date(recordedAt).toISOString();
    const existing = await this.db
      .selectFrom('lecture_progress')
      .select('recorded_at')
      .where('user_id', '=', member.userId)
      .where('lecture_id', '=', row.lecture_id)
      .executeTakeFirst();
    if (existing && existing.recorded_at > canonical) return { applied: false, courseSlug: row.slug };
    const values = {
      user_id: member.userId,
      site_id: member.siteId,
      course_id: row.course_id,
      lecture_id: row.lecture_id,
      position_seconds: input.positionSeconds,
      recorded_at: canonical,
      updated_at: now.toISOString(),
    };
    await this.db
      .insertInto('lecture_progress')
      .values(values)
      .onConflict((oc) => oc.columns(['user_id', 'lecture_id']).doUpdateSet({ position_seconds: values.position_seconds, recorded_at: canonical, updated_at: values.updated_at }))
      .execute();
    return { applied: true, courseSlug: row.slug };
  }
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(Math.max(min, Math.trunc(n)), max);
}
