/**
 * Demo rows for the operator tables (DESIGN §3 demo data), kept apart from `seed.ts` because its
 * YAML schema has no coupons: called once, right after the demo seed wrote an empty store.
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from '../schema.js';
import type { OperatorDatabase } from './schema.js';
import { SiteContent } from '../content.js';
import { seedCommunityDemo } from './community-seed.js';
import { Memberships } from '../memberships.js';
import { DigitalProducts } from '../digital-products.js';
import { SiteFiles } from '../files.js';

/** Inserts the demo coupons of site `demo` when the site exists and has none. */
export async function seedOperatorDemo(db: Kysely<PlatformDatabase>, now = new Date()): Promise<void> {
  const odb = db as unknown as Kysely<OperatorDatabase>;
  const site = await odb.selectFrom('sites').select('id').where('id', '=', 'demo').executeTakeFirst();
  if (!site) return;
  await seedContentDemo(db, now);
  await seedCommunityDemo(db, now);
  await seedMembershipDemo(db, now);
  const any = await odb.selectFrom('coupons').select('id').where('site_id', '=', 'demo').limit(1).executeTakeFirst();
  if (any) return;
  const created = now.toISOString();
  await odb
    .insertInto('coupons')
    .values([
      {
        id: 'cpn_welcome',
        site_id: 'demo',
        code: 'WELCOME10',
        percent_off: 10,
        max_redemptions: null,
        redemptions: 3,
        expires_at: null,
        active: 1,
        created_at: created,
      },
      {
        id: 'cpn_spring',
        site_id: 'demo',
        code: 'SPRING50',
        percent_off: 50,
        max_redemptions: 100,
        redemptions: 100,
        expires_at: '2026-05-31T23:59:59.000Z',
        active: 0,
        created_at: created,
      },
    ])
    .execute();
}

/** Demo pages, posts and theme of site `demo` (issue 10), when it has none. */
async function seedContentDemo(db: Kysely<PlatformDatabase>, now: Date): Promise<void> {
  const content = new SiteContent(db);
  if ((await content.list('demo', 'page')).length > 0) return;
  const about = await content.create(
    'demo',
    'page',
    { slug: 'about', title: 'About Demo Academy', body: 'Courses on TypeScript, OAuth and SQL.' },
    now,
  );
  await content.publish('demo', 'page', about.slug, now);
  await content.create('demo', 'page', { slug: 'terms', title: 'Terms of service', body: 'Draft.' }, now);
  const welcome = await content.create(
    'demo',
    'post',
    { slug: 'welcome', title: 'Welcome to the new site', body: 'We moved!' },
    now,
  );
  await content.publish('demo', 'post', welcome.slug, now);
  await content.setAppearance(
    'demo',
    { primaryColor: '#1f4b99', accentColor: '#f2a900', logoUrl: null, fontFamily: 'Inter' },
    now,
  );
}

/** Demo membership plans, a subscription and digital products of site `demo` (issue 10), when it has no plan. */
async function seedMembershipDemo(db: Kysely<PlatformDatabase>, now: Date): Promise<void> {
  const memberships = new Memberships(db);
  if ((await memberships.plans('demo')).length > 0) return;
  const monthly = await memberships.createPlan(
    'demo',
    {
      name: 'All access (monthly)',
      priceMinor: 1900,
      currency: 'EUR',
      interval: 'month',
      courseSlugs: ['sql-basics', 'oauth-in-practice'],
    },
    now,
  );
  const yearly = await memberships.createPlan(
    'demo',
    {
      name: 'All access (yearly)',
      priceMinor: 19000,
      currency: 'EUR',
      interval: 'year',
      courseSlugs: ['sql-basics', 'oauth-in-practice'],
    },
    now,
  );
  await memberships.createPlan(
    'demo',
    { name: 'SQL club', priceMinor: 900, currency: 'USD', interval: 'month', courseSlugs: ['sql-basics'] },
    now,
  );
  await memberships.subscribe('demo', { email: 'student@demo.test', planId: monthly.id }, now);
  await memberships.archivePlan('demo', yearly.id, now);
  const products = new DigitalProducts(db);
  const ebook = await products.create(
    'demo',
    {
      name: 'OAuth pocket guide (PDF)',
      priceMinor: 1500,
      currency: 'EUR',
      file: 'https://files.demo.test/oauth-pocket-guide.pdf',
    },
    now,
  );
  await products.setPublished('demo', ebook.id, true, now);
  // A file of the site's own storage (issue #25: `storage:<fileId>` must name one of this site's uploads).
  const sheet = await new SiteFiles(db as never).upload('demo', {
    bytes: Buffer.from('%PDF-1.7\n% SQL cheat sheet (demo)\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
    filename: 'sql-cheat-sheet.pdf',
  });
  await products.create(
    'demo',
    { name: 'SQL cheat sheet', priceMinor: 0, currency: 'EUR', file: `storage:${sheet.id}` },
    now,
  );
}
