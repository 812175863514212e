/**
 * Pages, posts and the site theme (SPEC §2.5 `pages:read|write`, `posts:read|write`,
 * `appearance:read|write`). Pages and posts start as drafts and are published explicitly.
 */
import { z } from 'zod';
import { FONT_FAMILIES, type ContentKind } from '../platform/content.js';
import { defineOperation, READ, WRITE, WRITE_IDEMPOTENT, DESTRUCTIVE, type Operation } from './operation.js';
import { nextCursor, pageQuery } from './paging.js';

const contentItem = z.object({
  slug: z.string(),
  title: z.string(),
  body: z.string(),
  status: z.enum(['draft', 'published']),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const slug = z.string().min(1).max(64);
const appearance = z.object({
  primaryColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .describe('#rrggbb'),
  accentColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .describe('#rrggbb'),
  logoUrl: z.string().url().max(2048).nullable(),
  fontFamily: z.enum(FONT_FAMILIES),
});

/** The read/write operations of one content kind (`page` → `/api/v1/pages`, scope `pages:*`). */
function contentOperations(kind: ContentKind, family: 'pages' | 'posts', title: string, tools: boolean): Operation[] {
  const Title = title.charAt(0).toUpperCase() + title.slice(1);
  const base = `/api/v1/${family}`;
  const tag = family;
  const list = defineOperation({
    id: `list${Title}s`,
    method: 'get',
    path: base,
    scope: `${family}:read`,
    tag,
    summary: `${Title}s of your site${kind === 'post' ? ', newest first' : ', by slug'}, optionally of one status`,
    query: { ...pageQuery, status: z.enum(['draft', 'published']).optional() },
    response: z.object({ [family]: z.array(contentItem), nextCursor }) as z.ZodType<Record<string, unknown>>,
    ...(tools ? { mcp: { name: `list_${family}`, title: `List ${title}s`, annotations: READ } } : {}),
    async run({ query }, ctx) {
      const { items, nextCursor: next } = await ctx.services.content.page(ctx.siteId, kind, query);
      return { [family]: items, nextCursor: next };
    },
  });
  const get = defineOperation({
    id: `get${Title}`,
    method: 'get',
    path: `${base}/{slug}`,
    scope: `${family}:read`,
    tag,
    summary: `One ${title} of your site`,
    params: { slug },
    response: contentItem,
    async run({ params }, ctx) {
      return ctx.services.content.get(ctx.siteId, kind, params.slug);
    },
  });
  const create = defineOperation({
    id: `create${Title}`,
    method: 'post',
    path: base,
    scope: `${family}:write`,
    tag,
    summary: `Create a ${title} (a draft until published)`,
    body: {
      slug: z.string().min(2).max(64),
      title: z.string().min(1).max(200),
      body: z.string().max(100_000).optional().describe('Markdown.'),
    },
    response: contentItem,
    status: 201,
    location: (i) => `${base}/${encodeURIComponent((i as { slug: string }).slug)}`,
    ...(tools
      ? {
          mcp: {
            name: `create_${title}`,
            title: `Create a ${title}`,
            annotations: WRITE,
            output: { [title]: contentItem },
            present: (i: unknown) => ({ [title]: i }),
          },
        }
      : {}),
    async run({ body }, ctx) {
      return ctx.services.content.create(ctx.siteId, kind, body);
    },
  });
  const update = defineOperation({
    id: `update${Title}`,
    method: 'patch',
    path: `${base}/{slug}`,
    scope: `${family}:write`,
    tag,
    summary: `Change a ${title}'s title or body (send If-Match to avoid lost updates)`,
    params: { slug },
    body: { title: z.string().min(1).max(200).optional(), body: z.string().max(100_000).optional() },
    response: contentItem,
    ifMatch: `get${Title}`,
    async run({ params, body }, ctx) {
      return ctx.services.content.update(ctx.siteId, kind, params.slug, body);
    },
  });
  const publish = defineOperation({
    id: `publish${Title}`,
    method: 'post',
    path: `${base}/{slug}/publish`,
    scope: `${family}:write`,
    tag,
    summary: `Publish a ${title} (idempotent)`,
    params: { slug },
    response: contentItem,
    ...(tools
      ? {
          mcp: {
            name: `publish_${title}`,
            title: `Publish a ${title}`,
            annotations: WRITE_IDEMPOTENT,
            output: { [title]: contentItem },
            present: (i: unknown) => ({ [title]: i }),
          },
        }
      : {}),
    async run({ params }, ctx) {
      return ctx.services.content.publish(ctx.siteId, kind, params.slug);
    },
  });
  const remove = defineOperation({
    id: `delete${Title}`,
    method: 'delete',
    path: `${base}/{slug}`,
    scope: `${family}:write`,
    tag,
    summary: `Delete a ${title} (cannot be undone)`,
    params: { slug },
    status: 204,
    ...(tools
      ? {
          mcp: {
            name: `delete_${title}`,
            title: `Delete a ${title}`,
            annotations: DESTRUCTIVE,
            output: { deleted: z.string() },
            present: (_r: unknown, args: Record<string, unknown>) => ({ deleted: args.slug }),
          },
        }
      : {}),
    async run({ params }, ctx) {
      await ctx.services.content.delete(ctx.siteId, kind, params.slug);
    },
  });
  return [list, get, create, update, publish, remove];
}

export const PAGE_OPERATIONS = contentOperations('page', 'pages', 'page', true);
export const POST_OPERATIONS = contentOperations('post', 'posts', 'post', true);

export const getAppearance = defineOperation({
  id: 'getAppearance',
  method: 'get',
  path: '/api/v1/appearance',
  scope: 'appearance:read',
  tag: 'appearance',
  summary: 'The site theme: colours, logo and typography',
  response: appearance,
  mcp: { name: 'get_appearance', title: 'Site theme', annotations: READ },
  async run(_input, ctx) {
    return ctx.services.content.appearance(ctx.siteId);
  },
});

export const setAppearance = defineOperation({
  id: 'setAppearance',
  method: 'put',
  path: '/api/v1/appearance',
  scope: 'appearance:write',
  tag: 'appearance',
  summary: 'Replace the site theme (send If-Match to avoid lost updates)',
  body: appearance.shape,
  response: appearance,
  ifMatch: 'getAppearance',
  mcp: { name: 'set_appearance', title: 'Change the site theme', annotations: WRITE_IDEMPOTENT },
  async run({ body }, ctx) {
    return ctx.services.content.setAppearance(ctx.siteId, body);
  },
});
