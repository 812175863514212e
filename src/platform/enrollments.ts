/**
 * Enrollments and playback progress of one member at one site (SPEC §1, §2.4). Every query is
 * scoped by (site id, user id): callers cannot reach another member's or another site's rows.
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { checkPageSize, type Page } from './paging.js';
import type { MemberRef } from './accounts.js';
import { PreparedQuery } from './prepared.js';

export interface LastWatched {
  lectureId: string;
  positionSeconds: number;
  /** ISO 8601 UTC. */
  updatedAt: string;
}

export interface Enrollment {
  id: string;
  courseId: string;
  slug: string;
  title: string;
  /** ISO 8601 UTC; null for lifetime access. */
  expireDate: string | null;
  hasLifetimeAccess: boolean;
  lastWatchedLecture: LastWatched | null;
}

/** What decides whether an enrollment gives access: SPEC §2.4 `expireDate` and `hasLifetimeAccess`. */
export interface AccessTerms {
  /** ISO 8601 date-time; null: no expiry. */
  expireDate: string | null;
  hasLifetimeAccess: boolean;
}

/**
 * The one rule "this enrollment's access is still active" (SPEC §2.4 `expireDate` /
 * `hasLifetimeAccess`, §2.5 `students:*` active/expired; issue #9): active with lifetime access,
 * with no expiry, or while `now` is **before** `expireDate`. Access ends at the expiry instant
 * itself (a half-open period, as `exp` in RFC 7519 §4.1.4), which is also why an operator cannot
 * enroll someone with an expiry at or before now. An expiry that does not parse counts as expired
 * (fail closed). Every surface that shows or enforces access calls this: progress writes
 * (`Progress.record`), the MCP `my_enrollments` tool, the operator's student list and analytics.
 * @param now the instant to judge at (default: the current time)
 */
export function accessActive(terms: AccessTerms, now: Date = new Date()): boolean {
  if (terms.hasLifetimeAccess || terms.expireDate === null) return true;
  const expires = Date.parse(terms.expireDate);
  return !Number.isNaN(expires) && now.getTime() < expires;
}

/** {@link accessActive} for a stored `enrollments` row (`expires_at`, `lifetime_access` 0/1). */
export const rowAccessActive = (row: { expires_at: string | null; lifetime_access: number }, now?: Date): boolean =>
  accessActive({ expireDate: row.expires_at, hasLifetimeAccess: row.lifetime_access === 1 }, now);

/** A member's enrollments with access expiry and last-watched lecture (SPEC §2.4), scoped by (site, user). */
export class Enrollments {
  constructor(private readonly db: Kysely<PlatformDatabase>) {}

  /** A page of the member's enrollments with the member's `total_count`; `limit` rows at most. */
  private page(siteId: string, userId: string, limit: number) {
    return this.db
      .selectFrom('enrollments')
      .innerJoin('courses', 'courses.id', 'enrollments.course_id')
      .select((eb) => [
        'enrollments.id as id',
        'courses.id as course_id',
        'courses.slug as slug',
        'courses.title as title',
        'enrollments.expires_at as expires_at',
        'enrollments.lifetime_access as lifetime_access',
        this.countOf({ siteId, userId }, eb.selectFrom('enrollments as all_enrollments')).as('total_count'),
      ])
      .where('enrollments.site_id', '=', siteId)
      .where('enrollments.user_id', '=', userId)
      .orderBy('enrollments.id')
      .limit(limit);
  }

  /** `list`'s queries, compiled once (issue #15): the first page, and a page after a cursor. */
  private readonly firstPage = new PreparedQuery(3, (siteId: string, userId: string, limit: number) => this.page(siteId, userId, limit));
  private readonly nextPage = new PreparedQuery(4, (siteId: string, userId: string, limit: number, after: string) =>
    this.page(siteId, userId, limit).where('enrollments.id', '>', after),
  );

  /**
   * The member's enrollments ordered by id, `first` at most (0…MAX_PAGE_SIZE), after the row `after`.
   * One query for the page and its `totalCount` (a scalar subquery; a second query only for an empty
   * page after a cursor), one for `lastWatchedLecture` unless `options.lastWatched` is false (then
   * every `lastWatchedLecture` is null: the caller reads `lastWatched` itself when it needs it).
   * @throws InvalidPageRequestError (a PlatformError `invalid`) when `first` is outside 0…MAX_PAGE_SIZE
   */
  async list(member: MemberRef, first: number, after?: string, options: { lastWatched?: boolean } = {}): Promise<Page<Enrollment>> {
    checkPageSize(first);
    const { rows } = await this.db.executeQuery(
      after === undefined || after === '' ? this.firstPage.bind(member.siteId, member.userId, first + 1) : this.nextPage.bind(member.siteId, member.userId, first + 1, after),
    );
    // An empty page carries no count row: none at all without a cursor, else count apart.
    const total = rows[0] ? rows[0].total_count : after ? (await this.countOf(member, this.db.selectFrom('enrollments as all_enrollments')).executeTakeFirstOrThrow()).n : 0;
    const pageRows = rows.slice(0, first);
    const last = options.lastWatched === false ? new Map<string, LastWatched>() : await this.lastWatched(member, pageRows.map((r) => r.course_id));
    return {
      items: pageRows.map((r) => ({
        cursor: r.id,
        node: {
          id: r.id,
          courseId: r.course_id,
          slug: r.slug,
          title: r.title,
          expireDate: r.expires_at,
          hasLifetimeAccess: r.lifetime_access === 1,
          lastWatchedLecture: last.get(r.course_id) ?? null,
        },
      })),
      hasNextPage: rows.length > first,
      totalCount: Number(total),
    };
  }

  /** `select count(*) as n` of the member's enrollments, from `from` (a top-level or nested query). */
  private countOf(member: MemberRef, from: SelectQueryBuilder<PlatformDatabase & { all_enrollments: PlatformDatabase['enrollments'] }, 'all_enrollments', object>) {
    return from
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('all_enrollments.site_id', '=', member.siteId)
      .where('all_enrollments.user_id', '=', member.userId);
  }

  /** The most recently watched lecture per course, for the given courses. */
  async lastWatched(member: MemberRef, courseIds: string[]): Promise<Map<string, LastWatched>> {
    const result = new Map<string, LastWatched>();
    if (courseIds.length === 0) return result;
    const rows = await this.db
      .selectFrom('lecture_progress')
      .select(['course_id', 'lecture_id', 'position_seconds', 'recorded_at'])
      .where('site_id', '=', member.siteId)
      .where('user_id', '=', member.userId)
      .where('course_id', 'in', courseIds)
      .orderBy('recorded_at', 'desc')
      .execute();
    for (const r of rows) {
      if (!result.has(r.course_id)) {
        result.set(r.course_id, { lectureId: r.lecture_id, positionSeconds: r.position_seconds, updatedAt: r.recorded_at });
      }
    }
    return result;
  }
}
