/**
 * Operator view of a site's events (SPEC §2.5 `events:read`, `events:write`).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ITEM_METRICS, type OperatorDatabase } from './schema.js';
import { PlatformError, notFound } from '../errors.js';
import {
  clampPageSize,
  decodeCursor,
  keysetPage,
  MAX_ADMIN_PAGE_SIZE,
  type KeysetPage,
  type KeysetRequest,
} from '../paging.js';

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

  /**
   * One page of the site's events by start time (then id), each with its registrations that are
   * not cancelled; `upcomingOnly` drops events that ended before `now` (issue #29: "Keyset
   * pagination in SQL for every list (no in-memory paging, no row cap: every row reachable by
   * cursor)"; keyset on `events_site_starts`, migration 0028; an `upcomingOnly` page walks past
   * the events that ended, in start order, the index holding `ends_at` to test them by; each
   * event's registrations are its maintained tally, migration 0029).
   * @param options `limit` 1…MAX_ADMIN_PAGE_SIZE (clamped), `cursor` of an earlier page, `upcomingOnly`
   * @throws PlatformError `invalid` (field `cursor`) for a cursor of another list
   */
  async page(
    siteId: string,
    options: KeysetRequest & { upcomingOnly?: boolean },
    now = new Date(),
  ): Promise<KeysetPage<AdminEvent>> {
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    let q = this.query(siteId)
      .orderBy('events.starts_at')
      .orderBy('events.id')
      .limit(limit + 1);
    if (options.upcomingOnly) q = q.where('events.ends_at', '>=', now.toISOString());
    if (options.cursor !== undefined) {
      const [startsAt, id] = decodeCursor(options.cursor, 2) as [string, string];
      q = q.where((eb) => eb(eb.refTuple('events.starts_at', 'events.id'), '>', eb.tuple(startsAt, id)));
    }
    return keysetPage(await q.execute(), limit, (r) => [r.starts_at, r.id], adminEvent);
  }

  /** One event of the site with its registrations that are not cancelled. @throws PlatformError `not_found` */
  async get(siteId: string, eventId: string): Promise<AdminEvent> {
    const row = await this.query(siteId).where('events.id', '=', eventId).executeTakeFirst();
    if (!row) throw notFound('event', eventId);
    return adminEvent(row);
  }

  /**
   * The site's events with their count of registrations that are not cancelled (issue #29, "cost
   * at volume"): the event's maintained tally (`event_registrations`, migration 0029: kept by
   * triggers in the same transaction as the registrations, a status change included), one
   * primary-key lookup per event whatever its number of registrations.
   */
  private query(siteId: string) {
    return this.db
      .selectFrom('events')
      .select((eb) => [
        'events.id as id',
        'events.title as title',
        'events.starts_at as starts_at',
        'events.ends_at as ends_at',
        'events.location as location',
        eb
          .selectFrom('site_tallies')
          .select('site_tallies.n')
          .whereRef('site_tallies.site_id', '=', 'events.site_id')
          .where('site_tallies.metric', '=', ITEM_METRICS.eventRegistrations)
          .whereRef('site_tallies.key', '=', 'events.id')
          .as('registrations'),
      ])
      .where('events.site_id', '=', siteId);
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

/** An event row (with its registration count) as operators see it. */
function adminEvent(r: {
  id: string;
  title: string;
  starts_at: string;
  ends_at: string;
  location: string;
  registrations: number | string | null;
}): AdminEvent {
  return {
    id: r.id,
    title: r.title,
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    location: r.location,
    registrations: Number(r.registrations ?? 0),
  };
}
