/**
 * Lecturers (SPEC §2.5 `lecturers:read|write`): instructor profiles of a site — name, bio, photo
 * URL — assigned to courses of the same site. A profile may name a person who holds the
 * `instructor` role at the site (by user id, never looked up by e-mail: issue 10 "people without
 * leaks"). Knows nothing of HTTP. Rows of another site are "not found".
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { PlatformError, notFound } from './errors.js';
import {
  clampPageSize,
  decodeCursor,
  keysetPage,
  MAX_ADMIN_PAGE_SIZE,
  type KeysetPage,
  type KeysetRequest,
} from './paging.js';

/** Table `lecturers` (migration `0017_lecturers_comments_forms`). */
export interface LecturersTable {
  id: string;
  site_id: string;
  name: string;
  bio: string;
  photo_url: string | null;
  /** A user with the `instructor` role at the site, or null. */
  user_id: string | null;
  created_at: string;
  updated_at: string;
}

/** Table `lecturer_courses`: which lecturer teaches which course (same site). */
export interface LecturerCoursesTable {
  lecturer_id: string;
  course_id: string;
}

type Db = PlatformDatabase & { lecturers: LecturersTable; lecturer_courses: LecturerCoursesTable };

/** A lecturer as operators see it; `courses` are course slugs, sorted. */
export interface Lecturer {
  id: string;
  name: string;
  bio: string;
  photoUrl: string | null;
  userId: string | null;
  courses: string[];
  createdAt: string;
  updatedAt: string;
}

/** Fields an operator sets. */
export interface LecturerInput {
  name: string;
  bio?: string;
  photoUrl?: string | null;
  userId?: string | null;
}

const HTTPS = /^https:\/\/[^\s]+$/;

/** Instructor profiles of a site and their course assignments. */
export class Lecturers {
  private readonly db: Kysely<Db>;
  constructor(db: Kysely<PlatformDatabase>) {
    this.db = db as unknown as Kysely<Db>;
  }

  /** Lecturers of the site by name (then id); with `courseSlug`, only those teaching that course. @throws PlatformError `not_found` (course) */
  async list(siteId: string, filter: { courseSlug?: string } = {}): Promise<Lecturer[]> {
    const rows = await (await this.filtered(siteId, filter)).execute();
    const links =
      rows.length === 0
        ? new Map<string, string[]>()
        : await this.links(
            siteId,
            rows.map((r) => r.id),
          );
    return rows.map((r) => this.view(r, links));
  }

  /**
   * One page of the site's lecturers in the order of {@link list} (name, then id), optionally of
   * one course (issue #29: "Keyset pagination in SQL for every list (no in-memory paging, no row
   * cap: every row reachable by cursor)"; keyset on `lecturers_site_name`, migration 0028).
   * @param options `limit` 1…MAX_ADMIN_PAGE_SIZE (clamped), `cursor` of an earlier page, `courseSlug`
   * @throws PlatformError `not_found` (course), `invalid` (field `cursor`) for a cursor of another list
   */
  async page(siteId: string, options: KeysetRequest & { courseSlug?: string }): Promise<KeysetPage<Lecturer>> {
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    let q = (await this.filtered(siteId, options)).limit(limit + 1);
    if (options.cursor !== undefined) {
      const [name, id] = decodeCursor(options.cursor, 2) as [string, string];
      q = q.where((eb) => eb(eb.refTuple('lecturers.name', 'lecturers.id'), '>', eb.tuple(name, id)));
    }
    const rows = await q.execute();
    const page = keysetPage(
      rows,
      limit,
      (r) => [r.name, r.id],
      (r) => r,
    );
    const links =
      page.items.length === 0
        ? new Map<string, string[]>()
        : await this.links(
            siteId,
            page.items.map((r) => r.id),
          );
    return { items: page.items.map((r) => this.view(r, links)), nextCursor: page.nextCursor };
  }

  /**
   * The site's lecturers in list order (name, then id); with `courseSlug`, those teaching it, tested
   * per lecturer on `lecturer_courses`' primary key while the site's index is walked in order.
   * @throws PlatformError `not_found` (course)
   */
  private async filtered(siteId: string, filter: { courseSlug?: string }) {
    let q = this.db.selectFrom('lecturers').selectAll('lecturers').where('lecturers.site_id', '=', siteId);
    if (filter.courseSlug !== undefined) {
      const courseId = await this.courseId(siteId, filter.courseSlug);
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('lecturer_courses')
            .select('lecturer_courses.lecturer_id')
            .whereRef('lecturer_courses.lecturer_id', '=', 'lecturers.id')
            .where('lecturer_courses.course_id', '=', courseId),
        ),
      );
    }
    return q.orderBy('lecturers.name').orderBy('lecturers.id');
  }

  /** @throws PlatformError `not_found` */
  async get(siteId: string, id: string): Promise<Lecturer> {
    const row = await this.db
      .selectFrom('lecturers')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('lecturer', id);
    return this.view(row, await this.links(siteId, [row.id]));
  }

  /** @throws PlatformError `invalid` (photoUrl, userId not an instructor of the site) */
  async create(siteId: string, input: LecturerInput, now = new Date()): Promise<Lecturer> {
    await this.check(siteId, input);
    const at = now.toISOString();
    const id = `lct_${randomUUID()}`;
    await this.db
      .insertInto('lecturers')
      .values({
        id,
        site_id: siteId,
        name: input.name,
        bio: input.bio ?? '',
        photo_url: input.photoUrl ?? null,
        user_id: input.userId ?? null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return this.get(siteId, id);
  }

  /** Changes the given fields; omitted ones stay. @throws PlatformError `not_found`, `invalid` */
  async update(siteId: string, id: string, patch: Partial<LecturerInput>, now = new Date()): Promise<Lecturer> {
    await this.get(siteId, id);
    await this.check(siteId, patch);
    const set: Partial<LecturersTable> = { updated_at: now.toISOString() };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.bio !== undefined) set.bio = patch.bio;
    if (patch.photoUrl !== undefined) set.photo_url = patch.photoUrl;
    if (patch.userId !== undefined) set.user_id = patch.userId;
    await this.db.updateTable('lecturers').set(set).where('site_id', '=', siteId).where('id', '=', id).execute();
    return this.get(siteId, id);
  }

  /** Deletes the profile and its assignments (the courses stay). @throws PlatformError `not_found` */
  async delete(siteId: string, id: string): Promise<void> {
    await this.get(siteId, id);
    await this.db.deleteFrom('lecturer_courses').where('lecturer_id', '=', id).execute();
    await this.db.deleteFrom('lecturers').where('site_id', '=', siteId).where('id', '=', id).execute();
  }

  /** Assigns the lecturer to a course of the same site (idempotent). @throws PlatformError `not_found` (lecturer or course) */
  async assign(siteId: string, id: string, courseSlug: string): Promise<Lecturer> {
    await this.get(siteId, id);
    const courseId = await this.courseId(siteId, courseSlug);
    await this.db
      .insertInto('lecturer_courses')
      .values({ lecturer_id: id, course_id: courseId })
      .onConflict((oc) => oc.columns(['lecturer_id', 'course_id']).doNothing())
      .execute();
    return this.get(siteId, id);
  }

  /** Removes an assignment (idempotent). @throws PlatformError `not_found` (lecturer or course) */
  async unassign(siteId: string, id: string, courseSlug: string): Promise<Lecturer> {
    await this.get(siteId, id);
    const courseId = await this.courseId(siteId, courseSlug);
    await this.db
      .deleteFrom('lecturer_courses')
      .where('lecturer_id', '=', id)
      .where('course_id', '=', courseId)
      .execute();
    return this.get(siteId, id);
  }

  private async check(siteId: string, input: Partial<LecturerInput>): Promise<void> {
    if (input.photoUrl != null && !HTTPS.test(input.photoUrl))
      throw new PlatformError('invalid', 'photoUrl must be an https:// URL or null', { field: 'photoUrl' });
    if (input.userId != null) {
      // Only a person who already holds the instructor role here; the same answer for "no such user" (no leak).
      const role = await this.db
        .selectFrom('memberships')
        .select('user_id')
        .where('site_id', '=', siteId)
        .where('user_id', '=', input.userId)
        .where('role', '=', 'instructor')
        .executeTakeFirst();
      if (!role)
        throw new PlatformError(
          'invalid',
          'userId must name a person with the instructor role at your site (or be null)',
          { field: 'userId' },
        );
    }
  }

  private async courseId(siteId: string, slug: string): Promise<string> {
    const course = await this.db
      .selectFrom('courses')
      .select('id')
      .where('site_id', '=', siteId)
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (!course) throw notFound('course', slug);
    return course.id;
  }

  /** The course slugs of lecturers of the site (assignments are always within one site). */
  private async links(siteId: string, ids: string[]): Promise<Map<string, string[]>> {
    const rows = await this.db
      .selectFrom('lecturer_courses')
      // Assignments never cross sites; saying so lets the planner read the site's courses only.
      .innerJoin('courses', (j) =>
        j.onRef('courses.id', '=', 'lecturer_courses.course_id').on('courses.site_id', '=', siteId),
      )
      .select(['lecturer_courses.lecturer_id as lecturerId', 'courses.slug as slug'])
      .where('lecturer_courses.lecturer_id', 'in', ids)
      .execute();
    const map = new Map<string, string[]>();
    for (const r of rows) map.set(r.lecturerId, [...(map.get(r.lecturerId) ?? []), r.slug]);
    // A page's few assignments, sorted here (code-unit order of the lower-case ASCII slugs) so
    // that the store sorts nothing.
    for (const slugs of map.values()) slugs.sort();
    return map;
  }

  private view(r: LecturersTable, links: Map<string, string[]>): Lecturer {
    return {
      id: r.id,
      name: r.name,
      bio: r.bio,
      photoUrl: r.photo_url,
      userId: r.user_id,
      courses: links.get(r.id) ?? [],
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }
}
