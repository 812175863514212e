/**
 * Enrollments and playback progress of one member at one site (SPEC §1, §2.4). Every query is
 * scoped by (site id, user id): callers cannot reach another member's or another site's rows.
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { checkPageSize, MAX_PAGE_SIZE, type Page } from './paging.js';
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

/** The last watched lecture's columns of `pageWithLastWatched` (null without progress). */
interface LastWatchedColumns {
  last_lecture_id: string | null;
  last_position_seconds: number | null;
  last_recorded_at: string | null;
}

/** A member's enrollments with access expiry and last-watched lecture (SPEC §2.4), scoped by (site, user). */
export class Enrollments {
  constructor(private readonly db: Kysely<PlatformDatabase>) {}

  /** A page of the member's enrollments, `limit` rows at most. */
  private page(siteId: string, userId: string, limit: number) {
    return this.db
      .selectFrom('enrollments')
      .innerJoin('courses', 'courses.id', 'enrollments.course_id')
      .select([
        'enrollments.id as id',
        'courses.id as course_id',
        'courses.slug as slug',
        'courses.title as title',
        'enrollments.expires_at as expires_at',
        'enrollments.lifetime_access as lifetime_access',
      ])
      .where('enrollments.site_id', '=', siteId)
      .where('enrollments.user_id', '=', userId)
      .orderBy('enrollments.id')
      .limit(limit);
  }

  /**
   * A page with each enrollment's last watched lecture: the course's most recent progress row
   * (by `recorded_at`), found by a correlated subquery and joined by its primary key, so the page
   * and its last-watched lectures are one statement (issue #15).
   */
  private pageWithLastWatched(siteId: string, userId: string, limit: number) {
    return this.page(siteId, userId, limit)
      .leftJoin('lecture_progress as last', (join) =>
        join
          .onRef('last.user_id', '=', 'enrollments.user_id')
          .on('last.lecture_id', '=', (eb) =>
            eb
              .selectFrom('lecture_progress as p')
              .select('p.lecture_id')
              .whereRef('p.site_id', '=', 'enrollments.site_id')
              .whereRef('p.user_id', '=', 'enrollments.user_id')
              .whereRef('p.course_id', '=', 'enrollments.course_id')
              .orderBy('p.recorded_at', 'desc')
              .limit(1),
          ),
      )
      .select([
        'last.lecture_id as last_lecture_id',
        'last.position_seconds as last_position_seconds',
        'last.recorded_at as last_recorded_at',
      ]);
  }

  /**
   * `list`'s queries, compiled once (issue #15): the first page, a page after a cursor, each with
   * and without the last watched lectures, and the count.
   */
  private readonly firstPage = new PreparedQuery(3, (siteId: string, userId: string, limit: number) =>
    this.page(siteId, userId, limit),
  );
  private readonly nextPage = new PreparedQuery(4, (siteId: string, userId: string, limit: number, after: string) =>
    this.page(siteId, userId, limit).where('enrollments.id', '>', after),
  );
  private readonly firstPageWatched = new PreparedQuery(3, (siteId: string, userId: string, limit: number) =>
    this.pageWithLastWatched(siteId, userId, limit),
  );
  private readonly nextPageWatched = new PreparedQuery(
    4,
    (siteId: string, userId: string, limit: number, after: string) =>
      this.pageWithLastWatched(siteId, userId, limit).where('enrollments.id', '>', after),
  );
  private readonly count = new PreparedQuery(2, (siteId: string, userId: string) =>
    this.db
      .selectFrom('enrollments')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('site_id', '=', siteId)
      .where('user_id', '=', userId),
  );

  /**
   * The member's enrollments ordered by id, `first` at most (0…MAX_PAGE_SIZE), after the row `after`.
   * One query for the page; `totalCount` comes from the page itself when it is the first page and
   * holds every row (issue #15: the common case reads nothing more), else from one count query.
   * `lastWatchedLecture` is read by the same query, unless `options.lastWatched` is false (then
   * every `lastWatchedLecture` is null: the caller reads `lastWatched` itself when it needs it).
   * @throws InvalidPageRequestError (a PlatformError `invalid`) when `first` is outside 0…MAX_PAGE_SIZE
   */
  async list(
    member: MemberRef,
    first: number,
    after?: string,
    options: { lastWatched?: boolean } = {},
  ): Promise<Page<Enrollment>> {
    checkPageSize(first);
    const firstPage = after === undefined || after === '';
    const watched = options.lastWatched !== false;
    const { siteId, userId } = member;
    const rows = watched
      ? await (firstPage
          ? this.firstPageWatched.rows(this.db, siteId, userId, first + 1)
          : this.nextPageWatched.rows(this.db, siteId, userId, first + 1, after))
      : await (firstPage
          ? this.firstPage.rows(this.db, siteId, userId, first + 1)
          : this.nextPage.rows(this.db, siteId, userId, first + 1, after));
    const hasNextPage = rows.length > first;
    const total = firstPage && !hasNextPage ? rows.length : (await this.count.rows(this.db, siteId, userId))[0]!.n;
    const pageRows = rows.slice(0, first) as Array<(typeof rows)[number] & Partial<LastWatchedColumns>>;
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
          lastWatchedLecture: r.last_lecture_id
            ? {
                lectureId: r.last_lecture_id,
                positionSeconds: r.last_position_seconds!,
                updatedAt: r.last_recorded_at!,
              }
            : null,
        },
      })),
      hasNextPage,
      totalCount: Number(total),
    };
  }

  /** `lastWatched`'s query for `n` courses, compiled once per `n` (at most MAX_PAGE_SIZE + 1 of them). */
  private readonly lastWatchedQueries = new Map<
    number,
    PreparedQuery<string[], { course_id: string; lecture_id: string; position_seconds: number; recorded_at: string }>
  >();

  private lastWatchedQuery(n: number) {
    let query = this.lastWatchedQueries.get(n);
    if (!query) {
      query = new PreparedQuery(n + 2, (siteId: string, userId: string, ...courseIds: string[]) =>
        this.db
          .selectFrom('lecture_progress')
          .select(['course_id', 'lecture_id', 'position_seconds', 'recorded_at'])
          .where('site_id', '=', siteId)
          .where('user_id', '=', userId)
          .where('course_id', 'in', courseIds)
          .orderBy('recorded_at', 'desc'),
      );
      this.lastWatchedQueries.set(n, query);
    }
    return query;
  }

  /** The most recently watched lecture per course, for the given courses. */
  async lastWatched(member: MemberRef, courseIds: string[]): Promise<Map<string, LastWatched>> {
    const result = new Map<string, LastWatched>();
    if (courseIds.length === 0) return result;
    // A page has at most MAX_PAGE_SIZE courses; longer lists (none today) are not worth compiling.
    const rows =
      courseIds.length <= MAX_PAGE_SIZE
        ? await this.lastWatchedQuery(courseIds.length).rows(this.db, member.siteId, member.userId, ...courseIds)
        : await this.db
            .selectFrom('lecture_progress')
            .select(['course_id', 'lecture_id', 'position_seconds', 'recorded_at'])
            .where('site_id', '=', member.siteId)
            .where('user_id', '=', member.userId)
            .where('course_id', 'in', courseIds)
            .orderBy('recorded_at', 'desc')
            .execute();
    for (const r of rows) {
      if (!result.has(r.course_id)) {
        result.set(r.course_id, {
          lectureId: r.lecture_id,
          positionSeconds: r.position_seconds,
          updatedAt: r.recorded_at,
        });
      }
    }
    return result;
  }
}
