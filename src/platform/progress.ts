/**
 * Playback progress of one member at one site (SPEC §2.4 `lastWatchedLecture`): course completion
 * and the monotonic progress write.
 *
 * Completion rule: a lecture is *completed* when its recorded position reaches at least
 * `COMPLETION_THRESHOLD` (90 %) of its duration (any recorded position for a 0-second lecture).
 * A course's progress is completed lectures ÷ lectures, a fraction in 0…1 (0 for a course
 * without lectures). Completion follows the latest recorded position of each lecture.
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { rowAccessActive, type LastWatched } from './enrollments.js';
import type { MemberRef } from './accounts.js';
import { PlatformError, accessExpired, invalid } from './errors.js';

export const COMPLETION_THRESHOLD = 0.9;

/** How far in the future a client's `recordedAt` may be (clock skew), in milliseconds. */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Completion of one course for one member. */
export interface CourseProgress {
  completedLectures: number;
  totalLectures: number;
  /** completedLectures ÷ totalLectures, 0…1; 0 when the course has no lectures. */
  fraction: number;
}

/** A progress write from a client's player. */
export interface ProgressWrite {
  lectureId: string;
  /** Playback position, integer seconds ≥ 0. */
  positionSeconds: number;
  /** When the client observed the position: ISO 8601 UTC as produced by `Date#toISOString`. */
  recordedAt: string;
}

/** The stored progress of a lecture after a write, and whether this write changed it. */
export interface ProgressWriteResult {
  /** False when a write with the same or a newer `recordedAt` was already stored (monotonic rule). */
  applied: boolean;
  courseId: string;
  courseSlug: string;
  lecture: LastWatched & { completed: boolean };
}

const isCompleted = (position: number, duration: number): boolean => position >= duration * COMPLETION_THRESHOLD;

/** Playback progress: course completion and monotonic progress writes, shared by the Account API and MCP. */
export class Progress {
  constructor(
    private readonly db: Kysely<PlatformDatabase>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Completion per course for the given courses (one query for lectures, one for progress). */
  async ofCourses(member: MemberRef, courseIds: readonly string[]): Promise<Map<string, CourseProgress>> {
    const result = new Map<string, CourseProgress>();
    if (courseIds.length === 0) return result;
    const lectures = await this.db
      .selectFrom('lectures')
      .leftJoin('lecture_progress as p', (j) =>
        j
          .onRef('p.lecture_id', '=', 'lectures.id')
          .on('p.user_id', '=', member.userId)
          .on('p.site_id', '=', member.siteId),
      )
      .select([
        'lectures.course_id as course_id',
        'lectures.duration_seconds as duration',
        'p.position_seconds as position',
      ])
      .where('lectures.course_id', 'in', [...courseIds])
      .execute();
    for (const id of courseIds) result.set(id, { completedLectures: 0, totalLectures: 0, fraction: 0 });
    for (const l of lectures) {
      const entry = result.get(l.course_id)!;
      entry.totalLectures += 1;
      if (l.position !== null && isCompleted(l.position, l.duration)) entry.completedLectures += 1;
    }
    for (const entry of result.values())
      entry.fraction = entry.totalLectures === 0 ? 0 : entry.completedLectures / entry.totalLectures;
    return result;
  }

  /**
   * Records a playback position, monotonically: the write is stored only when its `recordedAt` is
   * later than the stored one, so an older client write never overwrites a newer one (retries of
   * the same write are no-ops). Atomic: one `INSERT … ON CONFLICT DO UPDATE … WHERE`.
   * @throws PlatformError `not_found` when the lecture is not in a course the member is enrolled in
   *   at this site; ACCESS_EXPIRED when that enrollment has expired; BAD_USER_INPUT when the
   *   position is negative, fractional or beyond the lecture's duration, or `recordedAt` is more
   *   than MAX_CLOCK_SKEW_MS ahead
   */
  async record(member: MemberRef, write: ProgressWrite): Promise<ProgressWriteResult> {
    if (!Number.isInteger(write.positionSeconds) || write.positionSeconds < 0) {
      throw invalid('positionSeconds must be an integer ≥ 0');
    }
    // A timestamp from the future would pin the position (monotonic rule): allow clock skew only.
    if (Date.parse(write.recordedAt) > this.now().getTime() + MAX_CLOCK_SKEW_MS) {
      throw invalid('recordedAt must not be more than 5 minutes in the future');
    }
    const lecture = await this.db
      .selectFrom('lectures')
      .innerJoin('courses', 'courses.id', 'lectures.course_id')
      .innerJoin('enrollments', 'enrollments.course_id', 'courses.id')
      .select([
        'lectures.course_id as course_id',
        'courses.slug as course_slug',
        'lectures.duration_seconds as duration',
        'enrollments.expires_at as expires_at',
        'enrollments.lifetime_access as lifetime',
      ])
      .where('lectures.id', '=', write.lectureId)
      .where('courses.site_id', '=', member.siteId)
      .where('enrollments.site_id', '=', member.siteId)
      .where('enrollments.user_id', '=', member.userId)
      .executeTakeFirst();
    // Same answer for "no such lecture" and "not yours": a member cannot probe other courses.
    if (!lecture) throw new PlatformError('not_found', `no lecture ${write.lectureId} in a course you are enrolled in`);
    const now = this.now();
    const nowIso = now.toISOString();
    if (!rowAccessActive({ expires_at: lecture.expires_at, lifetime_access: lecture.lifetime }, now)) {
      throw accessExpired(`your access to ${lecture.course_slug} expired at ${lecture.expires_at}`);
    }
    if (write.positionSeconds > lecture.duration) {
      throw invalid(`positionSeconds must be between 0 and ${lecture.duration} for this lecture`);
    }
    const row = {
      user_id: member.userId,
      site_id: member.siteId,
      course_id: lecture.course_id,
      lecture_id: write.lectureId,
      position_seconds: write.positionSeconds,
      recorded_at: write.recordedAt,
      updated_at: nowIso,
    };
    const result = await this.db
      .insertInto('lecture_progress')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'lecture_id'])
          .doUpdateSet({
            position_seconds: row.position_seconds,
            recorded_at: row.recorded_at,
            updated_at: row.updated_at,
            site_id: row.site_id,
            course_id: row.course_id,
          })
          // recorded_at values are all `toISOString()` output, so text order is time order.
          .where('lecture_progress.recorded_at', '<', row.recorded_at),
      )
      .executeTakeFirst();
    const stored = await this.db
      .selectFrom('lecture_progress')
      .select(['position_seconds', 'recorded_at'])
      .where('user_id', '=', member.userId)
      .where('lecture_id', '=', write.lectureId)
      .executeTakeFirstOrThrow();
    return {
      applied: Number(result.numInsertedOrUpdatedRows ?? 0n) > 0,
      courseId: lecture.course_id,
      courseSlug: lecture.course_slug,
      lecture: {
        lectureId: write.lectureId,
        positionSeconds: stored.position_seconds,
        updatedAt: stored.recorded_at,
        completed: isCompleted(stored.position_seconds, lecture.duration),
      },
    };
  }
}
