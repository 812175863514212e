/**
 * Schema migrations of the platform data, written with Kysely's schema builder so that the same
 * migrations run on SQLite (embedded) and PostgreSQL (scale-out). Applied at start, in order, once.
 */
import { type Kysely, Migrator, PostgresAdapter, sql, type Migration, type MigrationProvider } from 'kysely';

const migrations: Record<string, Migration> = {
  '0001_platform': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('sites')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('mcp_connections_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('memberships')
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['site_id', 'user_id', 'role'])
        .execute();
      await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();
      await db.schema
        .createTable('courses')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('courses_site_slug', ['site_id', 'slug'])
        .execute();
      await db.schema
        .createTable('lectures')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('duration_seconds', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('lectures_course').on('lectures').columns(['course_id', 'position']).execute();
      await db.schema
        .createTable('enrollments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
        .addColumn('expires_at', 'text')
        .addColumn('lifetime_access', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('enrollments_unique', ['site_id', 'user_id', 'course_id'])
        .execute();
      await db.schema
        .createIndex('enrollments_member')
        .on('enrollments')
        .columns(['site_id', 'user_id', 'id'])
        .execute();
      await db.schema
        .createTable('lecture_progress')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('course_id', 'text', (c) => c.notNull())
        .addColumn('lecture_id', 'text', (c) => c.notNull().references('lectures.id').onDelete('cascade'))
        .addColumn('position_seconds', 'integer', (c) => c.notNull())
        .addColumn('recorded_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('lecture_progress_pk', ['user_id', 'lecture_id'])
        .execute();
      await db.schema
        .createIndex('lecture_progress_course')
        .on('lecture_progress')
        .columns(['user_id', 'course_id', 'recorded_at'])
        .execute();
      await db.schema
        .createTable('orders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('number', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('total_minor', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('orders_member').on('orders').columns(['site_id', 'user_id', 'created_at']).execute();
      await db.schema
        .createTable('order_items')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('course_id', 'text')
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('unit_price_minor', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('order_items_order').on('order_items').column('order_id').execute();
      await db.schema
        .createTable('events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('starts_at', 'text', (c) => c.notNull())
        .addColumn('ends_at', 'text', (c) => c.notNull())
        .addColumn('location', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('event_registrations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('event_registrations_member')
        .on('event_registrations')
        .columns(['site_id', 'user_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('signing_keys')
        .addColumn('kid', 'text', (c) => c.primaryKey())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('private_jwk', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  },
  // Operator tools (issue 5): coupons of a site (SPEC §2.5 coupons:read / coupons:write).
  '0002_operator': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('coupons')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('percent_off', 'integer', (c) => c.notNull())
        .addColumn('max_redemptions', 'integer')
        .addColumn('redemptions', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'text')
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('coupons_site_code', ['site_id', 'code'])
        .execute();
    },
  },
  '0003_oauth_applications': {
    // SPEC §5.4 member clients: which site owns which OAuth application (the client metadata
    // itself lives in the oidc-provider adapter).
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('oauth_applications')
        .addColumn('client_id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('client_name', 'text', (c) => c.notNull())
        .addColumn('redirect_uris', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oauth_applications_site').on('oauth_applications').column('site_id').execute();
    },
  },
  '0004_admin_api': {
    // Admin API (issue 10): remembered answers of creating requests with an Idempotency-Key.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('response', 'text', (c) => c.notNull())
        .addColumn('location', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['site_id', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
    },
  },
  '0005_invitations': {
    async up(db: Kysely<any>) {
      // DESIGN D5: people join a site by accepting an invitation (token stored as SHA-256 only).
      await db.schema
        .createTable('invitations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('invited_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('accepted_at', 'text')
        .addColumn('accepted_by', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('invitations_site').on('invitations').columns(['site_id', 'created_at']).execute();
    },
  },
  // Issue 10: pages and posts (draft → published) and the site theme (SPEC §2.5 pages:*, posts:*, appearance:*).
  '0006_site_content': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('site_content')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('published_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('site_content_slug', ['site_id', 'kind', 'slug'])
        .execute();
      await db.schema
        .createTable('site_appearance')
        .addColumn('site_id', 'text', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
        .addColumn('primary_color', 'text', (c) => c.notNull())
        .addColumn('accent_color', 'text', (c) => c.notNull())
        .addColumn('logo_url', 'text')
        .addColumn('font_family', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  // DESIGN D6 rotation schedule (src/oauth/key-rotation.ts); rows of before keep NULLs (created_at counts).
  '0016_signing_key_rotation': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('signing_keys').addColumn('published_at', 'text').execute();
      await db.schema.alterTable('signing_keys').addColumn('activated_at', 'text').execute();
      await db.schema.alterTable('signing_keys').addColumn('signed_until', 'text').execute();
    },
  },
  '0006_operator_area': {
    // DESIGN D11 first run: one-time links (set a password), stored as SHA-256 hashes only.
    // DESIGN D10 audit trail: one row per recorded event, per site; never a token, code or password.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('one_time_links')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('audit_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text')
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text')
        .addColumn('user_id', 'text')
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('audit_events_site_at').on('audit_events').columns(['site_id', 'at']).execute();
      // Connected apps: which grant was given at which site, to list and revoke them per site or per user.
      await db.schema
        .createTable('connected_grants')
        .addColumn('grant_id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .execute();
      await db.schema
        .createIndex('connected_grants_site')
        .on('connected_grants')
        .columns(['site_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('connected_grants_user')
        .on('connected_grants')
        .columns(['user_id', 'created_at'])
        .execute();
    },
  },
  // Issue 10: lecturers (instructor profiles ↔ courses), comments on lectures and posts, forms and submissions.
  '0017_lecturers_comments_forms': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('lecturers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('bio', 'text', (c) => c.notNull())
        .addColumn('photo_url', 'text')
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('lecturers_site').on('lecturers').columns(['site_id', 'name']).execute();
      await db.schema
        .createTable('lecturer_courses')
        .addColumn('lecturer_id', 'text', (c) => c.notNull().references('lecturers.id').onDelete('cascade'))
        .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('lecturer_courses_pk', ['lecturer_id', 'course_id'])
        .execute();
      await db.schema
        .createTable('comments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('lecture_id', 'text', (c) => c.references('lectures.id').onDelete('cascade'))
        .addColumn('post_id', 'text', (c) => c.references('site_content.id').onDelete('cascade'))
        .addColumn('author_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('comments_site_created').on('comments').columns(['site_id', 'created_at']).execute();
      await db.schema
        .createTable('forms')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('form_submissions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('submitted_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('form_submissions_form')
        .on('form_submissions')
        .columns(['form_id', 'submitted_at'])
        .execute();
    },
  },
  // Issue #10 storage:write uploads (src/platform/files.ts): bytes in the platform store by default.
  '0018_uploaded_files': {
    async up(db: Kysely<any>) {
      const blob = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
      await db.schema
        .createTable('uploaded_files')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('filename', 'text', (c) => c.notNull())
        .addColumn('bytes', blob)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('uploaded_files_site')
        .on('uploaded_files')
        .columns(['site_id', 'created_at'])
        .execute();
    },
  },
  // Issue 10: membership plans, subscriptions and digital products (SPEC §2.5 membership_plans:*, subscriptions:*, digital_products:*).
  '0019_membership_plans_products': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('membership_plans')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('price_minor', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('billing_interval', 'text', (c) => c.notNull())
        .addColumn('course_slugs', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('membership_plans_site')
        .on('membership_plans')
        .columns(['site_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('subscriptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('plan_id', 'text', (c) => c.notNull().references('membership_plans.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('current_period_start', 'text', (c) => c.notNull())
        .addColumn('current_period_end', 'text', (c) => c.notNull())
        .addColumn('cancelled_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('subscriptions_site')
        .on('subscriptions')
        .columns(['site_id', 'created_at'])
        .execute();
      // One live (not cancelled) subscription per person and plan, also under concurrent requests.
      await db.schema
        .createIndex('subscriptions_live')
        .on('subscriptions')
        .columns(['site_id', 'plan_id', 'user_id'])
        .unique()
        .where(sql.ref('status'), '<>', 'cancelled')
        .execute();
      await db.schema
        .createTable('digital_products')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('price_minor', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('file', 'text', (c) => c.notNull())
        .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('digital_products_site')
        .on('digital_products')
        .columns(['site_id', 'created_at'])
        .execute();
    },
  },
  // Issue #10 course sections (src/platform/operator/sections.ts): a lecture belongs to at most one section.
  '0020_course_sections': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('course_sections')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('course_sections_course')
        .on('course_sections')
        .columns(['course_id', 'position'])
        .execute();
      await db.schema
        .alterTable('lectures')
        .addColumn('section_id', 'text', (c) => c.references('course_sections.id').onDelete('set null'))
        .execute();
    },
  },
  // Issue #25 (6, 7, 9) / #27: operator actions name their target and surface in the audit trail;
  // If-Match updates claim a version (src/platform/versions.ts). Additive only (DESIGN D12).
  '0021_operations_layer': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('audit_events').addColumn('target', 'text').execute();
      await db.schema.alterTable('audit_events').addColumn('surface', 'text').execute();
      // The index the trail filtered by an application reads is 0024's `audit_events_site_target_at`.
      await db.schema
        .createTable('resource_versions')
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('resource', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('resource_versions_pk', ['site_id', 'resource'])
        .execute();
    },
  },
  // Issue #25 findings 2, 11, 12 (DESIGN D5): links sent to an address prove it before an account is
  // made for it (src/platform/address-links.ts); a password change ends every earlier session.
  '0022_verified_accounts': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('users').addColumn('sessions_valid_after', 'bigint').execute();
      await db.schema
        .createTable('address_links')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('invitation_id', 'text', (c) => c.references('invitations.id').onDelete('cascade'))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('address_links_email').on('address_links').columns(['email', 'created_at']).execute();
      await db.schema.createIndex('one_time_links_user').on('one_time_links').column('user_id').execute();
    },
  },
  // Issue #29 (lists at a million members): every operator list pages in SQL by keyset on an index
  // that holds its sort key, so a page reads ≤ limit + 1 index entries however big the site is.
  // Lists sorted by a person's e-mail (members, students) or a course slug keep a copy of it on the
  // row (neither ever changes: no code updates `users.email` or `courses.slug`), filled by an
  // insert trigger so every writer (services, seeds, tests) gets it. The retention purge walks
  // `audit_events_at`; the audit client/user filters and every `ORDER BY … id` get their indexes.
  '0023_keyset_list_indexes': {
    async up(db: Kysely<any>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      await db.schema.alterTable('memberships').addColumn('email', 'text').execute();
      await db.schema.alterTable('enrollments').addColumn('email', 'text').execute();
      await db.schema.alterTable('enrollments').addColumn('course_slug', 'text').execute();
      await sql`UPDATE memberships SET email = (SELECT email FROM users WHERE users.id = memberships.user_id)`.execute(
        db,
      );
      await sql`UPDATE enrollments SET email = (SELECT email FROM users WHERE users.id = enrollments.user_id), course_slug = (SELECT slug FROM courses WHERE courses.id = enrollments.course_id)`.execute(
        db,
      );
      if (postgres) {
        await sql`CREATE FUNCTION memberships_copy_email() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF NEW.email IS NULL THEN SELECT email INTO NEW.email FROM users WHERE id = NEW.user_id; END IF;
            RETURN NEW;
          END $$`.execute(db);
        await sql`CREATE TRIGGER memberships_copy_email BEFORE INSERT ON memberships FOR EACH ROW EXECUTE FUNCTION memberships_copy_email()`.execute(
          db,
        );
        await sql`CREATE FUNCTION enrollments_copy_keys() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF NEW.email IS NULL THEN SELECT email INTO NEW.email FROM users WHERE id = NEW.user_id; END IF;
            IF NEW.course_slug IS NULL THEN SELECT slug INTO NEW.course_slug FROM courses WHERE id = NEW.course_id; END IF;
            RETURN NEW;
          END $$`.execute(db);
        await sql`CREATE TRIGGER enrollments_copy_keys BEFORE INSERT ON enrollments FOR EACH ROW EXECUTE FUNCTION enrollments_copy_keys()`.execute(
          db,
        );
      } else {
        // SQLite cannot assign NEW in a BEFORE trigger: the row is completed right after its insert.
        await sql`CREATE TRIGGER memberships_copy_email AFTER INSERT ON memberships WHEN NEW.email IS NULL
          BEGIN UPDATE memberships SET email = (SELECT email FROM users WHERE id = NEW.user_id) WHERE rowid = NEW.rowid; END`.execute(
          db,
        );
        await sql`CREATE TRIGGER enrollments_copy_keys AFTER INSERT ON enrollments WHEN NEW.email IS NULL OR NEW.course_slug IS NULL
          BEGIN UPDATE enrollments SET email = coalesce(NEW.email, (SELECT email FROM users WHERE id = NEW.user_id)),
            course_slug = coalesce(NEW.course_slug, (SELECT slug FROM courses WHERE id = NEW.course_id)) WHERE rowid = NEW.rowid; END`.execute(
          db,
        );
      }
      const index = (name: string, table: string, columns: string[]) =>
        db.schema.createIndex(name).on(table).columns(columns).execute();
      // members: by e-mail; with a role filter, that role's people by e-mail.
      await index('memberships_site_email', 'memberships', ['site_id', 'email', 'user_id', 'role']);
      await index('memberships_site_role_email', 'memberships', ['site_id', 'role', 'email', 'user_id']);
      // students: by e-mail then course slug; of one course, by e-mail.
      await index('enrollments_site_email', 'enrollments', ['site_id', 'email', 'course_slug']);
      await index('enrollments_site_course_email', 'enrollments', ['site_id', 'course_slug', 'email']);
      // orders: newest first; of one status, newest first.
      await index('orders_site_created', 'orders', ['site_id', 'created_at', 'id']);
      await index('orders_site_status_created', 'orders', ['site_id', 'status', 'created_at', 'id']);
      // audit trail: newest first (replaces audit_events_site_at, its prefix), of one client or user;
      // the retention purge by time alone.
      await index('audit_events_site_at_id', 'audit_events', ['site_id', 'at', 'id']);
      await db.schema.dropIndex('audit_events_site_at').execute();
      await index('audit_events_site_client_at', 'audit_events', ['site_id', 'client_id', 'at', 'id']);
      await index('audit_events_site_user_at', 'audit_events', ['site_id', 'user_id', 'at', 'id']);
      await index('audit_events_at', 'audit_events', ['at', 'id']);
      // connected grants: newest first, of one client.
      await index('connected_grants_site_created', 'connected_grants', ['site_id', 'created_at', 'grant_id']);
      await index('connected_grants_site_client', 'connected_grants', [
        'site_id',
        'client_id',
        'created_at',
        'grant_id',
      ]);
      // comments: newest first.
      await index('comments_site_created_id', 'comments', ['site_id', 'created_at', 'id']);
      // analytics: active learners of the last 30 days.
      await index('lecture_progress_site_recorded', 'lecture_progress', ['site_id', 'recorded_at', 'user_id']);
    },
  },
  // Issue #29, DESIGN D10: refreshes are audited as counters, one row per grant and UTC hour
  // (src/platform/audit.ts). Additive: existing rows count 1 and their last time is read as `at`.
  // The counter row is found by its primary key (an id derived from grant and hour); the retention
  // purge keeps walking `audit_events_at` by the first time.
  '0024_refresh_counters': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('audit_events')
        .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.alterTable('audit_events').addColumn('last_at', 'text').execute();
      await db.schema.alterTable('audit_events').addColumn('grant_id', 'text').execute();
      // The audit trail of one client also lists the operator actions on it (target
      // `application:<client_id>`): that half of the read seeks this index (src/platform/audit.ts).
      await db.schema
        .createIndex('audit_events_site_target_at')
        .on('audit_events')
        .columns(['site_id', 'target', 'at', 'id'])
        .execute();
    },
  },
  // Issue #28 (DESIGN D12): client registrations are durable in the platform store
  // (src/store/durable-clients.ts). Additive: the previous release ignores the table.
  '0025_durable_clients': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('oauth_clients')
        .ifNotExists()
        .addColumn('client_id', 'text', (c) => c.primaryKey())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('oauth_clients_expiry')
        .ifNotExists()
        .on('oauth_clients')
        .column('expires_at')
        .execute();
    },
  },
  // Issue #29: the analytics overview reads maintained counters instead of counting a site's rows
  // (src/platform/operator/analytics.ts). `site_tallies` holds one row per (site, metric, key),
  // kept by triggers on every table it counts, so every writer (services, seeds, CLI, tests,
  // FK cascades) updates it in the same transaction as the row itself. The metrics:
  //   courses/total, courses/public          · people/'' (distinct members) · role/<role>
  //   enrollments/total, enrollments/open     (lifetime access or no expiry: never expires)
  //   order_status/<status> · paid_minor/<currency> (sum of paid orders' total_minor)
  //   registration_status/<status> · client_grants/<client_id> (connected grants per application)
  //   usage/<YYYY-MM-DD> <client_id> (tokens issued and refreshed per client and UTC day)
  // A tally is written only while its site exists (a site's deletion removes its tallies, and the
  // cascade that follows cannot re-create them). Membership rows never change site or user (no
  // code updates them; a role change is a delete and an insert): their update trigger follows the
  // role alone. Enrollments that expire at a given time are counted at read time on
  // `enrollments_site_expiring` (only those with an expiry and no lifetime access).
  '0026_site_tallies': {
    async up(db: Kysely<any>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      await db.schema
        .createTable('site_tallies')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('metric', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('site_tallies_pk', ['site_id', 'metric', 'key'])
        .execute();
      await db.schema
        .createIndex('enrollments_site_expiring')
        .on('enrollments')
        .columns(['site_id', 'lifetime_access', 'expires_at'])
        .execute();
      // A learner's last progress at a site (active learners of the last 30 days: one index range,
      // no DISTINCT over a month of progress rows), kept by triggers on lecture_progress.
      await db.schema
        .createTable('learner_activity')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('last_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('learner_activity_pk', ['site_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('learner_activity_site_last')
        .on('learner_activity')
        .columns(['site_id', 'last_at'])
        .execute();
      // Each table's contribution: [metric, key expression, amount expression] of a row `R`.
      const contributions: Record<string, Array<[string, string, string]>> = {
        courses: [
          ['courses', `'total'`, '1'],
          ['courses', `'public'`, 'CASE WHEN R.is_public = 1 THEN 1 ELSE 0 END'],
        ],
        enrollments: [
          ['enrollments', `'total'`, '1'],
          ['enrollments', `'open'`, 'CASE WHEN R.lifetime_access = 1 OR R.expires_at IS NULL THEN 1 ELSE 0 END'],
        ],
        orders: [
          ['order_status', 'R.status', '1'],
          ['paid_minor', 'R.currency', `CASE WHEN R.status = 'paid' THEN R.total_minor ELSE 0 END`],
        ],
        event_registrations: [['registration_status', 'R.status', '1']],
        memberships: [['role', 'R.role', '1']],
        connected_grants: [['client_grants', 'R.client_id', '1']],
      };
      const of = (expr: string, row: string) => expr.replaceAll('R.', `${row}.`);
      // Distinct members: a person counts when their first role at the site arrives and stops
      // counting when their last one goes.
      const firstRole = `NOT EXISTS (SELECT 1 FROM memberships m WHERE m.site_id = NEW.site_id AND m.user_id = NEW.user_id AND m.role <> NEW.role)`;
      const lastRole = `NOT EXISTS (SELECT 1 FROM memberships m WHERE m.site_id = OLD.site_id AND m.user_id = OLD.user_id)`;
      if (postgres) {
        await sql`CREATE FUNCTION site_tally_add(site text, m text, k text, delta bigint) RETURNS void LANGUAGE plpgsql AS $$
          BEGIN
            IF delta = 0 OR NOT EXISTS (SELECT 1 FROM sites WHERE id = site) THEN RETURN; END IF;
            INSERT INTO site_tallies (site_id, metric, key, n) VALUES (site, m, k, delta)
              ON CONFLICT (site_id, metric, key) DO UPDATE SET n = site_tallies.n + EXCLUDED.n;
          END $$`.execute(db);
        for (const [table, parts] of Object.entries(contributions)) {
          const add = (row: 'NEW' | 'OLD', sign: string) =>
            parts
              .map(
                ([metric, key, amount]) =>
                  `PERFORM site_tally_add(${row}.site_id, '${metric}', ${of(key, row)}, ${sign}(${of(amount, row)}));`,
              )
              .join('\n              ');
          await sql
            .raw(
              `CREATE FUNCTION ${table}_tally() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_OP IN ('UPDATE', 'DELETE') THEN
              ${add('OLD', '-')}
              END IF;
              IF TG_OP IN ('INSERT', 'UPDATE') THEN
              ${add('NEW', '')}
              END IF;
              RETURN NULL;
            END $$`,
            )
            .execute(db);
          await sql
            .raw(
              `CREATE TRIGGER ${table}_tally AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_tally()`,
            )
            .execute(db);
        }
        // Distinct members on PostgreSQL: an AFTER ROW trigger runs once the whole statement is done,
        // so two roles of one person inserted by one statement would each see the other. A BEFORE
        // ROW trigger sees the rows the statement has handled so far: the person counts when no
        // row of theirs is there yet, and stops counting when the last one is about to go.
        await sql`CREATE FUNCTION memberships_people_tally() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF TG_OP = 'INSERT' THEN
              IF NOT EXISTS (SELECT 1 FROM memberships m WHERE m.site_id = NEW.site_id AND m.user_id = NEW.user_id) THEN
                PERFORM site_tally_add(NEW.site_id, 'people', '', 1);
              END IF;
              RETURN NEW;
            END IF;
            IF NOT EXISTS (SELECT 1 FROM memberships m WHERE m.site_id = OLD.site_id AND m.user_id = OLD.user_id AND m.role <> OLD.role) THEN
              PERFORM site_tally_add(OLD.site_id, 'people', '', -1);
            END IF;
            RETURN OLD;
          END $$`.execute(db);
        await sql`CREATE TRIGGER memberships_people_tally BEFORE INSERT OR DELETE ON memberships FOR EACH ROW EXECUTE FUNCTION memberships_people_tally()`.execute(
          db,
        );
        await sql`CREATE FUNCTION sites_tally_drop() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN DELETE FROM site_tallies WHERE site_id = OLD.id; RETURN NULL; END $$`.execute(db);
        await sql`CREATE TRIGGER sites_tally_drop AFTER DELETE ON sites FOR EACH ROW EXECUTE FUNCTION sites_tally_drop()`.execute(
          db,
        );
      } else {
        // SQLite: one UPSERT per contribution (`INSERT … SELECT … WHERE` guards on the site; the
        // WHERE also resolves the parser's ON CONFLICT ambiguity), a plain UPDATE to take away.
        const upsert = (row: 'NEW' | 'OLD', sign: string, metric: string, key: string, amount: string, when = '1') =>
          `INSERT INTO site_tallies (site_id, metric, key, n) SELECT ${row}.site_id, '${metric}', ${of(key, row)}, ${sign}(${of(amount, row)})
             WHERE ${when} AND EXISTS (SELECT 1 FROM sites WHERE id = ${row}.site_id)
             ON CONFLICT (site_id, metric, key) DO UPDATE SET n = n + excluded.n;`;
        for (const [table, parts] of Object.entries(contributions)) {
          const add = (row: 'NEW' | 'OLD', sign: string) =>
            parts.map(([metric, key, amount]) => upsert(row, sign, metric, key, amount)).join('\n            ');
          const people = table === 'memberships';
          await sql
            .raw(
              `CREATE TRIGGER ${table}_tally_insert AFTER INSERT ON ${table} BEGIN
            ${add('NEW', '')}
            ${people ? upsert('NEW', '', 'people', `''`, '1', firstRole) : ''}
          END`,
            )
            .execute(db);
          await sql
            .raw(
              `CREATE TRIGGER ${table}_tally_delete AFTER DELETE ON ${table} BEGIN
            ${add('OLD', '-')}
            ${people ? upsert('OLD', '-', 'people', `''`, '1', lastRole) : ''}
          END`,
            )
            .execute(db);
          await sql
            .raw(
              `CREATE TRIGGER ${table}_tally_update AFTER UPDATE ON ${table} BEGIN
            ${add('OLD', '-')}
            ${add('NEW', '')}
          END`,
            )
            .execute(db);
        }
        await sql`CREATE TRIGGER sites_tally_drop AFTER DELETE ON sites BEGIN DELETE FROM site_tallies WHERE site_id = OLD.id; END`.execute(
          db,
        );
      }
      // learner_activity: a newer progress raises the learner's last time; anything else (an older
      // time, a moved row, a deletion) recomputes it from the learner's rows at the site.
      const recompute = (row: 'NEW' | 'OLD') =>
        `DELETE FROM learner_activity WHERE site_id = ${row}.site_id AND user_id = ${row}.user_id;
            INSERT INTO learner_activity (site_id, user_id, last_at)
              SELECT site_id, user_id, max(recorded_at) FROM lecture_progress
              WHERE user_id = ${row}.user_id AND site_id = ${row}.site_id GROUP BY site_id, user_id;`;
      const raise = `INSERT INTO learner_activity (site_id, user_id, last_at) VALUES (NEW.site_id, NEW.user_id, NEW.recorded_at)
              ON CONFLICT (site_id, user_id) DO UPDATE SET last_at = CASE WHEN excluded.last_at > learner_activity.last_at THEN excluded.last_at ELSE learner_activity.last_at END;`;
      const newer = `NEW.site_id = OLD.site_id AND NEW.user_id = OLD.user_id AND NEW.recorded_at >= OLD.recorded_at`;
      if (postgres) {
        await sql
          .raw(
            `CREATE FUNCTION lecture_progress_activity() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND ${newer}) THEN
              ${raise}
              RETURN NULL;
            END IF;
            ${recompute('OLD')}
            IF TG_OP = 'UPDATE' THEN ${raise} END IF;
            RETURN NULL;
          END $$`,
          )
          .execute(db);
        await sql`CREATE TRIGGER lecture_progress_activity AFTER INSERT OR UPDATE OR DELETE ON lecture_progress FOR EACH ROW EXECUTE FUNCTION lecture_progress_activity()`.execute(
          db,
        );
        await sql`CREATE FUNCTION sites_activity_drop() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN DELETE FROM learner_activity WHERE site_id = OLD.id; RETURN NULL; END $$`.execute(db);
        await sql`CREATE TRIGGER sites_activity_drop AFTER DELETE ON sites FOR EACH ROW EXECUTE FUNCTION sites_activity_drop()`.execute(
          db,
        );
      } else {
        await sql
          .raw(`CREATE TRIGGER lecture_progress_activity_insert AFTER INSERT ON lecture_progress BEGIN ${raise} END`)
          .execute(db);
        await sql
          .raw(
            `CREATE TRIGGER lecture_progress_activity_newer AFTER UPDATE ON lecture_progress WHEN ${newer} BEGIN ${raise} END`,
          )
          .execute(db);
        await sql
          .raw(
            `CREATE TRIGGER lecture_progress_activity_update AFTER UPDATE ON lecture_progress WHEN NOT (${newer}) BEGIN
            ${recompute('OLD')}
            ${raise}
          END`,
          )
          .execute(db);
        await sql
          .raw(
            `CREATE TRIGGER lecture_progress_activity_delete AFTER DELETE ON lecture_progress BEGIN ${recompute('OLD')} END`,
          )
          .execute(db);
        await sql`CREATE TRIGGER sites_activity_drop AFTER DELETE ON sites BEGIN DELETE FROM learner_activity WHERE site_id = OLD.id; END`.execute(
          db,
        );
      }
      await sql`INSERT INTO learner_activity (site_id, user_id, last_at)
        SELECT site_id, user_id, max(recorded_at) FROM lecture_progress GROUP BY site_id, user_id`.execute(db);
      // Tokens issued and refreshed per client and UTC day (the operator overview's usage chart,
      // `AuditTrail.tokenUsage`): `usage/<YYYY-MM-DD> <client_id>` adds each code exchange or
      // refresh event's `count` (a refresh counter row's growth included) by the day of its `at`.
      // Rows leave the audit trail only through the retention purge, which drops the tallies of
      // the days it passed (src/platform/audit.ts), so there is no delete trigger.
      const usage = (row: 'NEW' | 'OLD') =>
        `${row}.kind IN ('token_issued', 'refresh') AND ${row}.client_id IS NOT NULL AND ${row}.site_id IS NOT NULL`;
      const usageKey = (row: 'NEW' | 'OLD') => `substr(${row}.at, 1, 10) || ' ' || ${row}.client_id`;
      const sameKey = `OLD.at = NEW.at AND OLD.kind = NEW.kind AND OLD.client_id = NEW.client_id AND OLD.site_id = NEW.site_id`;
      if (postgres) {
        await sql
          .raw(
            `CREATE FUNCTION audit_events_usage_tally() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF TG_OP = 'UPDATE' AND ${usage('OLD')} AND ${usage('NEW')} AND ${sameKey} THEN
              PERFORM site_tally_add(NEW.site_id, 'usage', ${usageKey('NEW')}, NEW.count - OLD.count);
              RETURN NULL;
            END IF;
            IF TG_OP = 'UPDATE' AND ${usage('OLD')} THEN
              PERFORM site_tally_add(OLD.site_id, 'usage', ${usageKey('OLD')}, -OLD.count);
            END IF;
            IF ${usage('NEW')} THEN
              PERFORM site_tally_add(NEW.site_id, 'usage', ${usageKey('NEW')}, NEW.count);
            END IF;
            RETURN NULL;
          END $$`,
          )
          .execute(db);
        await sql`CREATE TRIGGER audit_events_usage_tally AFTER INSERT OR UPDATE ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_events_usage_tally()`.execute(
          db,
        );
      } else {
        const add = (row: 'NEW' | 'OLD', amount: string) =>
          `INSERT INTO site_tallies (site_id, metric, key, n) SELECT ${row}.site_id, 'usage', ${usageKey(row)}, ${amount}
             WHERE EXISTS (SELECT 1 FROM sites WHERE id = ${row}.site_id)
             ON CONFLICT (site_id, metric, key) DO UPDATE SET n = n + excluded.n;`;
        await sql
          .raw(`CREATE TRIGGER audit_events_usage_insert AFTER INSERT ON audit_events WHEN ${usage('NEW')} BEGIN
            ${add('NEW', 'NEW.count')}
          END`)
          .execute(db);
        // A refresh counter's growth (the usual update: same event, larger count).
        await sql
          .raw(`CREATE TRIGGER audit_events_usage_count AFTER UPDATE ON audit_events
            WHEN ${usage('OLD')} AND ${usage('NEW')} AND ${sameKey} AND NEW.count <> OLD.count BEGIN
            ${add('NEW', 'NEW.count - OLD.count')}
          END`)
          .execute(db);
        // Any other update moves the event's contribution.
        await sql
          .raw(`CREATE TRIGGER audit_events_usage_move AFTER UPDATE ON audit_events
            WHEN NOT (${usage('OLD')} AND ${usage('NEW')} AND ${sameKey}) BEGIN
            UPDATE site_tallies SET n = n - OLD.count WHERE ${usage('OLD')} AND site_id = OLD.site_id AND metric = 'usage' AND key = ${usageKey('OLD')};
            INSERT INTO site_tallies (site_id, metric, key, n) SELECT NEW.site_id, 'usage', ${usageKey('NEW')}, NEW.count
              WHERE ${usage('NEW')} AND EXISTS (SELECT 1 FROM sites WHERE id = NEW.site_id)
              ON CONFLICT (site_id, metric, key) DO UPDATE SET n = n + excluded.n;
          END`)
          .execute(db);
      }
      await sql`INSERT INTO site_tallies (site_id, metric, key, n)
        SELECT site_id, 'usage', substr(at, 1, 10) || ' ' || client_id, sum(count) FROM audit_events
        WHERE kind IN ('token_issued', 'refresh') AND client_id IS NOT NULL AND site_id IN (SELECT id FROM sites)
        GROUP BY site_id, substr(at, 1, 10), client_id`.execute(db);
      // The counts of the rows already there.
      for (const [table, parts] of Object.entries(contributions))
        for (const [metric, key, amount] of parts)
          await sql
            .raw(
              `INSERT INTO site_tallies (site_id, metric, key, n) SELECT R.site_id, '${metric}', ${key}, sum(${amount}) FROM ${table} R GROUP BY R.site_id${key.startsWith("'") ? '' : `, ${key}`}`,
            )
            .execute(db);
      await sql`INSERT INTO site_tallies (site_id, metric, key, n) SELECT site_id, 'people', '', count(DISTINCT user_id) FROM memberships GROUP BY site_id`.execute(
        db,
      );
    },
  },
  // Issue #29 (query plans, test/platform/query-plans.test.ts): the operator reads that still
  // sorted or scanned. The audit trail of one kind (e.g. operator actions, rare among token events)
  // walked the site's whole `(site_id, at)` range on SQLite and was a full scan plus sort on
  // PostgreSQL; the connected grants of one member at a site were sorted after `connected_grants_user`.
  // Two older indexes are prefixes of the keyset indexes 0023 added (`comments_site_created` of
  // `comments_site_created_id`, `connected_grants_site` of `connected_grants_site_created`):
  // PostgreSQL picked the smaller one and sorted each run of equal times by id (an Incremental
  // Sort), so they go, as 0023 dropped `audit_events_site_at`. Indexes only, the same on both
  // stores: the previous release reads the same rows (DESIGN D12).
  '0027_list_plan_indexes': {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('audit_events_site_kind_at')
        .ifNotExists()
        .on('audit_events')
        .columns(['site_id', 'kind', 'at', 'id'])
        .execute();
      await db.schema
        .createIndex('connected_grants_site_user')
        .ifNotExists()
        .on('connected_grants')
        .columns(['site_id', 'user_id', 'created_at', 'grant_id'])
        .execute();
      // An application's grants and distinct members at a site (the delete page, the revoke notice):
      // counted in index order, without a temporary B-tree for the DISTINCT.
      await db.schema
        .createIndex('connected_grants_site_client_user')
        .ifNotExists()
        .on('connected_grants')
        .columns(['site_id', 'client_id', 'user_id'])
        .execute();
      await db.schema.dropIndex('comments_site_created').ifExists().execute();
      await db.schema.dropIndex('connected_grants_site').ifExists().execute();
    },
  },
  // Issue #29 ("Keyset pagination in SQL for every list (no in-memory paging, no row cap)"): the
  // remaining `/api/v1` lists page by keyset in SQL, each on an index holding its whole sort key
  // (the row's unique id or slug last) and, where the list has a filter, one led by the filtered
  // column, so a page is one index range of ≤ limit + 1 entries. Invitations have derived states:
  // settled ones (accepted, or withdrawn) and open ones (pending or expired by `expires_at`) each
  // get a partial index, the open one carrying `expires_at` for the pending/expired test. Events
  // count their registrations per event (there was no index on `event_id`). Older indexes that are
  // prefixes of these go (PostgreSQL picks the smaller one and sorts, as 0027 says). Indexes only,
  // the same on both stores: the previous release reads the same rows (DESIGN D12).
  '0028_list_keyset_indexes': {
    async up(db: Kysely<any>) {
      const index = (name: string, table: string, columns: string[]) =>
        db.schema.createIndex(name).ifNotExists().on(table).columns(columns);
      // invitations: newest first, then id (ascending); of one status.
      await index('invitations_site_created', 'invitations', ['site_id', 'created_at desc', 'id']).execute();
      await index('invitations_site_accepted', 'invitations', ['site_id', 'created_at desc', 'id'])
        .where(sql.ref('accepted_at'), 'is not', null)
        .execute();
      await index('invitations_site_revoked', 'invitations', ['site_id', 'created_at desc', 'id'])
        .where(sql.ref('accepted_at'), 'is', null)
        .where(sql.ref('revoked_at'), 'is not', null)
        .execute();
      await index('invitations_site_open', 'invitations', ['site_id', 'created_at desc', 'id', 'expires_at'])
        .where(sql.ref('accepted_at'), 'is', null)
        .where(sql.ref('revoked_at'), 'is', null)
        .execute();
      await db.schema.dropIndex('invitations_site').ifExists().execute();
      // lecturers: by name, then id.
      await index('lecturers_site_name', 'lecturers', ['site_id', 'name', 'id']).execute();
      await db.schema.dropIndex('lecturers_site').ifExists().execute();
      // membership plans: oldest first, then id; of one status.
      await index('membership_plans_site_created', 'membership_plans', ['site_id', 'created_at', 'id']).execute();
      await index('membership_plans_site_status', 'membership_plans', [
        'site_id',
        'status',
        'created_at',
        'id',
      ]).execute();
      await db.schema.dropIndex('membership_plans_site').ifExists().execute();
      // subscriptions: newest first, then id (ascending); of one plan, one status, or both.
      const newest = ['created_at desc', 'id'];
      await index('subscriptions_site_created', 'subscriptions', ['site_id', ...newest]).execute();
      await index('subscriptions_site_plan', 'subscriptions', ['site_id', 'plan_id', ...newest]).execute();
      await index('subscriptions_site_status', 'subscriptions', ['site_id', 'status', ...newest]).execute();
      await index('subscriptions_site_plan_status', 'subscriptions', [
        'site_id',
        'plan_id',
        'status',
        ...newest,
      ]).execute();
      await db.schema.dropIndex('subscriptions_site').ifExists().execute();
      // digital products: oldest first, then id; published or drafts.
      await index('digital_products_site_created', 'digital_products', ['site_id', 'created_at', 'id']).execute();
      await index('digital_products_site_published', 'digital_products', [
        'site_id',
        'published',
        'created_at',
        'id',
      ]).execute();
      await db.schema.dropIndex('digital_products_site').ifExists().execute();
      // events: by start, then id (`ends_at` tested on the index entry for upcomingOnly); the
      // registrations of one event, counted by status.
      await index('events_site_starts', 'events', ['site_id', 'starts_at', 'id', 'ends_at']).execute();
      await index('event_registrations_event', 'event_registrations', ['event_id', 'status']).execute();
      // coupons: by code (the unique `coupons_site_code`); active or not.
      await index('coupons_site_active', 'coupons', ['site_id', 'active', 'code']).execute();
      // pages by slug (the unique `site_content_slug`), posts newest first then slug; of one status.
      await index('site_content_status_slug', 'site_content', ['site_id', 'kind', 'status', 'slug']).execute();
      await index('site_content_created', 'site_content', ['site_id', 'kind', 'created_at desc', 'slug']).execute();
      await index('site_content_status_created', 'site_content', [
        'site_id',
        'kind',
        'status',
        'created_at desc',
        'slug',
      ]).execute();
      // courses: by title, then slug; public or hidden.
      await index('courses_site_title', 'courses', ['site_id', 'title', 'slug']).execute();
      await index('courses_site_public_title', 'courses', ['site_id', 'is_public', 'title', 'slug']).execute();
      // forms: by title, then id; a form's submissions newest first, then id (ascending).
      await index('forms_site_title', 'forms', ['site_id', 'title', 'id']).execute();
      await index('form_submissions_form_submitted', 'form_submissions', [
        'form_id',
        'submitted_at desc',
        'id',
      ]).execute();
      await db.schema.dropIndex('form_submissions_form').ifExists().execute();
    },
  },
  // Issue #29, "cost at volume": the counts beside each row of the operator lists (`/api/v1`, the
  // MCP operator tools) and in one item's read — a course's lectures and enrollments, an event's
  // registrations that are not cancelled, a form's submissions — were counted for the page's rows
  // on an index (0028): one index range as long as the item's children, so a course with a million
  // enrollments read a million index entries on every page view. They become maintained counters
  // in `site_tallies` (0026), kept by triggers in the same transaction as the rows on both stores,
  // and a page reads one primary-key entry per row. The metrics, one row per item, at the item's
  // site, keyed by its id (the child rows that name the item, whatever site they carry):
  //   course_enrollments/<course id>   enrollments of the course
  //   course_lectures/<course id>      lectures of the course
  //   event_registrations/<event id>   registrations of the event that are not cancelled
  //   form_submissions/<form id>       submissions of the form
  // The rules, whatever writes the rows (services, seeds, plain SQL, upserts, FK cascades):
  // - An add is an upsert that selects the item's row by primary key: it is written only while the
  //   item exists, at the item's site (lectures and submissions carry no site). An existing item
  //   has an existing site, so 0026's rule (a tally is written only while its site exists) holds.
  // - A take is a plain UPDATE at the item's site, never an insert. An item's deletion drops its
  //   tallies (AFTER DELETE on courses, events, forms), and the takes of its cascaded children
  //   find no item and no row — on both stores, in whatever order the cascade and the item's own
  //   trigger run (SQLite deletes the children after the item's row; PostgreSQL's cascade is
  //   itself an AFTER trigger). A take written as 0026's signed upsert would re-create the row.
  // - An update counts only when it moves the row: another item, or another amount (a registration
  //   cancelled or restored). The update triggers are limited to those columns (`UPDATE OF … WHEN`
  //   on both stores), so an enrollment's renewal (an upsert of its expiry) and 0023's copy of the
  //   sort keys write no tally.
  // - An item moved to another site takes its tallies along. (No code moves one. On PostgreSQL a
  //   child row written by another transaction while the move is uncommitted reads the item's old
  //   site and may be counted there: the add does not lock the item's row, which would make every
  //   enrollment take a share lock on its course.)
  // - A site's deletion drops them with the rest of the site's tallies (0026's `sites_tally_drop`).
  // These are plain counts, not distinct members: 0026's BEFORE ROW trick is not needed. On
  // PostgreSQL a table's triggers for one event fire in name order: `<table>_tally_item` runs after
  // 0026's `<table>_tally`, so a write takes the site-wide tally rows first, as before. Existing
  // rows are counted once, after the triggers exist and in the same transaction (PostgreSQL runs
  // each migration in one; on SQLite, where Kysely does not, this migration opens its own), so a
  // row another process writes meanwhile is counted once. Additive (DESIGN D12): the previous
  // release does not read these rows, and its writes are counted by the triggers.
  '0029_item_tallies': {
    async up(db: Kysely<any>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      /** A counted child table. */
      type Counted = {
        table: string;
        metric: string;
        /** The item's table, and the child's column that names the item. */
        item: 'courses' | 'events' | 'forms';
        ref: string;
        /** The row's contribution, an expression of a row `R`: 1, or 0 or 1 by a condition. */
        amount: string;
        /** The columns the item and the amount come from (an update counts when one changes). */
        places: string[];
      };
      const counted: Counted[] = [
        {
          table: 'enrollments',
          metric: 'course_enrollments',
          item: 'courses',
          ref: 'course_id',
          amount: '1',
          places: ['course_id'],
        },
        {
          table: 'lectures',
          metric: 'course_lectures',
          item: 'courses',
          ref: 'course_id',
          amount: '1',
          places: ['course_id'],
        },
        {
          table: 'event_registrations',
          metric: 'event_registrations',
          item: 'events',
          ref: 'event_id',
          amount: `CASE WHEN R.status <> 'cancelled' THEN 1 ELSE 0 END`,
          places: ['event_id', 'status'],
        },
        {
          table: 'form_submissions',
          metric: 'form_submissions',
          item: 'forms',
          ref: 'form_id',
          amount: '1',
          places: ['form_id'],
        },
      ];
      const of = (expr: string, row: string) => expr.replaceAll('R.', `${row}.`);
      const counts = (c: Counted, row: 'NEW' | 'OLD') => (c.amount === '1' ? '' : ` AND ${of(c.amount, row)} <> 0`);
      const add = (c: Counted) =>
        `INSERT INTO site_tallies (site_id, metric, key, n)
              SELECT i.site_id, '${c.metric}', i.id, ${of(c.amount, 'NEW')} FROM ${c.item} i
              WHERE i.id = NEW.${c.ref}${counts(c, 'NEW')}
              ON CONFLICT (site_id, metric, key) DO UPDATE SET n = site_tallies.n + excluded.n;`;
      const take = (c: Counted) =>
        `UPDATE site_tallies SET n = n - ${of(c.amount, 'OLD')}
              WHERE site_id = (SELECT i.site_id FROM ${c.item} i WHERE i.id = OLD.${c.ref})
              AND metric = '${c.metric}' AND key = OLD.${c.ref}${counts(c, 'OLD')};`;
      /** The update moved the row: its item or its amount changed (`differs`: the store's null-safe `<>`). */
      const moved = (c: Counted, differs: string) =>
        [`OLD.${c.ref} ${differs} NEW.${c.ref}`]
          .concat(c.amount === '1' ? [] : [`(${of(c.amount, 'OLD')}) ${differs} (${of(c.amount, 'NEW')})`])
          .join(' OR ');
      // Per item table, its metrics (dropped with the item, moved with it).
      const items = (['courses', 'events', 'forms'] as const).map((item) => ({
        item,
        metrics: counted
          .filter((c) => c.item === item)
          .map((c) => `'${c.metric}'`)
          .join(', '),
      }));
      const body = async (q: Kysely<any>) => {
        if (postgres) {
          for (const c of counted) {
            await sql
              .raw(
                `CREATE FUNCTION ${c.table}_tally_item() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_OP IN ('UPDATE', 'DELETE') THEN
              ${take(c)}
              END IF;
              IF TG_OP IN ('INSERT', 'UPDATE') THEN
              ${add(c)}
              END IF;
              RETURN NULL;
            END $$`,
              )
              .execute(q);
            await sql
              .raw(
                `CREATE TRIGGER ${c.table}_tally_item AFTER INSERT OR DELETE ON ${c.table} FOR EACH ROW EXECUTE FUNCTION ${c.table}_tally_item()`,
              )
              .execute(q);
            await sql
              .raw(
                `CREATE TRIGGER ${c.table}_tally_item_move AFTER UPDATE OF ${c.places.join(', ')} ON ${c.table}
            FOR EACH ROW WHEN (${moved(c, 'IS DISTINCT FROM')}) EXECUTE FUNCTION ${c.table}_tally_item()`,
              )
              .execute(q);
          }
          // The item's metrics are the trigger's arguments (TG_ARGV).
          await sql`CREATE FUNCTION site_tally_item_drop() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              DELETE FROM site_tallies WHERE site_id = OLD.site_id AND metric = ANY (TG_ARGV) AND key = OLD.id;
              RETURN NULL;
            END $$`.execute(q);
          await sql`CREATE FUNCTION site_tally_item_move() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              INSERT INTO site_tallies (site_id, metric, key, n)
                SELECT NEW.site_id, t.metric, t.key, t.n FROM site_tallies t
                WHERE t.site_id = OLD.site_id AND t.metric = ANY (TG_ARGV) AND t.key = OLD.id
                ON CONFLICT (site_id, metric, key) DO UPDATE SET n = site_tallies.n + excluded.n;
              DELETE FROM site_tallies WHERE site_id = OLD.site_id AND metric = ANY (TG_ARGV) AND key = OLD.id;
              RETURN NULL;
            END $$`.execute(q);
          for (const { item, metrics } of items) {
            await sql
              .raw(
                `CREATE TRIGGER ${item}_tally_item_drop AFTER DELETE ON ${item} FOR EACH ROW EXECUTE FUNCTION site_tally_item_drop(${metrics})`,
              )
              .execute(q);
            await sql
              .raw(
                `CREATE TRIGGER ${item}_tally_item_move AFTER UPDATE OF site_id ON ${item}
            FOR EACH ROW WHEN (OLD.site_id IS DISTINCT FROM NEW.site_id) EXECUTE FUNCTION site_tally_item_move(${metrics})`,
              )
              .execute(q);
          }
        } else {
          for (const c of counted) {
            await sql
              .raw(`CREATE TRIGGER ${c.table}_tally_item_insert AFTER INSERT ON ${c.table} BEGIN ${add(c)} END`)
              .execute(q);
            await sql
              .raw(`CREATE TRIGGER ${c.table}_tally_item_delete AFTER DELETE ON ${c.table} BEGIN ${take(c)} END`)
              .execute(q);
            await sql
              .raw(
                `CREATE TRIGGER ${c.table}_tally_item_move AFTER UPDATE OF ${c.places.join(', ')} ON ${c.table}
            WHEN ${moved(c, 'IS NOT')} BEGIN
              ${take(c)}
              ${add(c)}
            END`,
              )
              .execute(q);
          }
          for (const { item, metrics } of items) {
            await sql
              .raw(
                `CREATE TRIGGER ${item}_tally_item_drop AFTER DELETE ON ${item} BEGIN
              DELETE FROM site_tallies WHERE site_id = OLD.site_id AND metric IN (${metrics}) AND key = OLD.id;
            END`,
              )
              .execute(q);
            await sql
              .raw(
                `CREATE TRIGGER ${item}_tally_item_move AFTER UPDATE OF site_id ON ${item} WHEN OLD.site_id IS NOT NEW.site_id BEGIN
              INSERT INTO site_tallies (site_id, metric, key, n)
                SELECT NEW.site_id, t.metric, t.key, t.n FROM site_tallies t
                WHERE t.site_id = OLD.site_id AND t.metric IN (${metrics}) AND t.key = OLD.id
                ON CONFLICT (site_id, metric, key) DO UPDATE SET n = site_tallies.n + excluded.n;
              DELETE FROM site_tallies WHERE site_id = OLD.site_id AND metric IN (${metrics}) AND key = OLD.id;
            END`,
              )
              .execute(q);
          }
        }
        // The counts of the rows already there.
        for (const c of counted)
          await sql
            .raw(
              `INSERT INTO site_tallies (site_id, metric, key, n)
              SELECT i.site_id, '${c.metric}', i.id, sum(${c.amount}) FROM ${c.table} R JOIN ${c.item} i ON i.id = R.${c.ref}
              GROUP BY i.site_id, i.id`,
            )
            .execute(q);
      };
      if (postgres) await body(db);
      else await db.transaction().execute(body);
    },
  },
  // DESIGN D10 retention: expired and used links are purged in bounded batches
  // (src/platform/link-retention.ts); each batch is a range of one of these indexes, so a purge
  // with nothing due reads one index entry. Indexes only: the previous release runs unchanged.
  '0030_link_expiry_indexes': {
    async up(db: Kysely<any>) {
      for (const table of ['address_links', 'one_time_links']) {
        await db.schema.createIndex(`${table}_expires`).on(table).column('expires_at').execute();
        await db.schema.createIndex(`${table}_used`).on(table).column('used_at').execute();
      }
    },
  },
  // The audit webhook's durable queue (AUDIT_WEBHOOK_URL): one row per write of an audit event
  // waiting for delivery, or kept as a dead letter after the last try. A new table only: a
  // previous release runs on the migrated schema and never reads it.
  '0031_audit_deliveries': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('audit_deliveries')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('claimed_until', 'text')
        .addColumn('dead_at', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('audit_deliveries_due')
        .ifNotExists()
        .on('audit_deliveries')
        .columns(['dead_at', 'next_attempt_at'])
        .execute();
    },
  },
  // DESIGN D15: a grant whose tokens are DPoP-bound (RFC 9449) names the key's thumbprint, so the
  // connected-apps pages can show that a copied token is useless elsewhere. Additive: null = not bound.
  '0032_dpop_bound_grants': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('connected_grants').addColumn('dpop_jkt', 'text').execute();
    },
  },
};

/** The table Kysely's migrator records applied migrations in (its default name). */
const MIGRATION_TABLE = 'kysely_migration';

/**
 * This release's migrations plus a placeholder for every migration the store records that this
 * release does not know: a newer release's, applied before a rollback or by the next release of a
 * rolling upgrade. Kysely's migrator refuses a store whose applied migrations it cannot all find
 * ("corrupted migrations: previously executed migration … is missing"); migrations are additive
 * (DESIGN D12), so this release runs on the newer schema without them. A placeholder is never run:
 * it is already applied.
 */
class InCodeMigrations implements MigrationProvider {
  constructor(private readonly newer: readonly string[] = []) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const placeholders = Object.fromEntries(
      this.newer.map((name): [string, Migration] => [
        name,
        {
          async up() {
            throw new Error(`migration ${name} belongs to a newer release and cannot be applied by this one`);
          },
        },
      ]),
    );
    return { ...placeholders, ...migrations };
  }
}

/**
 * The migrations the store records as applied that this release does not have (a newer
 * release's), in name order; none on a store never migrated.
 * @throws when the store cannot be read (other than the migration table not existing yet)
 */
export async function newerMigrations(db: Kysely<any>): Promise<string[]> {
  let rows: Array<{ name: string }>;
  try {
    rows = await db.selectFrom(MIGRATION_TABLE).select('name').execute();
  } catch (err) {
    // A store never migrated has no table: SQLite "no such table", PostgreSQL 42P01.
    const e = err as { code?: string; message?: string };
    if (e.code === '42P01' || /no such table/.test(e.message ?? '')) return [];
    throw err;
  }
  return rows
    .map((r) => r.name)
    .filter((name) => !(name in migrations))
    .sort();
}

/** A migrator over this release's migrations that accepts the newer ones the store records. */
async function migratorFor(db: Kysely<any>): Promise<Migrator> {
  // Unordered: branches add migrations independently (0002_*), and a store migrated by one must
  // accept the others; a newer release's migrations sort anywhere among ours.
  return new Migrator({
    db,
    provider: new InCodeMigrations(await newerMigrations(db)),
    allowUnorderedMigrations: true,
  });
}

/**
 * Applies every pending migration.
 * @throws the first migration error, with the migration's name
 */
export async function migratePlatform(db: Kysely<any>): Promise<void> {
  await applyMigrations(db);
}

/**
 * Applies every pending migration and names the ones applied (issue #28: `npm run migrate`).
 *
 * The rule every migration follows (DESIGN D12, docs/deployment.md "Upgrades"): additive only —
 * new tables, new nullable or defaulted columns, new indexes — so the previous release keeps
 * running against the migrated schema during a rolling upgrade; a column or table is removed only
 * in a later release, once no running release reads it. For the same reason the migrations of a
 * newer release that this one finds applied are left alone: it runs on their schema (a rollback,
 * or an older process rescheduled during a rollout).
 * @returns the names of the migrations applied now, in order (empty when none was pending)
 * @throws the first migration error, with the migration's name
 */
export async function applyMigrations(db: Kysely<any>): Promise<string[]> {
  let { error, results } = await (await migratorFor(db)).migrateToLatest();
  // A newer release's process migrated between our look at the table and the migrator's lock.
  if (error && /previously executed migration .* is missing/.test(String(error)))
    ({ error, results } = await (await migratorFor(db)).migrateToLatest());
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    // No failed migration: the migrator itself could not run (lock table, connection).
    throw new Error(
      failed
        ? `platform migration ${failed.migrationName} failed: ${String(error)}`
        : `platform migrations could not run: ${String(error)}`,
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Applies the pending migrations up to and including `last` (in name order), and no further: a
 * store as an older release left it, which a test fills before applying the rest (issue #29:
 * `0029_item_tallies` counts the rows already there).
 * @returns the names of the migrations applied now, in order
 * @throws the first migration error, with the migration's name; an unknown `last`
 */
export async function migratePlatformTo(db: Kysely<any>, last: string): Promise<string[]> {
  const migrator = await migratorFor(db);
  const { error, results } = await migrator.migrateTo(last);
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(failed ? `platform migration ${failed.migrationName} failed: ${String(error)}` : String(error));
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * The migrations this release has that the store has not applied yet (issue #28:
 * `MIGRATE_ON_START=false` refuses to start while any is pending).
 */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const migrator = await migratorFor(db);
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** The store's schema is behind this release and start-up migrations are off (`MIGRATE_ON_START=false`). */
export class SchemaBehindError extends Error {
  override name = 'SchemaBehindError';
  constructor(readonly pending: string[]) {
    super(
      `the platform store's schema is behind this release (${pending.length} pending migration${pending.length === 1 ? '' : 's'}: ${pending.join(', ')}); ` +
        'run `npm run migrate` (in the container image: `node dist/src/cli/migrate.js`) with the same DATABASE_URL / DATA_DIR first, or set MIGRATE_ON_START=true',
    );
  }
}

/**
 * Start-up step of a store (issue #28): applies pending migrations when `migrate` is true,
 * otherwise checks that none is pending.
 * @throws SchemaBehindError when `migrate` is false and migrations are pending
 */
export async function migrateOrCheck(db: Kysely<any>, migrate: boolean): Promise<void> {
  if (migrate) return migratePlatform(db);
  const pending = await pendingMigrations(db);
  if (pending.length > 0) throw new SchemaBehindError(pending);
}
