/**
 * Course sections (SPEC §2.5 `courses:write` creates them, `curriculum:read` lists them): ordered
 * chapters of a course; a lecture belongs to at most one section of its course (`lectures.section_id`,
 * migration `0020_course_sections`). Every method takes the site id first; another site's course
 * is "not found".
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { OperatorDatabase } from './schema.js';
import type { CourseAdmin } from './courses.js';
import { PlatformError, notFound } from '../errors.js';

/** Table `course_sections`. */
export interface CourseSectionsTable {
  id: string;
  course_id: string;
  title: string;
  /** 1-based order within the course. */
  position: number;
  created_at: string;
}

type SectionsDatabase = OperatorDatabase & {
  course_sections: CourseSectionsTable;
  lectures: OperatorDatabase['lectures'] & { section_id: string | null };
};

/** A section with the ids of its lectures, in curriculum order. */
export interface AdminSection {
  id: string;
  position: number;
  title: string;
  lectureIds: string[];
}

export class CourseSections {
  private readonly db: Kysely<SectionsDatabase>;
  constructor(
    db: Kysely<OperatorDatabase>,
    private readonly courses: CourseAdmin,
  ) {
    this.db = db as unknown as Kysely<SectionsDatabase>;
  }

  /** The sections of a course of the site, in order. @throws PlatformError `not_found` */
  async list(siteId: string, slug: string): Promise<AdminSection[]> {
    const courseId = await this.courses.courseId(siteId, slug);
    const sections = await this.db
      .selectFrom('course_sections')
      .selectAll()
      .where('course_id', '=', courseId)
      .orderBy('position')
      .execute();
    const lectures = await this.db
      .selectFrom('lectures')
      .select(['id', 'section_id'])
      .where('course_id', '=', courseId)
      .where('section_id', 'is not', null)
      .orderBy('position')
      .execute();
    return sections.map((s) => ({
      id: s.id,
      position: Number(s.position),
      title: s.title,
      lectureIds: lectures.filter((l) => l.section_id === s.id).map((l) => l.id),
    }));
  }

  /** Appends a section to a course of the site. @throws PlatformError `not_found`, `invalid` (field `title`) */
  async create(siteId: string, slug: string, input: { title: string }): Promise<AdminSection> {
    const courseId = await this.courses.courseId(siteId, slug);
    const title = input.title.trim();
    if (!title) throw new PlatformError('invalid', 'title must not be empty', { field: 'title' });
    const last = await this.db
      .selectFrom('course_sections')
      .select((eb) => eb.fn.max<number>('position').as('p'))
      .where('course_id', '=', courseId)
      .executeTakeFirst();
    const row = {
      id: `sec_${randomUUID()}`,
      course_id: courseId,
      title,
      position: Number(last?.p ?? 0) + 1,
      created_at: new Date().toISOString(),
    };
    await this.db.insertInto('course_sections').values(row).execute();
    return { id: row.id, position: row.position, title: row.title, lectureIds: [] };
  }

  /**
   * Puts a lecture of a course of the site into one of that course's sections.
   * @throws PlatformError `not_found` (lecture or section of another course / site; field `sectionId` for the section)
   */
  async assign(siteId: string, lectureId: string, sectionId: string): Promise<void> {
    const lecture = await this.db
      .selectFrom('lectures')
      .innerJoin('courses', 'courses.id', 'lectures.course_id')
      .select('lectures.course_id as courseId')
      .where('lectures.id', '=', lectureId)
      .where('courses.site_id', '=', siteId)
      .executeTakeFirst();
    if (!lecture) throw notFound('lecture', lectureId);
    const section = await this.db
      .selectFrom('course_sections')
      .select('id')
      .where('id', '=', sectionId)
      .where('course_id', '=', lecture.courseId)
      .executeTakeFirst();
    if (!section)
      throw new PlatformError('invalid', `no section "${sectionId}" in this lecture's course`, { field: 'sectionId' });
    await this.db.updateTable('lectures').set({ section_id: sectionId }).where('id', '=', lectureId).execute();
  }
}
