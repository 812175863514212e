/**
 * The public course catalogue of a site (SPEC §4.3: what `/mcp` serves anonymously). Only courses
 * with `is_public = 1` are visible; nothing about members, orders or progress is reachable here.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { notFound } from './errors.js';
import { clampPageSize } from './paging.js';

/** A course as the public sees it. Durations in seconds. */
export interface PublicCourse {
  slug: string;
  title: string;
  description: string;
  lectureCount: number;
  totalDurationSeconds: number;
}

/** A public course with its lecture titles, in curriculum order. */
export interface PublicCourseDetails extends PublicCourse {
  siteId: string;
  siteName: string;
  lectures: Array<{ position: number; title: string; durationSeconds: number }>;
}

export const MAX_CATALOGUE_PAGE = 50;

/** The escape character of {@link containsPattern}'s LIKE patterns. */
const LIKE_ESCAPE = '\\';

/**
 * A LIKE pattern matching any text that contains `needle` literally: `%`, `_` and the escape
 * character itself are escaped with a backslash, so "50% off" matches only texts containing
 * "50% off". The pattern must be used with a backslash `ESCAPE` clause ({@link likeEscaped}):
 * SQLite has no default escape character (an escaped `%` stays two characters that match nothing),
 * and PostgreSQL's default backslash is only a default.
 */
export function containsPattern(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, (c) => `${LIKE_ESCAPE}${c}`)}%`;
}

/** `value LIKE pattern ESCAPE '\\'` (one backslash), the same SQL on SQLite and PostgreSQL. */
function likeEscaped(value: Expression<unknown>, pattern: string): Expression<SqlBool> {
  return sql<SqlBool>`${value} LIKE ${pattern} ESCAPE ${sql.lit(LIKE_ESCAPE)}`;
}

/** The public course catalogue of a site (anonymous MCP tools); published courses only. */
export class Catalog {
  constructor(private readonly db: Kysely<PlatformDatabase>) {}

  /**
   * Public courses of a site whose slug, title or description contains `query` (case-insensitive),
   * ordered by title, `limit` at most (1…50).
   * @throws PlatformError `not_found` when the site does not exist
   */
  async searchCourses(siteId: string, query: string | undefined, limit: number): Promise<PublicCourse[]> {
    await this.requireSite(siteId);
    let q = this.db
      .selectFrom('courses')
      .leftJoin('lectures', 'lectures.course_id', 'courses.id')
      .select((eb) => [
        'courses.slug as slug',
        'courses.title as title',
        'courses.description as description',
        eb.fn.count<number>('lectures.id').as('lecture_count'),
        eb.fn.coalesce(eb.fn.sum<number>('lectures.duration_seconds'), eb.lit(0)).as('total_seconds'),
      ])
      .where('courses.site_id', '=', siteId)
      .where('courses.is_public', '=', 1)
      .groupBy(['courses.id', 'courses.slug', 'courses.title', 'courses.description'])
      .orderBy('courses.title')
      .limit(clampPageSize(limit, MAX_CATALOGUE_PAGE));
    const needle = query?.trim().toLowerCase();
    if (needle) {
      const like = containsPattern(needle);
      q = q.where((eb) =>
        eb.or([
          likeEscaped(eb.fn('lower', ['courses.slug']), like),
          likeEscaped(eb.fn('lower', ['courses.title']), like),
          likeEscaped(eb.fn('lower', ['courses.description']), like),
        ]),
      );
    }
    const rows = await q.execute();
    return rows.map((r) => ({
      slug: r.slug,
      title: r.title,
      description: r.description,
      lectureCount: Number(r.lecture_count),
      totalDurationSeconds: Number(r.total_seconds),
    }));
  }

  /**
   * One public course with its lectures.
   * @throws PlatformError `not_found` for an unknown site, an unknown slug or a non-public course
   */
  async courseDetails(siteId: string, slug: string): Promise<PublicCourseDetails> {
    const site = await this.requireSite(siteId);
    const course = await this.db
      .selectFrom('courses')
      .select(['id', 'slug', 'title', 'description'])
      .where('site_id', '=', siteId)
      .where('slug', '=', slug)
      .where('is_public', '=', 1)
      .executeTakeFirst();
    if (!course) throw notFound('public course', slug);
    const lectures = await this.db
      .selectFrom('lectures')
      .select(['position', 'title', 'duration_seconds'])
      .where('course_id', '=', course.id)
      .orderBy('position')
      .execute();
    return {
      siteId: site.id,
      siteName: site.name,
      slug: course.slug,
      title: course.title,
      description: course.description,
      lectureCount: lectures.length,
      totalDurationSeconds: lectures.reduce((s, l) => s + l.duration_seconds, 0),
      lectures: lectures.map((l) => ({ position: l.position, title: l.title, durationSeconds: l.duration_seconds })),
    };
  }

  private async requireSite(siteId: string): Promise<{ id: string; name: string }> {
    const site = await this.db.selectFrom('sites').select(['id', 'name']).where('id', '=', siteId).executeTakeFirst();
    if (!site) throw notFound('site', siteId);
    return site;
  }
}
