/**
 * Operator view of a site's events (SPEC §2.5 `events:read`, `events:write`).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { OperatorDatabase } from './schema.js';
import { PlatformError, notFound } from '../errors.js';

export interface AdminEvent {
  id: string;
  title: string;
  /** ISO 8601 UTC. */
  startsAt: string;
  endsAt: string;
  location: string;
  /** Registrations that are not cancelled. */
  registrations: number;
}

export interface EventInput {
  title: string;
  startsAt: string;
  endsAt: string;
  location: string;
}

/** Events of a site for operators (events:read/write). */
export class EventAdmin {
  constructor(private readonly db: Kysely<OperatorDatabase>) {}

  /** Events of the site by start time; `upcomingOnly` drops events that ended before `now`. */
  async list(siteId: string, options: { upcomingOnly?: boolean } = {}, now = new Date()): Promise<AdminEvent[]> {
    let q = this.db
      .selectFrom('events')
      .select((eb) => [
        'events.id as id',
        'events.title as title',
        'events.starts_at as starts_at',
        'events.ends_at as ends_at',
        'events.location as location',
        eb
          .selectFrom('event_registrations')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('event_registrations.event_id', '=', 'events.id')
          .where('event_registrations.status', '!=', 'cancelled')
          .as('registrations'),
      ])
      .where('events.site_id', '=', siteId)
      .orderBy('events.starts_at');
    if (options.upcomingOnly) q = q.where('events.ends_at', '>=', now.toISOString());
    const rows = await q.execute();
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      startsAt: r.starts_at,
      endsAt: r.ends_at,
      location: r.location,
      registrations: Number(r.registrations ?? 0),
    }));
  }

  /** Creates an event. @throws PlatformError `invalid` (empty title, bad dates, end before start) */
  async create(siteId: string, input: EventInput): Promise<AdminEvent> {
    const starts = Date.parse(input.startsAt);
    const ends = Date.parse(input.endsAt);
    if (!input.title.trim()) throw new PlatformError('invalid', 'title must not be empty', { field: 'title' });
    if (Number.isNaN(starts) || Number.isNaN(ends))
      throw new PlatformError('invalid', 'startsAt and endsAt must be ISO 8601 date-times');
    if (ends <= starts) throw new PlatformError('invalid', 'endsAt must be after startsAt', { field: 'endsAt' });
    const row = {
      id: `evt_${randomUUID()}`,
      site_id: siteId,
      title: input.title.trim(),
      starts_at: new Date(starts).toISOString(),
      ends_at: new Date(ends).toISOString(),
      location: input.location,
    };
    await this.db.insertInto('events').values(row).execute();
    return {
      id: row.id,
      title: row.title,
      startsAt: row.starts_at,
      endsAt: row.ends_at,
      location: row.location,
      registrations: 0,
    };
  }

  /** Cancels an event: deletes it with its registrations. @throws PlatformError `not_found` */
  async cancel(siteId: string, eventId: string): Promise<void> {
    const row = await this.db
      .selectFrom('events')
      .select('id')
      .where('site_id', '=', siteId)
      .where('id', '=', eventId)
      .executeTakeFirst();
    if (!row) throw notFound('event', eventId);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('event_registrations').where('event_id', '=', row.id).execute();
      await trx.deleteFrom('events').where('id', '=', row.id).execute();
    });
  }
}
