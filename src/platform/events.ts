/**
 * The member's event registrations at one site (SPEC §1 "Member data covers … event
 * registrations"). Every query is scoped by (site id, user id), and the event must be of the
 * same site.
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import type { MemberRef } from './accounts.js';
import { checkPageSize, pairKey, parsePairKey, type Page, type PageRequest } from './paging.js';

export interface SiteEvent {
  id: string;
  title: string;
  /** ISO 8601 UTC. */
  startsAt: string;
  /** ISO 8601 UTC. */
  endsAt: string;
  /** Free text: an address or "Online". */
  location: string;
}

export interface EventRegistration {
  id: string;
  /** `registered`, `waitlisted`, `cancelled` or `attended`. */
  status: string;
  /** When the member registered, ISO 8601 UTC. */
  createdAt: string;
  event: SiteEvent;
}

/** A member's event registrations at one site (SPEC §1), keyset-paginated by event start. */
export class EventRegistrations {
  constructor(private readonly db: Kysely<PlatformDatabase>) {}

  /**
   * The member's registrations ordered by the event's start (`startsAt` asc, then registration id).
   * @throws InvalidPageRequestError for a page size outside 0…100 or a foreign key
   */
  async list(member: MemberRef, page: PageRequest): Promise<Page<EventRegistration>> {
    const first = checkPageSize(page.first);
    const base = this.db
      .selectFrom('event_registrations as r')
      .innerJoin('events as e', (j) => j.onRef('e.id', '=', 'r.event_id').onRef('e.site_id', '=', 'r.site_id'))
      .where('r.site_id', '=', member.siteId)
      .where('r.user_id', '=', member.userId);
    let q = base
      .select([
        'r.id as id',
        'r.status as status',
        'r.created_at as created_at',
        'e.id as event_id',
        'e.title as title',
        'e.starts_at as starts_at',
        'e.ends_at as ends_at',
        'e.location as location',
      ])
      .orderBy('e.starts_at')
      .orderBy('r.id')
      .limit(first + 1);
    if (page.after !== undefined) {
      const [startsAt, id] = parsePairKey(page.after);
      q = q.where((eb) =>
        eb.or([eb('e.starts_at', '>', startsAt), eb.and([eb('e.starts_at', '=', startsAt), eb('r.id', '>', id)])]),
      );
    }
    const [rows, count] = await Promise.all([
      q.execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      items: rows.slice(0, first).map((r) => ({
        cursor: pairKey(r.starts_at, r.id),
        node: {
          id: r.id,
          status: r.status,
          createdAt: r.created_at,
          event: { id: r.event_id, title: r.title, startsAt: r.starts_at, endsAt: r.ends_at, location: r.location },
        },
      })),
      hasNextPage: rows.length > first,
      totalCount: Number(count.n),
    };
  }
}
