/**
 * Operator view of a site's courses and curricula (SPEC §2.5 `courses:*`, `curriculum:*`).
 * Every method takes the site id first and never reaches another site's rows.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ITEM_METRICS, type OperatorDatabase } from './schema.js';
import { PlatformError, notFound } from '../errors.js';
import {
  clampPageSize,
  decodeCursor,
  keysetPage,
  MAX_ADMIN_PAGE_SIZE,
  type KeysetPage,
  type KeysetRequest,
} from '../paging.js';

/** A course row as the operator sees it. */
export interface AdminCourse {
  slug: string;
  title: string;
  description: string;
  isPublic: boolean;
  lectureCount: number;
  enrollmentCount: number;
  /** ISO 8601 UTC. */
  createdAt: string;
}

export interface AdminLecture {
  id: string;
  position: number;
  title: string;
  durationSeconds: number;
}

/** Fields of a new or changed course. Slugs: lower-case letters, digits and dashes, 2…64 characters. */
export interface CourseInput {
  slug: string;
  title: string;
  description?: string;
  isPublic?: boolean;
}

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])$/;

/** Courses and curricula of a site for operators (courses:*, curriculum:*). */
export class CourseAdmin {
  constructor(private readonly db: Kysely<OperatorDatabase>) {}

  /**
   * One page of the site's courses (public or not) by title, then slug, optionally only public
   * (true) or hidden (false) ones, with their lecture and enrollment counts (issue #29: "Keyset
   * pagination in SQL for every list (no in-memory paging, no row cap: every row reachable by
   * cursor)"; keyset on `courses_site_title` / `courses_site_public_title`, migration 0028; the
   * counts are maintained tallies, one primary-key lookup per course, migration 0029).
   * @param options `limit` 1…MAX_ADMIN_PAGE_SIZE (clamped), `cursor` of an earlier page, `isPublic`
   * @throws PlatformError `invalid` (field `cursor`) for a cursor of another list
   */
  async page(siteId: string, options: KeysetRequest & { isPublic?: boolean }): Promise<KeysetPage<AdminCourse>> {
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    let q = this.query(siteId)
      .orderBy('courses.title')
      .orderBy('courses.slug')
      .limit(limit + 1);
    if (options.isPublic !== undefined) q = q.where('courses.is_public', '=', options.isPublic ? 1 : 0);
    if (options.cursor !== undefined) {
      const [title, slug] = decodeCursor(options.cursor, 2) as [string, string];
      q = q.where((eb) => eb(eb.refTuple('courses.title', 'courses.slug'), '>', eb.tuple(title, slug)));
    }
    return keysetPage(await q.execute(), limit, (r) => [r.title, r.slug], adminCourse);
  }

  /** One course by slug, with its lecture and enrollment counts (tallies, migration 0029). @throws PlatformError `not_found` */
  async get(siteId: string, slug: string): Promise<AdminCourse> {
    const row = await this.query(siteId).where('courses.slug', '=', slug).executeTakeFirst();
    if (!row) throw notFound('course', slug);
    return adminCourse(row);
  }

  /**
   * The site's courses with their counts (issue #29, "cost at volume"): each course's lectures and
   * enrollments are its maintained tallies (`course_lectures`, `course_enrollments`, migration
   * 0029: kept by triggers in the same transaction as the rows), one primary-key lookup each, so a
   * course's count costs the same with one enrollment or a million.
   */
  private query(siteId: string) {
    return this.db
      .selectFrom('courses')
      .select((eb) => {
        const tally = (metric: string) =>
          eb
            .selectFrom('site_tallies')
            .select('site_tallies.n')
            .whereRef('site_tallies.site_id', '=', 'courses.site_id')
            .where('site_tallies.metric', '=', metric)
            .whereRef('site_tallies.key', '=', 'courses.id');
        return [
          'courses.slug as slug',
          'courses.title as title',
          'courses.description as description',
          'courses.is_public as is_public',
          'courses.created_at as created_at',
          tally(ITEM_METRICS.courseLectures).as('lectures'),
          tally(ITEM_METRICS.courseEnrollments).as('enrollments'),
        ];
      })
      .where('courses.site_id', '=', siteId);
  }

  /**
   * Creates a course.
   * @throws PlatformError `invalid` (bad slug or empty title), `conflict` (slug taken at the site)
   */
  async create(siteId: string, input: CourseInput, now = new Date()): Promise<AdminCourse> {
    if (!SLUG.test(input.slug))
      throw new PlatformError('invalid', 'slug must be 2–64 lower-case letters, digits or dashes', { field: 'slug' });
    if (!input.title.trim()) throw new PlatformError('invalid', 'title must not be empty', { field: 'title' });
    const taken = await this.db
      .selectFrom('courses')
      .select('id')
      .where('site_id', '=', siteId)
      .where('slug', '=', input.slug)
      .executeTakeFirst();
    if (taken) throw new PlatformError('conflict', `a course with slug "${input.slug}" already exists`);
    await this.db
      .insertInto('courses')
      .values({
        id: `crs_${randomUUID()}`,
        site_id: siteId,
        slug: input.slug,
        title: input.title.trim(),
        description: input.description ?? '',
        is_public: input.isPublic === false ? 0 : 1,
        created_at: now.toISOString(),
      })
      .execute();
    return this.get(siteId, input.slug);
  }

  /** Changes title, description or visibility. @throws PlatformError `not_found`, `invalid` */
  async update(siteId: string, slug: string, patch: Partial<Omit<CourseInput, 'slug'>>): Promise<AdminCourse> {
    const id = await this.courseId(siteId, slug);
    if (patch.title !== undefined && !patch.title.trim())
      throw new PlatformError('invalid', 'title must not be empty', { field: 'title' });
    const set: Partial<{ title: string; description: string; is_public: number }> = {};
    if (patch.title !== undefined) set.title = patch.title.trim();
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.isPublic !== undefined) set.is_public = patch.isPublic ? 1 : 0;
    if (Object.keys(set).length > 0) await this.db.updateTable('courses').set(set).where('id', '=', id).execute();
    return this.get(siteId, slug);
  }

  /** The lectures of a course in order. @throws PlatformError `not_found` */
  async curriculum(siteId: string, slug: string): Promise<AdminLecture[]> {
    const id = await this.courseId(siteId, slug);
    const rows = await this.db
      .selectFrom('lectures')
      .select(['id', 'position', 'title', 'duration_seconds'])
      .where('course_id', '=', id)
      .orderBy('position')
      .execute();
    return rows.map((r) => ({ id: r.id, position: r.position, title: r.title, durationSeconds: r.duration_seconds }));
  }

  /** Appends a lecture. Duration in seconds (0…86400). @throws PlatformError `not_found`, `invalid` */
  async addLecture(
    siteId: string,
    slug: string,
    input: { title: string; durationSeconds: number },
  ): Promise<AdminLecture> {
    const id = await this.courseId(siteId, slug);
    if (!input.title.trim()) throw new PlatformError('invalid', 'title must not be empty', { field: 'title' });
    if (!Number.isInteger(input.durationSeconds) || input.durationSeconds < 0 || input.durationSeconds > 86_400) {
      throw new PlatformError('invalid', 'durationSeconds must be a whole number of seconds between 0 and 86400', {
        field: 'durationSeconds',
      });
    }
    const last = await this.db
      .selectFrom('lectures')
      .select((eb) => eb.fn.max<number>('position').as('p'))
      .where('course_id', '=', id)
      .executeTakeFirst();
    const lecture = {
      id: `lec_${randomUUID()}`,
      course_id: id,
      title: input.title.trim(),
      position: Number(last?.p ?? 0) + 1,
      duration_seconds: input.durationSeconds,
    };
    await this.db.insertInto('lectures').values(lecture).execute();
    return {
      id: lecture.id,
      position: lecture.position,
      title: lecture.title,
      durationSeconds: lecture.duration_seconds,
    };
  }

  /** Removes a lecture (and its progress rows) from a course of the site. @throws PlatformError `not_found` */
  async removeLecture(siteId: string, lectureId: string): Promise<void> {
    const row = await this.db
      .selectFrom('lectures')
      .innerJoin('courses', 'courses.id', 'lectures.course_id')
      .select('lectures.id as id')
      .where('lectures.id', '=', lectureId)
      .where('courses.site_id', '=', siteId)
      .executeTakeFirst();
    if (!row) throw notFound('lecture', lectureId);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('lecture_progress').where('lecture_id', '=', row.id).execute();
      await trx.deleteFrom('lectures').where('id', '=', row.id).execute();
    });
  }

  /** The id of a course of the site. @throws PlatformError `not_found` */
  async courseId(siteId: string, slug: string): Promise<string> {
    const row = await this.db
      .selectFrom('courses')
      .select('id')
      .where('site_id', '=', siteId)
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (!row) throw notFound('course', slug);
    return row.id;
  }
}

/** A course row (with its counts) as operators see it. */
function adminCourse(r: {
  slug: string;
  title: string;
  description: string;
  is_public: number;
  created_at: string;
  lectures: number | string | null;
  enrollments: number | string | null;
}): AdminCourse {
  return {
    slug: r.slug,
    title: r.title,
    description: r.description,
    isPublic: Number(r.is_public) === 1,
    lectureCount: Number(r.lectures ?? 0),
    enrollmentCount: Number(r.enrollments ?? 0),
    createdAt: r.created_at,
  };
}
