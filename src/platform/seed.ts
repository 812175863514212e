/**
 * Demo seed (DESIGN.md §3): loads `config/demo-seed.yaml` into an empty store, in development
 * mode only. Idempotent: a store that already has a site is left alone.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { hashPassword } from './passwords.js';

const iso = z.string().datetime();
const seedSchema = z.object({
  sites: z.array(z.object({ id: z.string(), name: z.string(), mcp_connections_enabled: z.boolean().default(false) })),
  users: z.array(z.object({ id: z.string(), email: z.string().email(), name: z.string(), roles: z.record(z.string(), z.array(z.string())) })),
  courses: z.array(
    z.object({
      id: z.string(),
      site: z.string(),
      slug: z.string(),
      title: z.string(),
      description: z.string().default(''),
      is_public: z.boolean().default(true),
      lectures: z.array(z.object({ id: z.string(), title: z.string(), duration_seconds: z.number().int().nonnegative() })).default([]),
    }),
  ),
  enrollments: z.array(
    z.object({ id: z.string(), site: z.string(), user: z.string(), course: z.string(), expires_at: iso.optional(), lifetime_access: z.boolean().default(false) }),
  ),
  progress: z.array(z.object({ user: z.string(), lecture: z.string(), position_seconds: z.number().int().nonnegative(), recorded_at: iso })).default([]),
  orders: z
    .array(
      z.object({
        id: z.string(),
        site: z.string(),
        user: z.string(),
        number: z.string(),
        status: z.string(),
        currency: z.string().length(3),
        created_at: iso,
        items: z.array(z.object({ id: z.string(), title: z.string(), course: z.string().optional(), quantity: z.number().int().positive(), unit_price_minor: z.number().int() })),
      }),
    )
    .default([]),
  events: z.array(z.object({ id: z.string(), site: z.string(), title: z.string(), starts_at: iso, ends_at: iso, location: z.string() })).default([]),
  event_registrations: z
    .array(z.object({ id: z.string(), site: z.string(), user: z.string(), event: z.string(), status: z.string(), created_at: iso }))
    .default([]),
  member_clients: z
    .array(z.object({ client_id: z.string(), client_name: z.string(), site: z.string(), redirect_uris: z.array(z.string().url()), scope: z.string() }))
    .default([]),
});

export type DemoSeed = z.infer<typeof seedSchema>;

/** Reads and validates the seed file. @throws Error naming the first invalid entry */
export function readSeed(file: string): DemoSeed {
  const parsed = seedSchema.safeParse(parseYaml(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data;
}

/** Result of seeding: whether anything was written and the demo password (only when generated now). */
export interface SeedResult {
  seeded: boolean;
  generatedPassword?: string;
}

/**
 * Loads the seed into an empty store in one transaction.
 * @param password the demo accounts' password; undefined = generate one (returned once)
 */
export async function seedDemo(db: Kysely<PlatformDatabase>, seed: DemoSeed, password?: string): Promise<SeedResult> {
  const existing = await db.selectFrom('sites').select('id').limit(1).executeTakeFirst();
  if (existing) return { seeded: false };
  const generatedPassword = password ? undefined : randomBytes(9).toString('base64url');
  const hash = await hashPassword(password ?? generatedPassword!);
  const now = new Date().toISOString();
  const courseSite = new Map(seed.courses.map((c) => [c.id, c.site]));
  const lectureCourse = new Map(seed.courses.flatMap((c) => c.lectures.map((l) => [l.id, c.id] as const)));
  await db.transaction().execute(async (trx) => {
    for (const s of seed.sites) {
      await trx.insertInto('sites').values({ id: s.id, name: s.name, mcp_connections_enabled: s.mcp_connections_enabled ? 1 : 0, created_at: now }).execute();
    }
    for (const u of seed.users) {
      await trx.insertInto('users').values({ id: u.id, email: u.email.toLowerCase(), name: u.name, password_hash: hash, created_at: now }).execute();
      for (const [site, roles] of Object.entries(u.roles)) {
        for (const role of roles) await trx.insertInto('memberships').values({ site_id: site, user_id: u.id, role }).execute();
      }
    }
    for (const c of seed.courses) {
      await trx
        .insertInto('courses')
        .values({ id: c.id, site_id: c.site, slug: c.slug, title: c.title, description: c.description, is_public: c.is_public ? 1 : 0, created_at: now })
        .execute();
      for (const [i, l] of c.lectures.entries()) {
        await trx.insertInto('lectures').values({ id: l.id, course_id: c.id, title: l.title, position: i + 1, duration_seconds: l.duration_seconds }).execute();
      }
    }
    for (const e of seed.enrollments) {
      await trx
        .insertInto('enrollments')
        .values({ id: e.id, site_id: e.site, user_id: e.user, course_id: e.course, expires_at: e.expires_at ?? null, lifetime_access: e.lifetime_access ? 1 : 0, created_at: now })
        .execute();
    }
    for (const p of seed.progress) {
      const course = lectureCourse.get(p.lecture);
      if (!course) throw new Error(`seed progress: unknown lecture ${p.lecture}`);
      await trx
        .insertInto('lecture_progress')
        .values({ user_id: p.user, site_id: courseSite.get(course)!, course_id: course, lecture_id: p.lecture, position_seconds: p.position_seconds, recorded_at: p.recorded_at, updated_at: now })
        .execute();
    }
    for (const o of seed.orders) {
      const total = o.items.reduce((sum, i) => sum + i.quantity * i.unit_price_minor, 0);
      await trx
        .insertInto('orders')
        .values({ id: o.id, site_id: o.site, user_id: o.user, number: o.number, status: o.status, total_minor: total, currency: o.currency, created_at: o.created_at })
        .execute();
      for (const i of o.items) {
        await trx
          .insertInto('order_items')
          .values({ id: i.id, order_id: o.id, title: i.title, course_id: i.course ?? null, quantity: i.quantity, unit_price_minor: i.unit_price_minor })
          .execute();
      }
    }
    for (const ev of seed.events) {
      await trx.insertInto('events').values({ id: ev.id, site_id: ev.site, title: ev.title, starts_at: ev.starts_at, ends_at: ev.ends_at, location: ev.location }).execute();
    }
    for (const r of seed.event_registrations) {
      await trx
        .insertInto('event_registrations')
        .values({ id: r.id, site_id: r.site, user_id: r.user, event_id: r.event, status: r.status, created_at: r.created_at })
        .execute();
    }
  });
  return { seeded: true, generatedPassword };
}
