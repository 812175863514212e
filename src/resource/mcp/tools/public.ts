/**
 * Public catalogue tools (SPEC §4.3: `/mcp` without a token serves public tools only). They read
 * courses marked public; `site` defaults to the caller's site when a token is present.
 */
import { z } from 'zod';
import { PlatformError } from '../../../platform/errors.js';
import { MAX_CATALOGUE_PAGE } from '../../../platform/catalog.js';
import { defineTool, READ, type ToolContext } from './types.js';

const siteArg = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/)
  .optional()
  .describe('Site id (`org_id`), e.g. "demo". Defaults to the site of your access token; required without one.');

const publicCourse = {
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  lectureCount: z.number().int(),
  totalDurationSeconds: z.number().int(),
};

function siteFor(ctx: ToolContext, site: string | undefined): string {
  const chosen = site ?? ctx.caller.principal?.siteId;
  if (!chosen)
    throw new PlatformError('invalid', 'site is required when calling without an access token (e.g. "demo")');
  return chosen;
}

export const searchCourses = defineTool({
  name: 'search_courses',
  title: 'Search public courses',
  description:
    "Searches a site's public course catalogue by words in the slug, title or description. Returns course slugs, titles and sizes.",
  audience: 'public',
  scopes: [],
  input: {
    site: siteArg,
    query: z.string().max(200).optional().describe('Words to look for; omit to list every public course.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_CATALOGUE_PAGE)
      .default(20)
      .describe(`At most this many courses (1–${MAX_CATALOGUE_PAGE}).`),
  },
  output: { site: z.string(), courses: z.array(z.object(publicCourse)) },
  annotations: READ,
  async run(args, ctx) {
    const site = siteFor(ctx, args.site);
    return { site, courses: await ctx.services.catalog.searchCourses(site, args.query, args.limit) };
  },
});

export const getCourse = defineTool({
  name: 'get_course',
  title: 'Public course details',
  description: 'Details of one public course: description and the lecture list with durations (seconds).',
  audience: 'public',
  scopes: [],
  input: { site: siteArg, slug: z.string().min(1).max(64).describe('Course slug, e.g. "typescript-fundamentals".') },
  output: {
    siteId: z.string(),
    siteName: z.string(),
    ...publicCourse,
    lectures: z.array(z.object({ position: z.number().int(), title: z.string(), durationSeconds: z.number().int() })),
  },
  annotations: READ,
  async run(args, ctx) {
    return ctx.services.catalog.courseDetails(siteFor(ctx, args.site), args.slug);
  },
});
