/**
 * Issue 10 / SPEC §2.5 `lecturers:*`, `comments:read`, `forms:read`: the rules of the three families
 * on the embedded SQLite store and on PostgreSQL (one set of migrations, DESIGN §1), over the demo
 * seed. HTTP, scopes and another site's 404 are walked in test/integration/admin-api.operations.test.ts.
 */
import path from 'node:path';
import { readSeed, seedDemo } from '../../src/platform/seed.js';
import { seedOperatorDemo } from '../../src/platform/operator/demo-seed.js';
import { Lecturers } from '../../src/platform/lecturers.js';
import { Comments } from '../../src/platform/comments.js';
import { Forms } from '../../src/platform/forms.js';
import { platformBackends, refusal } from '../helpers/platform-stores.js';

const backends = platformBackends('community');

for (const [name, open] of Object.entries(backends)) {
  const d = open ? describe : describe.skip;
  if (!open) process.stderr.write(`\n*** SKIPPED community store tests on ${name}: not available ***\n`);

  d(`SPEC 2.5 lecturers, comments, forms on ${name}`, () => {
    let close: () => Promise<void>;
    let lecturers: Lecturers;
    let comments: Comments;
    let forms: Forms;
    beforeAll(async () => {
      const s = await open!();
      close = s.close;
      await seedDemo(s.db, readSeed(path.resolve('config/demo-seed.yaml')), 'pw-for-community-tests');
      await seedOperatorDemo(s.db);
      await seedOperatorDemo(s.db); // a second run adds nothing
      lecturers = new Lecturers(s.db);
      comments = new Comments(s.db);
      forms = new Forms(s.db);
    }, 30_000);
    afterAll(() => close());

    test('lecturers:write links only an instructor of the site, with one answer for every other id', async () => {
      for (const userId of ['usr_student', 'usr_learner2', 'usr_nobody']) {
        const e = await refusal(lecturers.create('demo', { name: 'X', userId }));
        expect([e.code, e.field, e.message]).toEqual([
          'invalid',
          'userId',
          'userId must name a person with the instructor role at your site (or be null)',
        ]);
      }
      expect(
        (await refusal(lecturers.create('demo', { name: 'X', photoUrl: 'http://plain.example/x.jpg' }))).field,
      ).toBe('photoUrl');
      const made = await lecturers.create('demo', { name: 'Ada Byron', userId: 'usr_instructor' });
      expect(made).toMatchObject({ name: 'Ada Byron', bio: '', photoUrl: null, userId: 'usr_instructor', courses: [] });
      expect((await lecturers.list('demo')).map((l) => l.name)).toEqual(['Ada Byron', 'Grace Guest', 'Ian Instructor']);
      expect(await lecturers.list('second')).toEqual([]);
    });

    test('assigning is idempotent, per course of the same site; deleting keeps the course', async () => {
      const ada = (await lecturers.list('demo')).find((l) => l.name === 'Ada Byron')!;
      await lecturers.assign('demo', ada.id, 'sql-basics');
      expect((await lecturers.assign('demo', ada.id, 'sql-basics')).courses).toEqual(['sql-basics']);
      expect((await lecturers.list('demo', { courseSlug: 'sql-basics' })).map((l) => l.name)).toEqual([
        'Ada Byron',
        'Grace Guest',
      ]);
      expect((await refusal(lecturers.assign('demo', ada.id, 'second-school-intro'))).code).toBe('not_found');
      expect((await refusal(lecturers.get('second', ada.id))).code).toBe('not_found');
      expect((await lecturers.unassign('demo', ada.id, 'sql-basics')).courses).toEqual([]);
      await lecturers.assign('demo', ada.id, 'sql-basics');
      await lecturers.delete('demo', ada.id);
      expect((await lecturers.list('demo', { courseSlug: 'sql-basics' })).map((l) => l.name)).toEqual(['Grace Guest']);
      expect((await lecturers.get('demo', 'lct_ian')).courses).toEqual([
        'oauth-in-practice',
        'typescript-fundamentals',
      ]);
    });

    test('comments:read lists lecture and post comments newest first, filtered by course, lecture or post', async () => {
      expect((await comments.list('demo')).map((c) => c.id)).toEqual(['cmt_welcome', 'cmt_generics', 'cmt_pkce']);
      expect(await comments.list('demo', { courseSlug: 'typescript-fundamentals' })).toEqual([
        {
          id: 'cmt_generics',
          on: { kind: 'lecture', lectureId: 'lec_ts_2', courseSlug: 'typescript-fundamentals' },
          author: { userId: 'usr_student', name: 'Sam Student' },
          body: 'The variance part finally clicked, thanks!',
          createdAt: '2026-11-20T19:00:00.000Z',
        },
      ]);
      expect((await comments.list('demo', { lectureId: 'lec_oa_2' })).map((c) => c.author.name)).toEqual([
        'Bea Learner',
      ]);
      expect((await comments.list('demo', { postSlug: 'welcome' }))[0]!.on).toEqual({
        kind: 'post',
        postSlug: 'welcome',
      });
      // A filter naming another site's lecture or course is "not found", never an empty list that confirms it exists.
      expect((await refusal(comments.list('demo', { lectureId: 'lec_2_1' }))).code).toBe('not_found');
      expect((await refusal(comments.list('demo', { courseSlug: 'second-school-intro' }))).code).toBe('not_found');
      expect(await comments.list('second')).toEqual([]);
    });

    test('forms:read gives forms with counts, fields, and submissions newest first (optionally since a time)', async () => {
      expect(await forms.list('demo')).toMatchObject([
        { id: 'frm_contact', title: 'Contact us', fieldCount: 3, submissionCount: 2 },
        { id: 'frm_feedback', title: 'Course feedback', fieldCount: 3, submissionCount: 1 },
      ]);
      expect((await forms.get('demo', 'frm_feedback')).fields[0]).toEqual({
        name: 'course',
        label: 'Course',
        type: 'select',
        required: true,
        options: ['typescript-fundamentals', 'oauth-in-practice', 'sql-basics'],
      });
      expect((await forms.submissions('demo', 'frm_contact')).map((s) => s.id)).toEqual([
        'sub_contact_2',
        'sub_contact_1',
      ]);
      expect(await forms.submissions('demo', 'frm_contact', { since: '2026-11-16T00:00:00.000Z' })).toEqual([
        {
          id: 'sub_contact_2',
          submittedAt: '2026-11-19T16:20:00.000Z',
          values: { name: 'Kim Buyer', email: 'kim@example.com', message: 'Can I get an invoice?' },
        },
      ]);
      expect((await forms.submissions('demo', 'frm_feedback'))[0]!.values.recommend).toBe(true);
      expect((await refusal(forms.submissions('second', 'frm_contact'))).code).toBe('not_found');
    });
  });
}
