/**
 * The "continue watching" view of a member at one site (SPEC §1 last-watched lecture), for the MCP
 * tool of that name. Orders, event registrations and progress writes are the Account API's
 * services (`orders.ts`, `events.ts`, `progress.ts`), shared by both surfaces. Scoped by
 * (site id, user id), like `enrollments.ts`.
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import type { MemberRef } from './accounts.js';

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

/** The continue-watching view of a member at one site. */
export class MemberRecords {
  constructor(private readonly db: Kysely<PlatformDatabase>) {}

  /** Per enrolled course, the last watched lecture and position; most recent first. */
  async continueWatching(member: MemberRef): Promise<ContinueWatching[]> {
    const rows = await this.db
      .selectFrom('lecture_progress')
      .innerJoin('lectures', 'lectures.id', 'lecture_progress.lecture_id')
      .innerJoin('courses', 'courses.id', 'lecture_progress.course_id')
      .innerJoin('enrollments', (j) =>
        j
          .onRef('enrollments.course_id', '=', 'lecture_progress.course_id')
          .onRef('enrollments.user_id', '=', 'lecture_progress.user_id'),
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
}
