/**
 * Courses and curricula (SPEC §2.5 `courses:read|write`, `curriculum:read|write`). Every operation
 * acts on the token's site; another site's course is "not found" (404).
 */
import { z } from 'zod';
import { defineOperation, READ, WRITE, WRITE_IDEMPOTENT, DESTRUCTIVE } from './operation.js';
import { nextCursor, pageQuery } from './paging.js';

const slug = z.string().min(1).max(64).describe('Course slug, e.g. "sql-basics".');
export const adminCourse = z.object({
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  isPublic: z.boolean(),
  lectureCount: z.number().int(),
  enrollmentCount: z.number().int(),
  createdAt: z.string(),
});
const lecture = z.object({
  id: z.string(),
  position: z.number().int(),
  title: z.string(),
  durationSeconds: z.number().int(),
});
const coursePatch = {
  title: z.string().min(1).max(200).optional(),
  description: z.string().max(5000).optional(),
  isPublic: z.boolean().optional().describe('Listed in the public catalogue.'),
};

export const listCourses = defineOperation({
  id: 'listCourses',
  method: 'get',
  path: '/api/v1/courses',
  scope: 'courses:read',
  tag: 'courses',
  summary: 'Every course of your site (public or hidden) with lecture and enrollment counts, by title',
  query: { ...pageQuery, isPublic: z.boolean().optional().describe('Only public (true) or hidden (false) courses.') },
  response: z.object({ courses: z.array(adminCourse), nextCursor }),
  mcp: { name: 'list_courses', title: 'List courses', annotations: READ },
  async run({ query }, ctx) {
    const { items, nextCursor: next } = await ctx.services.operator.courses.page(ctx.siteId, query);
    return { courses: items, nextCursor: next };
  },
});

export const getCourse = defineOperation({
  id: 'getCourse',
  method: 'get',
  path: '/api/v1/courses/{slug}',
  scope: 'courses:read',
  tag: 'courses',
  summary: 'One course of your site',
  params: { slug },
  response: adminCourse,
  async run({ params }, ctx) {
    return ctx.services.operator.courses.get(ctx.siteId, params.slug);
  },
});

export const createCourse = defineOperation({
  id: 'createCourse',
  method: 'post',
  path: '/api/v1/courses',
  scope: 'courses:write',
  tag: 'courses',
  summary: 'Create a course',
  description:
    'Creates a course at your site. Slugs are 2–64 lower-case letters, digits or dashes and unique per site (409 when taken).',
  body: {
    slug: z.string().min(2).max(64),
    title: z.string().min(1).max(200),
    description: z.string().max(5000).optional(),
    isPublic: z.boolean().default(true).describe('Listed in the public catalogue.'),
  },
  response: adminCourse,
  status: 201,
  location: (c) => `/api/v1/courses/${encodeURIComponent(c.slug)}`,
  mcp: {
    name: 'create_course',
    title: 'Create a course',
    annotations: WRITE,
    output: { course: adminCourse },
    present: (course) => ({ course }),
  },
  async run({ body }, ctx) {
    return ctx.services.operator.courses.create(ctx.siteId, body);
  },
});

export const updateCourse = defineOperation({
  id: 'updateCourse',
  method: 'patch',
  path: '/api/v1/courses/{slug}',
  scope: 'courses:write',
  tag: 'courses',
  summary: "Change a course's title, description or public visibility",
  description:
    "Changes a course's title, description or public visibility. Omitted fields stay as they are. Send If-Match with the ETag of GET /api/v1/courses/{slug} to avoid lost updates.",
  params: { slug },
  body: coursePatch,
  response: adminCourse,
  ifMatch: 'getCourse',
  mcp: {
    name: 'update_course',
    title: 'Change a course',
    annotations: WRITE_IDEMPOTENT,
    output: { course: adminCourse },
    present: (course) => ({ course }),
  },
  async run({ params, body }, ctx) {
    return ctx.services.operator.courses.update(ctx.siteId, params.slug, body);
  },
});

export const publishCourse = defineOperation({
  id: 'publishCourse',
  method: 'post',
  path: '/api/v1/courses/{slug}/publish',
  scope: 'courses:write',
  tag: 'courses',
  summary: 'Publish a course (list it in the public catalogue)',
  params: { slug },
  response: adminCourse,
  mcp: {
    name: 'publish_course',
    title: 'Publish a course',
    annotations: WRITE_IDEMPOTENT,
    output: { course: adminCourse },
    present: (course) => ({ course }),
  },
  async run({ params }, ctx) {
    return ctx.services.operator.courses.update(ctx.siteId, params.slug, { isPublic: true });
  },
});

export const getCurriculum = defineOperation({
  id: 'getCurriculum',
  method: 'get',
  path: '/api/v1/courses/{slug}/lectures',
  scope: 'curriculum:read',
  tag: 'curriculum',
  summary: 'The lectures of a course in order, with ids and durations in seconds',
  params: { slug },
  response: z.object({ slug: z.string(), lectures: z.array(lecture) }),
  mcp: { name: 'get_curriculum', title: 'Course curriculum', annotations: READ },
  async run({ params }, ctx) {
    return { slug: params.slug, lectures: await ctx.services.operator.courses.curriculum(ctx.siteId, params.slug) };
  },
});

export const addLecture = defineOperation({
  id: 'addLecture',
  method: 'post',
  path: '/api/v1/courses/{slug}/lectures',
  scope: 'curriculum:write',
  tag: 'curriculum',
  summary: 'Append a lecture to the end of a course curriculum',
  params: { slug },
  body: {
    title: z.string().min(1).max(200),
    durationSeconds: z.number().int().min(0).max(86_400).describe('Length in seconds.'),
  },
  response: z.object({ slug: z.string(), lecture }),
  status: 201,
  location: (r) => `/api/v1/lectures/${encodeURIComponent(r.lecture.id)}`,
  mcp: { name: 'add_lecture', title: 'Add a lecture', annotations: WRITE },
  async run({ params, body }, ctx) {
    return {
      slug: params.slug,
      lecture: await ctx.services.operator.courses.addLecture(ctx.siteId, params.slug, body),
    };
  },
});

export const removeLecture = defineOperation({
  id: 'removeLecture',
  method: 'delete',
  path: '/api/v1/lectures/{lectureId}',
  scope: 'curriculum:write',
  tag: 'curriculum',
  summary: "Delete a lecture and the students' playback progress in it (cannot be undone)",
  params: { lectureId: z.string().min(1).max(128) },
  status: 204,
  mcp: {
    name: 'remove_lecture',
    title: 'Remove a lecture',
    annotations: DESTRUCTIVE,
    output: { removed: z.string() },
    present: (_r, args) => ({ removed: args.lectureId }),
  },
  async run({ params }, ctx) {
    await ctx.services.operator.courses.removeLecture(ctx.siteId, params.lectureId);
  },
});

const section = z.object({
  id: z.string(),
  position: z.number().int(),
  title: z.string(),
  lectureIds: z.array(z.string()).describe('Its lectures, in curriculum order.'),
});

export const listSections = defineOperation({
  id: 'listSections',
  method: 'get',
  path: '/api/v1/courses/{slug}/sections',
  scope: 'curriculum:read',
  tag: 'curriculum',
  summary: 'The sections of a course in order, with the ids of their lectures',
  params: { slug },
  response: z.object({ slug: z.string(), sections: z.array(section) }),
  async run({ params }, ctx) {
    return { slug: params.slug, sections: await ctx.services.operator.sections.list(ctx.siteId, params.slug) };
  },
});

export const createSection = defineOperation({
  id: 'createSection',
  method: 'post',
  path: '/api/v1/courses/{slug}/sections',
  // Issue #25 (info, decided): a section is curriculum, as listing (`curriculum:read`) and moving a
  // lecture into one (`curriculum:write`) are; it needed `courses:write` before.
  scope: 'curriculum:write',
  tag: 'courses',
  summary: 'Append a section (chapter) to a course',
  params: { slug },
  body: { title: z.string().min(1).max(200) },
  response: z.object({ slug: z.string(), section }),
  status: 201,
  location: (r) => `/api/v1/courses/${encodeURIComponent(r.slug)}/sections`,
  async run({ params, body }, ctx) {
    return { slug: params.slug, section: await ctx.services.operator.sections.create(ctx.siteId, params.slug, body) };
  },
});

export const setLectureSection = defineOperation({
  id: 'setLectureSection',
  method: 'put',
  path: '/api/v1/lectures/{lectureId}/section',
  scope: 'curriculum:write',
  tag: 'curriculum',
  summary: "Put a lecture into one of its course's sections",
  params: { lectureId: z.string().min(1).max(128) },
  body: {
    sectionId: z
      .string()
      .min(1)
      .max(128)
      .describe('A section of the same course (GET /api/v1/courses/{slug}/sections).'),
  },
  status: 204,
  async run({ params, body }, ctx) {
    await ctx.services.operator.sections.assign(ctx.siteId, params.lectureId, body.sectionId);
  },
});
