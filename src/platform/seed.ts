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
const id = (what: string) => z.string().describe(`id of the ${what}`);
const ref = (what: string) => z.string().describe(`id of the ${what} (defined in this file)`);

/**
 * The shape of `config/demo-seed.yaml`, every key described. The configuration catalogue
 * (src/config-settings.ts) lists it with the other files and generates its table and JSON Schema.
 */
export const DEMO_SEED_SCHEMA = z
  .object({
    sites: z
      .array(
        z.object({
          id: id('site (its `org_id`)'),
          name: z.string().describe("the site's name"),
          mcp_connections_enabled: z
            .boolean()
            .default(false)
            .describe('the "MCP connections" beta (member clients work only while it is on)'),
        }),
      )
      .describe('sites'),
    users: z
      .array(
        z.object({
          id: id('user (`sub`)'),
          email: z.string().email().describe('sign-in e-mail'),
          name: z.string().describe('display name'),
          roles: z.record(z.string(), z.array(z.string())).describe('site id → roles there, e.g. `{ demo: [owner] }`'),
        }),
      )
      .describe('people; their password is DEMO_PASSWORD, or a random one printed once'),
    courses: z
      .array(
        z.object({
          id: id('course'),
          site: ref('site'),
          slug: z.string().describe('URL name of the course'),
          title: z.string().describe('course title'),
          description: z.string().default('').describe('course description'),
          is_public: z.boolean().default(true).describe('listed in the public catalogue'),
          lectures: z
            .array(
              z.object({
                id: id('lecture'),
                title: z.string().describe('lecture title'),
                duration_seconds: z.number().int().nonnegative().describe('length, seconds'),
              }),
            )
            .default([])
            .describe("the course's lectures, in order"),
        }),
      )
      .describe('courses'),
    enrollments: z
      .array(
        z.object({
          id: id('enrollment'),
          site: ref('site'),
          user: ref('user'),
          course: ref('course'),
          expires_at: iso.optional().describe('end of access, ISO 8601 UTC'),
          lifetime_access: z.boolean().default(false).describe('access that never ends'),
        }),
      )
      .describe('who may learn which course, until when'),
    progress: z
      .array(
        z.object({
          user: ref('user'),
          lecture: ref('lecture'),
          position_seconds: z.number().int().nonnegative().describe('playback position, seconds'),
          recorded_at: iso.describe('when it was recorded, ISO 8601 UTC'),
        }),
      )
      .default([])
      .describe('last playback positions'),
    orders: z
      .array(
        z.object({
          id: id('order'),
          site: ref('site'),
          user: ref('user'),
          number: z.string().describe('order number shown to people'),
          status: z.string().describe('e.g. `paid`, `pending`, `refunded`, `cancelled`'),
          currency: z.string().length(3).describe('ISO 4217 currency code'),
          created_at: iso.describe('ISO 8601 UTC'),
          items: z
            .array(
              z.object({
                id: id('order item'),
                title: z.string().describe('what was bought'),
                course: z.string().optional().describe('id of the course bought, if any'),
                quantity: z.number().int().positive().describe('how many'),
                unit_price_minor: z.number().int().describe('price of one, in minor units of the currency'),
              }),
            )
            .describe('order lines; the total is their sum'),
        }),
      )
      .default([])
      .describe('orders'),
    events: z
      .array(
        z.object({
          id: id('event'),
          site: ref('site'),
          title: z.string().describe('event title'),
          starts_at: iso.describe('ISO 8601 UTC'),
          ends_at: iso.describe('ISO 8601 UTC'),
          location: z.string().describe('where (or `Online`)'),
        }),
      )
      .default([])
      .describe('events'),
    event_registrations: z
      .array(
        z.object({
          id: id('registration'),
          site: ref('site'),
          user: ref('user'),
          event: ref('event'),
          status: z.string().describe('e.g. `registered`, `waitlisted`, `attended`, `cancelled`'),
          created_at: iso.describe('ISO 8601 UTC'),
        }),
      )
      .default([])
      .describe('who registered for which event'),
    member_clients: z
      .array(
        z.object({
          client_id: z.string().describe('the fixed client_id'),
          client_name: z.string().describe('name shown on the consent page'),
          site: ref('site'),
          redirect_uris: z.array(z.string().url()).describe('its redirect URIs'),
          scope: z.string().describe('space-delimited scopes (identity + `account:*`)'),
        }),
      )
      .default([])
      .describe('member clients, as if an operator had created them'),
  })
  .describe('config/demo-seed.yaml: demo data, loaded into an empty store in development mode only (DESIGN §3)');

export type DemoSeed = z.infer<typeof DEMO_SEED_SCHEMA>;

/** Reads and validates the seed file. @throws Error naming the first invalid entry */
export function readSeed(file: string): DemoSeed {
  const parsed = DEMO_SEED_SCHEMA.safeParse(parseYaml(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data;
}

/**
 * Result of seeding: whether anything was written, the demo password (only when generated now) and
 * how many existing demo accounts took `DEMO_PASSWORD` (a store seeded earlier).
 */
export interface SeedResult {
  seeded: boolean;
  generatedPassword?: string;
  /** Existing demo accounts whose password was set to the given one (0 when none was given). */
  passwordsReset?: number;
}

/**
 * Loads the seed into an empty store in one transaction. On a store seeded earlier, a given
 * `password` (DEMO_PASSWORD) becomes the password of the seed's accounts again (issue #30 item 2:
 * the documented way back in after the first start's banner is lost); development mode only, as
 * the whole seed is (DESIGN §3).
 * @param password the demo accounts' password; undefined = generate one (returned once)
 */
export async function seedDemo(db: Kysely<PlatformDatabase>, seed: DemoSeed, password?: string): Promise<SeedResult> {
  const existing = await db.selectFrom('sites').select('id').limit(1).executeTakeFirst();
  if (existing) {
    if (!password) return { seeded: false, passwordsReset: 0 };
    const emails = seed.users.map((u) => u.email.toLowerCase());
    const updated = await db
      .updateTable('users')
      .set({ password_hash: await hashPassword(password) })
      .where('email', 'in', emails)
      .executeTakeFirst();
    return { seeded: false, passwordsReset: Number(updated.numUpdatedRows) };
  }
  const generatedPassword = password ? undefined : randomBytes(9).toString('base64url');
  const hash = await hashPassword(password ?? generatedPassword!);
  const now = new Date().toISOString();
  const courseSite = new Map(seed.courses.map((c) => [c.id, c.site]));
  const lectureCourse = new Map(seed.courses.flatMap((c) => c.lectures.map((l) => [l.id, c.id] as const)));
  await db.transaction().execute(async (trx) => {
    for (const s of seed.sites) {
      await trx
        .insertInto('sites')
        .values({ id: s.id, name: s.name, mcp_connections_enabled: s.mcp_connections_enabled ? 1 : 0, created_at: now })
        .execute();
    }
    for (const u of seed.users) {
      await trx
        .insertInto('users')
        .values({ id: u.id, email: u.email.toLowerCase(), name: u.name, password_hash: hash, created_at: now })
        .execute();
      for (const [site, roles] of Object.entries(u.roles)) {
        for (const role of roles)
          await trx.insertInto('memberships').values({ site_id: site, user_id: u.id, role }).execute();
      }
    }
    for (const c of seed.courses) {
      await trx
        .insertInto('courses')
        .values({
          id: c.id,
          site_id: c.site,
          slug: c.slug,
          title: c.title,
          description: c.description,
          is_public: c.is_public ? 1 : 0,
          created_at: now,
        })
        .execute();
      for (const [i, l] of c.lectures.entries()) {
        await trx
          .insertInto('lectures')
          .values({ id: l.id, course_id: c.id, title: l.title, position: i + 1, duration_seconds: l.duration_seconds })
          .execute();
      }
    }
    for (const e of seed.enrollments) {
      await trx
        .insertInto('enrollments')
        .values({
          id: e.id,
          site_id: e.site,
          user_id: e.user,
          course_id: e.course,
          expires_at: e.expires_at ?? null,
          lifetime_access: e.lifetime_access ? 1 : 0,
          created_at: now,
        })
        .execute();
    }
    for (const p of seed.progress) {
      const course = lectureCourse.get(p.lecture);
      if (!course) throw new Error(`seed progress: unknown lecture ${p.lecture}`);
      await trx
        .insertInto('lecture_progress')
        .values({
          user_id: p.user,
          site_id: courseSite.get(course)!,
          course_id: course,
          lecture_id: p.lecture,
          position_seconds: p.position_seconds,
          recorded_at: p.recorded_at,
          updated_at: now,
        })
        .execute();
    }
    for (const o of seed.orders) {
      const total = o.items.reduce((sum, i) => sum + i.quantity * i.unit_price_minor, 0);
      await trx
        .insertInto('orders')
        .values({
          id: o.id,
          site_id: o.site,
          user_id: o.user,
          number: o.number,
          status: o.status,
          total_minor: total,
          currency: o.currency,
          created_at: o.created_at,
        })
        .execute();
      for (const i of o.items) {
        await trx
          .insertInto('order_items')
          .values({
            id: i.id,
            order_id: o.id,
            title: i.title,
            course_id: i.course ?? null,
            quantity: i.quantity,
            unit_price_minor: i.unit_price_minor,
          })
          .execute();
      }
    }
    for (const ev of seed.events) {
      await trx
        .insertInto('events')
        .values({
          id: ev.id,
          site_id: ev.site,
          title: ev.title,
          starts_at: ev.starts_at,
          ends_at: ev.ends_at,
          location: ev.location,
        })
        .execute();
    }
    for (const r of seed.event_registrations) {
      await trx
        .insertInto('event_registrations')
        .values({
          id: r.id,
          site_id: r.site,
          user_id: r.user,
          event_id: r.event,
          status: r.status,
          created_at: r.created_at,
        })
        .execute();
    }
  });
  return { seeded: true, generatedPassword };
}
