/**
 * Demo lecturers, comments and forms of site `demo` (issue 10, DESIGN §3 demo data): written once,
 * right after the demo pages and posts (a comment names the `welcome` post).
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from '../schema.js';
import type { LecturersTable, LecturerCoursesTable } from '../lecturers.js';
import type { CommentsTable } from '../comments.js';
import type { FormsTable, FormSubmissionsTable, FormField } from '../forms.js';
import type { SiteContentTable } from '../content.js';

type Db = PlatformDatabase & {
  lecturers: LecturersTable;
  lecturer_courses: LecturerCoursesTable;
  comments: CommentsTable;
  forms: FormsTable;
  form_submissions: FormSubmissionsTable;
  site_content: SiteContentTable;
};

const CONTACT: FormField[] = [
  { name: 'name', label: 'Your name', type: 'text', required: true },
  { name: 'email', label: 'E-mail', type: 'email', required: true },
  { name: 'message', label: 'Message', type: 'textarea', required: true },
];
const FEEDBACK: FormField[] = [
  {
    name: 'course',
    label: 'Course',
    type: 'select',
    required: true,
    options: ['typescript-fundamentals', 'oauth-in-practice', 'sql-basics'],
  },
  { name: 'comments', label: 'What could be better?', type: 'textarea', required: false },
  { name: 'recommend', label: 'I would recommend it', type: 'checkbox', required: false },
];

/** Inserts the demo rows when site `demo` has no lecturer yet (idempotent). */
export async function seedCommunityDemo(db: Kysely<PlatformDatabase>, now: Date): Promise<void> {
  const d = db as unknown as Kysely<Db>;
  if (await d.selectFrom('lecturers').select('id').where('site_id', '=', 'demo').limit(1).executeTakeFirst()) return;
  const at = now.toISOString();
  await d
    .insertInto('lecturers')
    .values([
      {
        id: 'lct_ian',
        site_id: 'demo',
        name: 'Ian Instructor',
        bio: 'Writes TypeScript and OAuth for a living.',
        photo_url: null,
        user_id: 'usr_instructor',
        created_at: at,
        updated_at: at,
      },
      {
        id: 'lct_grace',
        site_id: 'demo',
        name: 'Grace Guest',
        bio: 'Guest lecturer on databases.',
        photo_url: 'https://cdn.example.com/grace.jpg',
        user_id: null,
        created_at: at,
        updated_at: at,
      },
    ])
    .execute();
  await d
    .insertInto('lecturer_courses')
    .values([
      { lecturer_id: 'lct_ian', course_id: 'crs_ts' },
      { lecturer_id: 'lct_ian', course_id: 'crs_oauth' },
      { lecturer_id: 'lct_grace', course_id: 'crs_sql' },
    ])
    .execute();
  const welcome = await d
    .selectFrom('site_content')
    .select('id')
    .where('site_id', '=', 'demo')
    .where('kind', '=', 'post')
    .where('slug', '=', 'welcome')
    .executeTakeFirst();
  await d
    .insertInto('comments')
    .values([
      {
        id: 'cmt_generics',
        site_id: 'demo',
        lecture_id: 'lec_ts_2',
        post_id: null,
        author_user_id: 'usr_student',
        body: 'The variance part finally clicked, thanks!',
        created_at: '2026-11-20T19:00:00.000Z',
      },
      {
        id: 'cmt_pkce',
        site_id: 'demo',
        lecture_id: 'lec_oa_2',
        post_id: null,
        author_user_id: 'usr_student2',
        body: 'Why S256 and never plain?',
        created_at: '2026-11-18T12:30:00.000Z',
      },
      ...(welcome
        ? [
            {
              id: 'cmt_welcome',
              site_id: 'demo',
              lecture_id: null,
              post_id: welcome.id,
              author_user_id: 'usr_student',
              body: 'Love the new look.',
              created_at: '2026-11-21T08:00:00.000Z',
            },
          ]
        : []),
    ])
    .execute();
  await d
    .insertInto('forms')
    .values([
      {
        id: 'frm_contact',
        site_id: 'demo',
        title: 'Contact us',
        description: 'Questions about courses or billing.',
        fields: JSON.stringify(CONTACT),
        created_at: at,
      },
      {
        id: 'frm_feedback',
        site_id: 'demo',
        title: 'Course feedback',
        description: 'Tell us how a course went.',
        fields: JSON.stringify(FEEDBACK),
        created_at: at,
      },
    ])
    .execute();
  await d
    .insertInto('form_submissions')
    .values([
      {
        id: 'sub_contact_1',
        form_id: 'frm_contact',
        data: JSON.stringify({ name: 'Pat Prospect', email: 'pat@example.com', message: 'Do you offer team plans?' }),
        submitted_at: '2026-11-15T10:00:00.000Z',
      },
      {
        id: 'sub_contact_2',
        form_id: 'frm_contact',
        data: JSON.stringify({ name: 'Kim Buyer', email: 'kim@example.com', message: 'Can I get an invoice?' }),
        submitted_at: '2026-11-19T16:20:00.000Z',
      },
      {
        id: 'sub_feedback_1',
        form_id: 'frm_feedback',
        data: JSON.stringify({ course: 'sql-basics', comments: 'More exercises please.', recommend: true }),
        submitted_at: '2026-11-20T09:45:00.000Z',
      },
    ])
    .execute();
}
