/**
 * Demo rows for the operator tables (DESIGN §3 demo data), kept apart from `seed.ts` because its
 * YAML schema has no coupons: called once, right after the demo seed wrote an empty store.
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from '../schema.js';
import type { OperatorDatabase } from './schema.js';
import { SiteContent } from '../content.js';
import { seedCommunityDemo } from './community-seed.js';

/** Inserts the demo coupons of site `demo` when the site exists and has none. */
export async function seedOperatorDemo(db: Kysely<PlatformDatabase>, now = new Date()): Promise<void> {
  const odb = db as unknown as Kysely<OperatorDatabase>;
  const site = await odb.selectFrom('sites').select('id').where('id', '=', 'demo').executeTakeFirst();
  if (!site) return;
  await seedContentDemo(db, now);
  await seedCommunityDemo(db, now);
  const any = await odb.selectFrom('coupons').select('id').where('site_id', '=', 'demo').limit(1).executeTakeFirst();
  if (any) return;
  const created = now.toISOString();
  await odb
    .insertInto('coupons')
    .values([
      { id: 'cpn_welcome', site_id: 'demo', code: 'WELCOME10', percent_off: 10, max_redemptions: null, redemptions: 3, expires_at: null, active: 1, created_at: created },
      { id: 'cpn_spring', site_id: 'demo', code: 'SPRING50', percent_off: 50, max_redemptions: 100, redemptions: 100, expires_at: '2026-05-31T23:59:59.000Z', active: 0, created_at: created },
    ])
    .execute();
}

/** Demo pages, posts and theme of site `demo` (issue 10), when it has none. */
async function seedContentDemo(db: Kysely<PlatformDatabase>, now: Date): Promise<void> {
  const content = new SiteContent(db);
  if ((await content.list('demo', 'page')).length > 0) return;
  const about = await content.create('demo', 'page', { slug: 'about', title: 'About Demo Academy', body: 'Courses on TypeScript, OAuth and SQL.' }, now);
  await content.publish('demo', 'page', about.slug, now);
  await content.create('demo', 'page', { slug: 'terms', title: 'Terms of service', body: 'Draft.' }, now);
  const welcome = await content.create('demo', 'post', { slug: 'welcome', title: 'Welcome to the new site', body: 'We moved!' }, now);
  await content.publish('demo', 'post', welcome.slug, now);
  await content.setAppearance('demo', { primaryColor: '#1f4b99', accentColor: '#f2a900', logoUrl: null, fontFamily: 'Inter' }, now);
}
