/**
 * Site content an operator publishes (SPEC §2.5 `pages:*`, `posts:*`, `appearance:*`): pages
 * (about, terms…) and posts (news, blog) with a draft → published lifecycle, and the site's theme
 * (colours, logo, typography). Knows nothing of HTTP. Rows of another site are "not found".
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { PlatformError, notFound } from './errors.js';
import {
  afterNewestFirst,
  clampPageSize,
  decodeCursor,
  keysetPage,
  MAX_ADMIN_PAGE_SIZE,
  type KeysetPage,
  type KeysetRequest,
} from './paging.js';

/** Table `site_content` (migration `0006_site_content`). */
export interface SiteContentTable {
  id: string;
  site_id: string;
  /** `page` or `post`. */
  kind: string;
  slug: string;
  title: string;
  body: string;
  /** `draft` or `published`. */
  status: string;
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Table `site_appearance` (migration `0006_site_content`): one row per site, absent = defaults. */
export interface SiteAppearanceTable {
  site_id: string;
  primary_color: string;
  accent_color: string;
  logo_url: string | null;
  font_family: string;
  updated_at: string;
}

type ContentDatabase = PlatformDatabase & { site_content: SiteContentTable; site_appearance: SiteAppearanceTable };

export type ContentKind = 'page' | 'post';

/** A page or post as operators see it. */
export interface ContentItem {
  slug: string;
  title: string;
  body: string;
  status: 'draft' | 'published';
  /** ISO 8601 UTC; null while a draft. */
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The site theme. Colours are `#rrggbb`. */
export interface Appearance {
  primaryColor: string;
  accentColor: string;
  logoUrl: string | null;
  fontFamily: string;
}

export const DEFAULT_APPEARANCE: Appearance = {
  primaryColor: '#1f4b99',
  accentColor: '#f2a900',
  logoUrl: null,
  fontFamily: 'system-ui',
};
export const FONT_FAMILIES = [
  'system-ui',
  'serif',
  'sans-serif',
  'monospace',
  'Inter',
  'Merriweather',
  'Source Sans 3',
] as const;

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])$/;
const COLOR = /^#[0-9a-f]{6}$/i;

const item = (r: SiteContentTable): ContentItem => ({
  slug: r.slug,
  title: r.title,
  body: r.body,
  status: r.status === 'published' ? 'published' : 'draft',
  publishedAt: r.published_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Pages and posts of a site. */
export class SiteContent {
  private readonly db: Kysely<ContentDatabase>;
  constructor(db: Kysely<PlatformDatabase>) {
    this.db = db as unknown as Kysely<ContentDatabase>;
  }

  /** Pages or posts of the site: posts newest first, pages by slug. */
  async list(siteId: string, kind: ContentKind, status?: 'draft' | 'published'): Promise<ContentItem[]> {
    let q = this.db.selectFrom('site_content').selectAll().where('site_id', '=', siteId).where('kind', '=', kind);
    if (status) q = q.where('status', '=', status);
    q = kind === 'post' ? q.orderBy('created_at', 'desc').orderBy('slug') : q.orderBy('slug');
    return (await q.execute()).map(item);
  }

  /**
   * One page of the site's pages or posts in the order of {@link list} (posts newest first, then
   * slug; pages by slug), optionally of one status (issue #29: "Keyset pagination in SQL for every
   * list (no in-memory paging, no row cap: every row reachable by cursor)"; keyset on
   * `site_content_slug` / `site_content_status_slug` for pages and `site_content_created` /
   * `site_content_status_created` for posts, migration 0028). A page's cursor is its slug, a
   * post's its creation time and slug.
   * @param options `limit` 1…MAX_ADMIN_PAGE_SIZE (clamped), `cursor` of an earlier page, `status`
   * @throws PlatformError `invalid` (field `cursor`) for a cursor of another list
   */
  async page(
    siteId: string,
    kind: ContentKind,
    options: KeysetRequest & { status?: 'draft' | 'published' },
  ): Promise<KeysetPage<ContentItem>> {
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    let q = this.db
      .selectFrom('site_content')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('kind', '=', kind)
      .limit(limit + 1);
    if (options.status) q = q.where('status', '=', options.status);
    if (kind === 'page') {
      q = q.orderBy('slug');
      if (options.cursor !== undefined) {
        const [slug] = decodeCursor(options.cursor, 1) as [string];
        q = q.where('slug', '>', slug);
      }
      return keysetPage(await q.execute(), limit, (r) => [r.slug], item);
    }
    q = q.orderBy('created_at', 'desc').orderBy('slug');
    if (options.cursor !== undefined) q = q.where(afterNewestFirst('created_at', 'slug', options.cursor));
    return keysetPage(await q.execute(), limit, (r) => [r.created_at, r.slug], item);
  }

  /** @throws PlatformError `not_found` */
  async get(siteId: string, kind: ContentKind, slug: string): Promise<ContentItem> {
    const row = await this.db
      .selectFrom('site_content')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('kind', '=', kind)
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (!row) throw notFound(kind, slug);
    return item(row);
  }

  /** Creates a draft. @throws PlatformError `invalid` (slug), `conflict` (slug taken) */
  async create(
    siteId: string,
    kind: ContentKind,
    input: { slug: string; title: string; body?: string },
    now = new Date(),
  ): Promise<ContentItem> {
    if (!SLUG.test(input.slug))
      throw new PlatformError('invalid', 'slug must be 2–64 lower-case letters, digits or dashes', { field: 'slug' });
    const at = now.toISOString();
    const inserted = await this.db
      .insertInto('site_content')
      .values({
        id: `cnt_${randomUUID()}`,
        site_id: siteId,
        kind,
        slug: input.slug,
        title: input.title,
        body: input.body ?? '',
        status: 'draft',
        published_at: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.columns(['site_id', 'kind', 'slug']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1)
      throw new PlatformError('conflict', `a ${kind} with slug "${input.slug}" already exists`, { field: 'slug' });
    return this.get(siteId, kind, input.slug);
  }

  /** Changes title or body. @throws PlatformError `not_found` */
  async update(
    siteId: string,
    kind: ContentKind,
    slug: string,
    patch: { title?: string; body?: string },
    now = new Date(),
  ): Promise<ContentItem> {
    await this.get(siteId, kind, slug);
    await this.db
      .updateTable('site_content')
      .set({ ...patch, updated_at: now.toISOString() })
      .where('site_id', '=', siteId)
      .where('kind', '=', kind)
      .where('slug', '=', slug)
      .execute();
    return this.get(siteId, kind, slug);
  }

  /** Publishes (idempotent: the first publication time stays). @throws PlatformError `not_found` */
  async publish(siteId: string, kind: ContentKind, slug: string, now = new Date()): Promise<ContentItem> {
    const current = await this.get(siteId, kind, slug);
    if (current.status !== 'published') {
      await this.db
        .updateTable('site_content')
        .set({ status: 'published', published_at: now.toISOString(), updated_at: now.toISOString() })
        .where('site_id', '=', siteId)
        .where('kind', '=', kind)
        .where('slug', '=', slug)
        .execute();
    }
    return this.get(siteId, kind, slug);
  }

  /** @throws PlatformError `not_found` */
  async delete(siteId: string, kind: ContentKind, slug: string): Promise<void> {
    const result = await this.db
      .deleteFrom('site_content')
      .where('site_id', '=', siteId)
      .where('kind', '=', kind)
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(kind, slug);
  }

  /** The theme of the site (defaults until an operator sets one). */
  async appearance(siteId: string): Promise<Appearance> {
    const row = await this.db
      .selectFrom('site_appearance')
      .selectAll()
      .where('site_id', '=', siteId)
      .executeTakeFirst();
    return row
      ? {
          primaryColor: row.primary_color,
          accentColor: row.accent_color,
          logoUrl: row.logo_url,
          fontFamily: row.font_family,
        }
      : { ...DEFAULT_APPEARANCE };
  }

  /** Replaces the theme. @throws PlatformError `invalid` (colour, logo URL, font) */
  async setAppearance(siteId: string, next: Appearance, now = new Date()): Promise<Appearance> {
    for (const field of ['primaryColor', 'accentColor'] as const) {
      if (!COLOR.test(next[field])) throw new PlatformError('invalid', `${field} must be a #rrggbb colour`, { field });
    }
    if (next.logoUrl !== null && !/^https:\/\/[^\s]+$/.test(next.logoUrl))
      throw new PlatformError('invalid', 'logoUrl must be an https:// URL or null', { field: 'logoUrl' });
    if (!(FONT_FAMILIES as readonly string[]).includes(next.fontFamily))
      throw new PlatformError('invalid', `fontFamily must be one of ${FONT_FAMILIES.join(', ')}`, {
        field: 'fontFamily',
      });
    const values = {
      primary_color: next.primaryColor.toLowerCase(),
      accent_color: next.accentColor.toLowerCase(),
      logo_url: next.logoUrl,
      font_family: next.fontFamily,
      updated_at: now.toISOString(),
    };
    await this.db
      .insertInto('site_appearance')
      .values({ site_id: siteId, ...values })
      .onConflict((oc) => oc.column('site_id').doUpdateSet(values))
      .execute();
    return this.appearance(siteId);
  }
}
