/**
 * Forms of a site and what visitors submitted through them (SPEC §2.5 `forms:read`, the consent
 * page's "See form submissions"). Read only here. Fields and submitted values are stored as JSON
 * text (SQLite and PostgreSQL alike). Knows nothing of HTTP. Another site's forms are "not found".
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { notFound } from './errors.js';
import { ITEM_METRICS, type SiteTalliesTable } from './operator/schema.js';
import {
  afterNewestFirst,
  clampPageSize,
  decodeCursor,
  keysetPage,
  MAX_ADMIN_PAGE_SIZE,
  type KeysetPage,
  type KeysetRequest,
} from './paging.js';

/** Table `forms` (migration `0017_lecturers_comments_forms`). */
export interface FormsTable {
  id: string;
  site_id: string;
  title: string;
  description: string;
  /** JSON array of {@link FormField}. */
  fields: string;
  created_at: string;
}

/** Table `form_submissions`. */
export interface FormSubmissionsTable {
  id: string;
  form_id: string;
  /** JSON object: field name → value. */
  data: string;
  submitted_at: string;
}

type Db = PlatformDatabase & {
  forms: FormsTable;
  form_submissions: FormSubmissionsTable;
  site_tallies: SiteTalliesTable;
};

export const FIELD_TYPES = ['text', 'email', 'textarea', 'select', 'checkbox'] as const;

/** One field of a form; `options` only for `select`. */
export interface FormField {
  name: string;
  label: string;
  type: (typeof FIELD_TYPES)[number];
  required: boolean;
  options?: string[];
}

/** A form in a list. */
export interface FormSummary {
  id: string;
  title: string;
  description: string;
  fieldCount: number;
  submissionCount: number;
  createdAt: string;
}

/** A form with its fields. */
export interface Form extends FormSummary {
  fields: FormField[];
}

/** One submission: the submitted value of each field (strings, or booleans for checkboxes). */
export interface FormSubmission {
  id: string;
  submittedAt: string;
  values: Record<string, string | boolean>;
}

/** Reads forms and their submissions. */
export class Forms {
  private readonly db: Kysely<Db>;
  constructor(db: Kysely<PlatformDatabase>) {
    this.db = db as unknown as Kysely<Db>;
  }

  /** Forms of the site by title (then id). */
  async list(siteId: string): Promise<FormSummary[]> {
    const rows = await this.db
      .selectFrom('forms')
      .selectAll()
      .where('site_id', '=', siteId)
      .orderBy('title')
      .orderBy('id')
      .execute();
    const counts = await this.counts(
      siteId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => summary(r, counts.get(r.id) ?? 0));
  }

  /**
   * One page of the site's forms in the order of {@link list} (title, then id) with their field
   * and submission counts (issue #29: "Keyset pagination in SQL for every list (no in-memory
   * paging, no row cap: every row reachable by cursor)"; keyset on `forms_site_title`, migration
   * 0028; each form's submissions are its maintained tally, migration 0029).
   * @param options `limit` 1…MAX_ADMIN_PAGE_SIZE (clamped), `cursor` of an earlier page
   * @throws PlatformError `invalid` (field `cursor`) for a cursor of another list
   */
  async page(siteId: string, options: KeysetRequest): Promise<KeysetPage<FormSummary>> {
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    let q = this.db
      .selectFrom('forms')
      .selectAll('forms')
      // The form's maintained tally (migration 0029): one primary-key lookup per form of the page.
      .select((eb) =>
        eb
          .selectFrom('site_tallies')
          .select('site_tallies.n')
          .whereRef('site_tallies.site_id', '=', 'forms.site_id')
          .where('site_tallies.metric', '=', ITEM_METRICS.formSubmissions)
          .whereRef('site_tallies.key', '=', 'forms.id')
          .as('submissions'),
      )
      .where('forms.site_id', '=', siteId)
      .orderBy('forms.title')
      .orderBy('forms.id')
      .limit(limit + 1);
    if (options.cursor !== undefined) {
      const [title, id] = decodeCursor(options.cursor, 2) as [string, string];
      q = q.where((eb) => eb(eb.refTuple('forms.title', 'forms.id'), '>', eb.tuple(title, id)));
    }
    return keysetPage(
      await q.execute(),
      limit,
      (r) => [r.title, r.id],
      (r) => summary(r, Number(r.submissions ?? 0)),
    );
  }

  /** @throws PlatformError `not_found` */
  async get(siteId: string, id: string): Promise<Form> {
    const row = await this.row(siteId, id);
    const counts = await this.counts(siteId, [id]);
    return { ...summary(row, counts.get(id) ?? 0), fields: JSON.parse(row.fields) as FormField[] };
  }

  /** Submissions of a form, newest first (then by id). @throws PlatformError `not_found` (form) */
  async submissions(siteId: string, formId: string, filter: { since?: string } = {}): Promise<FormSubmission[]> {
    await this.row(siteId, formId);
    let q = this.db.selectFrom('form_submissions').selectAll().where('form_id', '=', formId);
    if (filter.since !== undefined) q = q.where('submitted_at', '>=', filter.since);
    return (await q.orderBy('submitted_at', 'desc').orderBy('id').execute()).map(submission);
  }

  /**
   * One page of a form's submissions in the order of {@link submissions} (newest first, then id
   * ascending), optionally only those at or after `since` (issue #29: "Keyset pagination in SQL
   * for every list (no in-memory paging, no row cap: every row reachable by cursor)"; keyset on
   * `form_submissions_form_submitted`, migration 0028).
   * @param options `limit` 1…MAX_ADMIN_PAGE_SIZE (clamped), `cursor` of an earlier page, `since` (ISO 8601 UTC)
   * @throws PlatformError `not_found` (form), `invalid` (field `cursor`) for a cursor of another list
   */
  async submissionsPage(
    siteId: string,
    formId: string,
    options: KeysetRequest & { since?: string },
  ): Promise<KeysetPage<FormSubmission>> {
    await this.row(siteId, formId);
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    let q = this.db
      .selectFrom('form_submissions')
      .selectAll()
      .where('form_id', '=', formId)
      .orderBy('submitted_at', 'desc')
      .orderBy('id')
      .limit(limit + 1);
    if (options.since !== undefined) q = q.where('submitted_at', '>=', options.since);
    if (options.cursor !== undefined) q = q.where(afterNewestFirst('submitted_at', 'id', options.cursor));
    return keysetPage(await q.execute(), limit, (r) => [r.submitted_at, r.id], submission);
  }

  private async row(siteId: string, id: string): Promise<FormsTable> {
    const row = await this.db
      .selectFrom('forms')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('form', id);
    return row;
  }

  /**
   * The submission counts of forms of the site: their maintained tallies (issue #29, "cost at
   * volume": `form_submissions`, migration 0029), one primary-key lookup per form, whatever the
   * number of submissions. A form without a tally row has none.
   */
  private async counts(siteId: string, ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('site_tallies')
      .select(['key', 'n'])
      .where('site_id', '=', siteId)
      .where('metric', '=', ITEM_METRICS.formSubmissions)
      .where('key', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.key, Number(r.n)]));
  }
}

const summary = (r: FormsTable, submissionCount: number): FormSummary => ({
  id: r.id,
  title: r.title,
  description: r.description,
  fieldCount: (JSON.parse(r.fields) as unknown[]).length,
  submissionCount,
  createdAt: r.created_at,
});

const submission = (r: FormSubmissionsTable): FormSubmission => ({
  id: r.id,
  submittedAt: r.submitted_at,
  values: JSON.parse(r.data) as Record<string, string | boolean>,
});
