/**
 * Operator tools for courses and curricula (SPEC §2.5 `courses:read|write`,
 * `curriculum:read|write`). They act on the token's site and need an owner or admin role there.
 */
import { z } from 'zod';
import { defineTool, siteOf, READ, WRITE, WRITE_IDEMPOTENT, DESTRUCTIVE } from './types.js';

const slug = z.string().min(1).max(64).describe('Course slug, e.g. "sql-basics".');
const adminCourse = z.object({
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  isPublic: z.boolean(),
  lectureCount: z.number().int(),
  enrollmentCount: z.number().int(),
  createdAt: z.string(),
});
const lecture = z.object({ id: z.string(), position: z.number().int(), title: z.string(), durationSeconds: z.number().int() });

export const listCourses = defineTool({
  name: 'list_courses',
  title: 'List courses',
  description: 'Every course of your site (public or hidden) with lecture and enrollment counts.',
  audience: 'operator',
  scopes: ['courses:read'],
  input: {},
  output: { courses: z.array(adminCourse) },
  annotations: READ,
  async run(_args, ctx) {
    return { courses: await ctx.services.operator.courses.list(siteOf(ctx)) };
  },
});

export const createCourse = defineTool({
  name: 'create_course',
  title: 'Create a course',
  description: 'Creates a course at your site. Slugs are 2–64 lower-case letters, digits or dashes and unique per site.',
  audience: 'operator',
  scopes: ['courses:write'],
  input: {
    slug: z.string().min(2).max(64),
    title: z.string().min(1).max(200),
    description: z.string().max(5000).optional(),
    isPublic: z.boolean().default(true).describe('Listed in the public catalogue.'),
  },
  output: { course: adminCourse },
  annotations: WRITE,
  async run(args, ctx) {
    return { course: await ctx.services.operator.courses.create(siteOf(ctx), args) };
  },
});

export const updateCourse = defineTool({
  name: 'update_course',
  title: 'Change a course',
  description: "Changes a course's title, description or public visibility. Omitted fields stay as they are.",
  audience: 'operator',
  scopes: ['courses:write'],
  input: { slug, title: z.string().min(1).max(200).optional(), description: z.string().max(5000).optional(), isPublic: z.boolean().optional() },
  output: { course: adminCourse },
  annotations: WRITE_IDEMPOTENT,
  async run({ slug: s, ...patch }, ctx) {
    return { course: await ctx.services.operator.courses.update(siteOf(ctx), s, patch) };
  },
});

export const getCurriculum = defineTool({
  name: 'get_curriculum',
  title: 'Course curriculum',
  description: 'The lectures of a course in order, with ids and durations in seconds.',
  audience: 'operator',
  scopes: ['curriculum:read'],
  input: { slug },
  output: { slug: z.string(), lectures: z.array(lecture) },
  annotations: READ,
  async run(args, ctx) {
    return { slug: args.slug, lectures: await ctx.services.operator.courses.curriculum(siteOf(ctx), args.slug) };
  },
});

export const addLecture = defineTool({
  name: 'add_lecture',
  title: 'Add a lecture',
  description: 'Appends a lecture to the end of a course curriculum.',
  audience: 'operator',
  scopes: ['curriculum:write'],
  input: { slug, title: z.string().min(1).max(200), durationSeconds: z.number().int().min(0).max(86_400).describe('Length in seconds.') },
  output: { slug: z.string(), lecture },
  annotations: WRITE,
  async run(args, ctx) {
    return { slug: args.slug, lecture: await ctx.services.operator.courses.addLecture(siteOf(ctx), args.slug, args) };
  },
});

export const removeLecture = defineTool({
  name: 'remove_lecture',
  title: 'Remove a lecture',
  description: "Deletes a lecture and the students' playback progress in it. Cannot be undone.",
  audience: 'operator',
  scopes: ['curriculum:write'],
  input: { lectureId: z.string().min(1).max(128) },
  output: { removed: z.string() },
  annotations: DESTRUCTIVE,
  async run(args, ctx) {
    await ctx.services.operator.courses.removeLecture(siteOf(ctx), args.lectureId);
    return { removed: args.lectureId };
  },
});
