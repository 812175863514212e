/**
 * Digital products (SPEC §2.5 `digital_products:*`): things a site sells besides courses (an
 * e-book, a template pack), each with a price (integer minor units + ISO 4217 currency) and a
 * file: an https URL or a reference to a file in the site's storage (`storage:<key>`). A product
 * is a draft until published, and can be unpublished again. Knows nothing of HTTP.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { PlatformError, notFound } from './errors.js';
import { checkPrice } from './memberships.js';
import {
  clampPageSize,
  decodeCursor,
  keysetPage,
  MAX_ADMIN_PAGE_SIZE,
  type KeysetPage,
  type KeysetRequest,
} from './paging.js';

/** Table `digital_products` (migration `0019_membership_plans_products`). */
export interface DigitalProductsTable {
  id: string;
  site_id: string;
  name: string;
  price_minor: number;
  currency: string;
  file: string;
  /** 1 = on sale. */
  published: number;
  created_at: string;
  updated_at: string;
}

type ProductDatabase = PlatformDatabase & { digital_products: DigitalProductsTable };

/** A product as operators see it. */
export interface DigitalProduct {
  id: string;
  name: string;
  priceMinor: number;
  currency: string;
  /** `https://…` or `storage:<fileId>` (an uploaded file, `platform/files.ts`). */
  file: string;
  published: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ProductInput {
  name: string;
  priceMinor: number;
  currency: string;
  file: string;
}

const FILE = /^(?:https:\/\/[^\s]{1,2040}|storage:[A-Za-z0-9._/-]{1,200})$/;

const product = (r: DigitalProductsTable): DigitalProduct => ({
  id: r.id,
  name: r.name,
  priceMinor: Number(r.price_minor),
  currency: r.currency,
  file: r.file,
  published: Number(r.published) === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** @throws PlatformError `invalid` naming `file` */
function checkFile(file: string): string {
  if (!FILE.test(file) || file.includes('..'))
    throw new PlatformError('invalid', 'file must be an https:// URL or storage:<fileId> of an uploaded file', {
      field: 'file',
    });
  return file;
}

type ProductFilesDatabase = ProductDatabase & { uploaded_files: { id: string; site_id: string } };

/** Digital products of a site. */
export class DigitalProducts {
  private readonly db: Kysely<ProductDatabase>;
  constructor(db: Kysely<PlatformDatabase>) {
    this.db = db as unknown as Kysely<ProductDatabase>;
  }

  /**
   * Issue #25 (info, decided): `storage:<fileId>` must name a file uploaded to this same site; an
   * id of another site's file (ids are capabilities, but not this operator's) is refused.
   * @throws PlatformError `invalid` naming `file`
   */
  private async checkSiteFile(siteId: string, file: string): Promise<string> {
    checkFile(file);
    if (!file.startsWith('storage:')) return file;
    const id = file.slice('storage:'.length);
    const row = await (this.db as unknown as Kysely<ProductFilesDatabase>)
      .selectFrom('uploaded_files')
      .select('id')
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .executeTakeFirst();
    if (!row)
      throw new PlatformError(
        'invalid',
        `file: no file uploaded to this site has the id ${id} (upload it with POST /api/v1/files first)`,
        { field: 'file' },
      );
    return file;
  }

  /**
   * One page of the site's products, oldest first (then id), optionally only published (true) or
   * drafts (false) (issue #29: "Keyset pagination in SQL for every list (no in-memory paging, no
   * row cap: every row reachable by cursor)"; keyset on `digital_products_site_created` /
   * `digital_products_site_published`, migration 0028).
   * @param options `limit` 1…MAX_ADMIN_PAGE_SIZE (clamped), `cursor` of an earlier page, `published`
   * @throws PlatformError `invalid` (field `cursor`) for a cursor of another list
   */
  async page(siteId: string, options: KeysetRequest & { published?: boolean }): Promise<KeysetPage<DigitalProduct>> {
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    let q = this.db
      .selectFrom('digital_products')
      .selectAll()
      .where('site_id', '=', siteId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit + 1);
    if (options.published !== undefined) q = q.where('published', '=', options.published ? 1 : 0);
    if (options.cursor !== undefined) {
      const [createdAt, id] = decodeCursor(options.cursor, 2) as [string, string];
      q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(createdAt, id)));
    }
    return keysetPage(await q.execute(), limit, (r) => [r.created_at, r.id], product);
  }

  /** @throws PlatformError `not_found` */
  async get(siteId: string, productId: string): Promise<DigitalProduct> {
    const row = await this.db
      .selectFrom('digital_products')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('id', '=', productId)
      .executeTakeFirst();
    if (!row) throw notFound('digital product', productId);
    return product(row);
  }

  /** Creates an unpublished product. @throws PlatformError `invalid` (price, currency, file) */
  async create(siteId: string, input: ProductInput, now = new Date()): Promise<DigitalProduct> {
    const currency = checkPrice(input.priceMinor, input.currency);
    const file = await this.checkSiteFile(siteId, input.file);
    const at = now.toISOString();
    const id = `dp_${randomUUID()}`;
    await this.db
      .insertInto('digital_products')
      .values({
        id,
        site_id: siteId,
        name: input.name,
        price_minor: input.priceMinor,
        currency,
        file,
        published: 0,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return this.get(siteId, id);
  }

  /** Changes name, price or file. @throws PlatformError `not_found`, `invalid` */
  async update(
    siteId: string,
    productId: string,
    patch: Partial<ProductInput>,
    now = new Date(),
  ): Promise<DigitalProduct> {
    const current = await this.get(siteId, productId);
    const set: Partial<DigitalProductsTable> = {
      currency: checkPrice(patch.priceMinor ?? current.priceMinor, patch.currency ?? current.currency),
      updated_at: now.toISOString(),
    };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.priceMinor !== undefined) set.price_minor = patch.priceMinor;
    if (patch.file !== undefined) set.file = await this.checkSiteFile(siteId, patch.file);
    await this.db
      .updateTable('digital_products')
      .set(set)
      .where('site_id', '=', siteId)
      .where('id', '=', productId)
      .execute();
    return this.get(siteId, productId);
  }

  /** Puts a product on sale (true) or takes it off (false); idempotent. @throws PlatformError `not_found` */
  async setPublished(siteId: string, productId: string, published: boolean, now = new Date()): Promise<DigitalProduct> {
    const current = await this.get(siteId, productId);
    if (current.published === published) return current;
    await this.db
      .updateTable('digital_products')
      .set({ published: published ? 1 : 0, updated_at: now.toISOString() })
      .where('site_id', '=', siteId)
      .where('id', '=', productId)
      .execute();
    return this.get(siteId, productId);
  }
}
