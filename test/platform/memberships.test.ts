/**
 * SPEC §2.5 `membership_plans:*`, `subscriptions:*`, `digital_products:*` (issue 10): the platform
 * rules of plans, subscriptions and digital products, on the embedded SQLite file and on
 * PostgreSQL (one set of migrations, DESIGN.md §1), including the demo rows.
 */
import path from 'node:path';
import { readSeed, seedDemo } from '../../src/platform/seed.js';
import { seedOperatorDemo } from '../../src/platform/operator/demo-seed.js';
import { Memberships, periodEnd } from '../../src/platform/memberships.js';
import { DigitalProducts } from '../../src/platform/digital-products.js';
import { SiteFiles } from '../../src/platform/files.js';
import type { PlatformError } from '../../src/platform/errors.js';
import { platformBackends, refusal } from '../helpers/platform-stores.js';

const backends = platformBackends('memberships');

for (const [name, open] of Object.entries(backends)) {
  const d = open ? describe : describe.skip;
  if (!open) process.stderr.write(`\n*** SKIPPED membership tests on ${name}: not available ***\n`);
  d(`SPEC §2.5 plans, subscriptions, digital products on ${name}`, () => {
    let opened: Awaited<ReturnType<NonNullable<typeof open>>>;
    let memberships: Memberships;
    let products: DigitalProducts;
    beforeAll(async () => {
      opened = await open!();
      await seedDemo(opened.db, readSeed(path.resolve('config/demo-seed.yaml')), 'pw-for-tests-only');
      await seedOperatorDemo(opened.db);
      memberships = new Memberships(opened.db);
      products = new DigitalProducts(opened.db);
    }, 60_000);
    afterAll(() => opened?.close());

    test('the demo seed has plans (one archived), a subscription and products (one published)', async () => {
      const plans = await memberships.plans('demo');
      expect(plans.map((p) => p.status).sort()).toEqual(['active', 'active', 'archived']);
      const monthly = plans.find((p) => p.name === 'All access (monthly)')!;
      expect(await memberships.subscriptions('demo', { status: 'active' })).toEqual([
        expect.objectContaining({ email: 'student@demo.test', planId: monthly.id }),
      ]);
      expect((await products.page('demo', { limit: 200, published: true })).items.map((p) => p.name)).toEqual([
        'OAuth pocket guide (PDF)',
      ]);
      expect(await memberships.plans('second')).toEqual([]);
    });

    test('plans: ISO 4217 currency, whole minor units, courses of this site only', async () => {
      expect(
        await refusal(
          memberships.createPlan('demo', { name: 'x', priceMinor: 100, currency: 'EUX', interval: 'month' }),
        ),
      ).toMatchObject({ code: 'invalid', field: 'currency' });
      expect(
        await refusal(
          memberships.createPlan('demo', { name: 'x', priceMinor: 9.5, currency: 'EUR', interval: 'month' }),
        ),
      ).toMatchObject({ code: 'invalid', field: 'priceMinor' });
      // A course of site `second` is no course here.
      expect(
        await refusal(
          memberships.createPlan('demo', {
            name: 'x',
            priceMinor: 100,
            currency: 'EUR',
            interval: 'year',
            courseSlugs: ['second-school-intro'],
          }),
        ),
      ).toMatchObject({ code: 'invalid', field: 'courseSlugs' });
      const plan = await memberships.createPlan('demo', {
        name: 'Yearly SQL',
        priceMinor: 9900,
        currency: 'usd',
        interval: 'year',
        courseSlugs: ['sql-basics', 'sql-basics'],
      });
      expect(plan).toMatchObject({ currency: 'USD', interval: 'year', courseSlugs: ['sql-basics'], status: 'active' });
      expect(await memberships.updatePlan('demo', plan.id, { priceMinor: 8900, courseSlugs: [] })).toMatchObject({
        priceMinor: 8900,
        courseSlugs: [],
        interval: 'year',
      });
      expect(await refusal(memberships.plan('second', plan.id))).toMatchObject({ code: 'not_found' });
    });

    test('subscriptions: only people with a role here; one live subscription per plan; none on an archived plan; cancel', async () => {
      const now = new Date('2026-01-31T12:00:00.000Z');
      const plan = await memberships.createPlan(
        'demo',
        { name: 'Monthly', priceMinor: 1000, currency: 'EUR', interval: 'month' },
        now,
      );
      // learner@second.test exists on the platform but has no role at demo: not found, and not named.
      const stranger = await refusal(
        memberships.subscribe('demo', { email: 'learner@second.test', planId: plan.id }, now),
      );
      expect(stranger).toMatchObject({ code: 'not_found', field: 'email' });
      expect(stranger.message).toContain('invite them first');
      expect(
        await refusal(memberships.subscribe('demo', { email: 'student2@demo.test', planId: 'pln_nope' }, now)),
      ).toMatchObject({ code: 'not_found', field: 'planId' });

      const sub = await memberships.subscribe('demo', { email: 'Student2@demo.test', planId: plan.id }, now);
      expect(sub).toMatchObject({
        email: 'student2@demo.test',
        status: 'active',
        currentPeriodStart: now.toISOString(),
        currentPeriodEnd: '2026-02-28T12:00:00.000Z',
        cancelledAt: null,
      });
      expect(
        await refusal(memberships.subscribe('demo', { email: 'student2@demo.test', planId: plan.id }, now)),
      ).toMatchObject({ code: 'conflict', field: 'email' });
      // Two at once: the store's unique index lets one through.
      const both = await Promise.allSettled([
        memberships.subscribe('demo', { email: 'instructor@demo.test', planId: plan.id }),
        memberships.subscribe('demo', { email: 'instructor@demo.test', planId: plan.id }),
      ]);
      expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(((both.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as PlatformError).code).toBe(
        'conflict',
      );
      expect((await memberships.subscriptions('demo', { planId: plan.id })).map((s) => s.email).sort()).toEqual([
        'instructor@demo.test',
        'student2@demo.test',
      ]);
      expect(await memberships.subscriptions('demo', { planId: plan.id, status: 'cancelled' })).toEqual([]);

      const later = new Date('2026-02-10T00:00:00.000Z');
      const cancelled = await memberships.cancel('demo', sub.id, later);
      expect(cancelled).toMatchObject({ status: 'cancelled', cancelledAt: later.toISOString() });
      expect((await memberships.cancel('demo', sub.id, new Date())).cancelledAt).toBe(later.toISOString());
      expect(await refusal(memberships.cancel('second', sub.id))).toMatchObject({ code: 'not_found' });
      // Cancelled: the person may subscribe again, until the plan is archived.
      await memberships.subscribe('demo', { email: 'student2@demo.test', planId: plan.id }, later);
      await memberships.archivePlan('demo', plan.id);
      expect(
        await refusal(memberships.subscribe('demo', { email: 'student@demo.test', planId: plan.id })),
      ).toMatchObject({ code: 'conflict', field: 'planId' });
      expect(await memberships.subscriptions('demo', { planId: plan.id, status: 'active' })).toHaveLength(2);
    });

    test('billing periods: one calendar month or year later, clamped to the end of a shorter month (UTC)', () => {
      expect(periodEnd(new Date('2026-03-15T08:30:00Z'), 'month').toISOString()).toBe('2026-04-15T08:30:00.000Z');
      expect(periodEnd(new Date('2026-12-31T00:00:00Z'), 'month').toISOString()).toBe('2027-01-31T00:00:00.000Z');
      expect(periodEnd(new Date('2024-02-29T00:00:00Z'), 'year').toISOString()).toBe('2025-02-28T00:00:00.000Z');
    });

    test('digital products: https URL or storage key, draft until published, unpublish', async () => {
      expect(
        await refusal(
          products.create('demo', {
            name: 'x',
            priceMinor: 100,
            currency: 'EUR',
            file: 'http://insecure.example/f.pdf',
          }),
        ),
      ).toMatchObject({ code: 'invalid', field: 'file' });
      expect(
        await refusal(
          products.create('demo', { name: 'x', priceMinor: 100, currency: 'EUR', file: 'storage:../etc/passwd' }),
        ),
      ).toMatchObject({ code: 'invalid', field: 'file' });
      // `storage:<fileId>` names an upload of the same site (issue #25): another site's is refused.
      const files = new SiteFiles(opened.db as never);
      const pdf = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
      const theirs = await files.upload('second', { bytes: pdf, filename: 'templates.pdf' });
      expect(
        await refusal(
          products.create('demo', { name: 'x', priceMinor: 100, currency: 'EUR', file: `storage:${theirs.id}` }),
        ),
      ).toMatchObject({ code: 'invalid', field: 'file' });
      const ours = await files.upload('demo', { bytes: pdf, filename: 'templates.pdf' });
      const p = await products.create('demo', {
        name: 'Templates',
        priceMinor: 2500,
        currency: 'GBP',
        file: `storage:${ours.id}`,
      });
      expect(p.published).toBe(false);
      expect((await products.setPublished('demo', p.id, true)).published).toBe(true);
      expect((await products.page('demo', { limit: 200, published: true })).items.map((x) => x.id)).toContain(p.id);
      expect((await products.setPublished('demo', p.id, false)).published).toBe(false);
      expect(
        await products.update('demo', p.id, { file: 'https://cdn.example.com/t.zip', priceMinor: 0 }),
      ).toMatchObject({ file: 'https://cdn.example.com/t.zip', priceMinor: 0, currency: 'GBP' });
      expect(await refusal(products.get('second', p.id))).toMatchObject({ code: 'not_found' });
    });
  });
}
