/**
 * SPEC §4.3 (the public catalogue `/mcp` serves anonymously): a search finds the courses whose
 * slug, title or description contains the words typed, literally. `%`, `_` and `\` in the words
 * are characters, not LIKE wildcards, on the embedded SQLite store and on PostgreSQL alike.
 */
import path from 'node:path';
import { readSeed, seedDemo } from '../../src/platform/seed.js';
import { Catalog } from '../../src/platform/catalog.js';
import { operatorServices } from '../../src/platform/operator/index.js';
import { platformBackends } from '../helpers/platform-stores.js';

const backends = platformBackends('catalog-search');

for (const [name, open] of Object.entries(backends)) {
  const d = open ? describe : describe.skip;
  if (!open) process.stderr.write(`\n*** SKIPPED catalogue search tests on ${name}: not available ***\n`);

  d(`catalogue search on ${name}`, () => {
    let close: () => Promise<void>;
    let catalog: Catalog;
    const slugs = (rows: Array<{ slug: string }>) => rows.map((r) => r.slug).sort();
    beforeAll(async () => {
      const s = await open!();
      close = s.close;
      await seedDemo(s.db, readSeed(path.resolve('config/demo-seed.yaml')), 'pw-for-catalogue-tests');
      catalog = new Catalog(s.db);
      const { courses } = operatorServices(s.db);
      await courses.create('demo', { slug: 'sale-50', title: 'Spring sale: 50% off', description: 'Discounted' });
      await courses.create('demo', { slug: 'sale-500', title: 'Spring sale 500 off', description: 'Not a percent' });
      await courses.create('demo', { slug: 'snake-case', title: 'my_variable names', description: 'Underscores' });
      await courses.create('demo', { slug: 'mycvariable', title: 'mycvariable', description: 'No underscore' });
      await courses.create('demo', { slug: 'windows-paths', title: 'C:\\Users paths', description: 'Backslashes' });
    }, 30_000);
    afterAll(() => close());

    test('"50% off" finds the course whose title contains it, and only that one', async () => {
      expect(slugs(await catalog.searchCourses('demo', '50% off', 50))).toEqual(['sale-50']);
    });

    test('"%" and "_" are characters, not wildcards', async () => {
      expect(slugs(await catalog.searchCourses('demo', '%', 50))).toEqual(['sale-50']);
      expect(slugs(await catalog.searchCourses('demo', 'my_variable', 50))).toEqual(['snake-case']);
    });

    test('a backslash is a character too', async () => {
      expect(slugs(await catalog.searchCourses('demo', 'c:\\users', 50))).toEqual(['windows-paths']);
    });
  });
}
