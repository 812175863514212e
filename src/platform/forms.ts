/**
 * Forms of a site and what visitors submitted through them (SPEC §2.5 `forms:read`, the consent
 * page's "See form submissions"). Read only here. Fields and submitted values are stored as JSON
 * text (SQLite and PostgreSQL alike). Knows nothing of HTTP. Another site's forms are "not found".
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { notFound } from './errors.js';

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

type Db = PlatformDatabase & { forms: FormsTable; form_submissions: FormSubmissionsTable };

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
    const counts = await this.counts(rows.map((r) => r.id));
    return rows.map((r) => summary(r, counts.get(r.id) ?? 0));
  }

  /** @throws PlatformError `not_found` */
  async get(siteId: string, id: string): Promise<Form> {
    const row = await this.row(siteId, id);
    const counts = await this.counts([id]);
    return { ...summary(row, counts.get(id) ?? 0), fields: JSON.parse(row.fields) as FormField[] };
  }

  /** Submissions of a form, newest first (then by id). @throws PlatformError `not_found` (form) */
  async submissions(siteId: string, formId: string, filter: { since?: string } = {}): Promise<FormSubmission[]> {
    await this.row(siteId, formId);
    let q = this.db.selectFrom('form_submissions').selectAll().where('form_id', '=', formId);
    if (filter.since !== undefined) q = q.where('submitted_at', '>=', filter.since);
    const rows = await q.orderBy('submitted_at', 'desc').orderBy('id').execute();
    return rows.map((r) => ({
      id: r.id,
      submittedAt: r.submitted_at,
      values: JSON.parse(r.data) as Record<string, string | boolean>,
    }));
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

  private async counts(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('form_submissions')
      .select(['form_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('form_id', 'in', ids)
      .groupBy('form_id')
      .execute();
    return new Map(rows.map((r) => [r.form_id, Number(r.n)]));
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
