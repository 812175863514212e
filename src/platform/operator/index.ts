/**
 * The operator services of one process (SPEC §1 "site operator", §2.5 operator scopes). Shared by
 * the MCP operator tools and, later, the admin REST API. Callers pass the site id of the
 * authenticated principal; authorization (scopes, operator role) is the caller's job.
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from '../schema.js';
import type { OperatorDatabase } from './schema.js';
import { CourseAdmin } from './courses.js';
import { PeopleAdmin } from './people.js';
import { CommerceAdmin } from './commerce.js';
import { EventAdmin } from './events.js';
import { AnalyticsAdmin } from './analytics.js';
import { CourseSections } from './sections.js';

export { CourseAdmin, PeopleAdmin, CommerceAdmin, EventAdmin, AnalyticsAdmin, CourseSections };

export interface OperatorServices {
  courses: CourseAdmin;
  people: PeopleAdmin;
  commerce: CommerceAdmin;
  events: EventAdmin;
  analytics: AnalyticsAdmin;
  /** Course sections (migration `0020_course_sections`). */
  sections: CourseSections;
}

/**
 * Builds the services on the platform database (migration `0002_operator` applied).
 * @param longReads where reads that grow with a site run (`Stores.longReads`: a worker thread on
 *   the embedded store, issue #29); defaults to `db`
 */
export function operatorServices(
  db: Kysely<PlatformDatabase>,
  longReads: Kysely<PlatformDatabase> = db,
): OperatorServices {
  const odb = db as unknown as Kysely<OperatorDatabase>;
  const courses = new CourseAdmin(odb);
  return {
    courses,
    sections: new CourseSections(odb, courses),
    people: new PeopleAdmin(odb),
    commerce: new CommerceAdmin(odb),
    events: new EventAdmin(odb),
    analytics: new AnalyticsAdmin(longReads as unknown as Kysely<OperatorDatabase>),
  };
}
