/**
 * Comments of a site (SPEC §2.5 `comments:read`): what members wrote under lectures and under posts.
 * Read only here: the scope names no moderation (issue 10). Knows nothing of HTTP. Comments of
 * another site, and filters naming another site's course, lecture or post, are "not found".
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { notFound } from './errors.js';
import {
  clampPageSize,
  decodeCursor,
  keysetPage,
  MAX_ADMIN_PAGE_SIZE,
  type KeysetPage,
  type KeysetRequest,
} from './paging.js';
import type { SiteContentTable } from './content.js';

/** Table `comments` (migration `0017_lecturers_comments_forms`): exactly one of lecture_id / post_id is set. */
export interface CommentsTable {
  id: string;
  site_id: string;
  lecture_id: string | null;
  /** `site_content.id` of a post. */
  post_id: string | null;
  /** Null once the author's account is gone. */
  author_user_id: string | null;
  body: string;
  created_at: string;
}

type Db = PlatformDatabase & { comments: CommentsTable; site_content: SiteContentTable };

/** A comment as operators see it. `on` says where it was written. */
export interface Comment {
  id: string;
  on: { kind: 'lecture'; lectureId: string; courseSlug: string } | { kind: 'post'; postSlug: string };
  /** `userId` null and name "Deleted account" when the author's account is gone. */
  author: { userId: string | null; name: string };
  body: string;
  /** ISO 8601 UTC. */
  createdAt: string;
}

/** Filters of a comment list; all optional and combined with AND. */
export interface CommentFilter {
  courseSlug?: string;
  lectureId?: string;
  postSlug?: string;
}

/** Reads comments on lectures and posts of a site. */
export class Comments {
  private readonly db: Kysely<Db>;
  constructor(db: Kysely<PlatformDatabase>) {
    this.db = db as unknown as Kysely<Db>;
  }

  /**
   * Comments of the site, newest first (then by id, descending).
   * @throws PlatformError `not_found` when a filter names no course, lecture or post of the site
   */
  async list(siteId: string, filter: CommentFilter = {}): Promise<Comment[]> {
    return (await (await this.filtered(siteId, filter)).execute()).map(view);
  }

  /**
   * One page of the site's comments, newest first (`createdAt` desc, then id desc) (issue #29:
   * keyset in SQL on `comments_site_created_id`; every comment is reachable).
   * @throws PlatformError `not_found` when a filter names no course, lecture or post of the site;
   *   `invalid` (field `cursor`) for a cursor of another list
   */
  async page(siteId: string, filter: CommentFilter & KeysetRequest): Promise<KeysetPage<Comment>> {
    const limit = clampPageSize(filter.limit, MAX_ADMIN_PAGE_SIZE);
    let q = (await this.filtered(siteId, filter)).limit(limit + 1);
    if (filter.cursor !== undefined) {
      const [createdAt, id] = decodeCursor(filter.cursor, 2) as [string, string];
      q = q.where((eb) => eb(eb.refTuple('comments.created_at', 'comments.id'), '<', eb.tuple(createdAt, id)));
    }
    return keysetPage(await q.execute(), limit, (r) => [r.createdAt, r.id], view);
  }

  /** The site's comments under `filter`, in list order. @throws PlatformError `not_found` (see `list`) */
  private async filtered(siteId: string, filter: CommentFilter) {
    let q = this.base(siteId);
    if (filter.courseSlug !== undefined) {
      const course = await this.db
        .selectFrom('courses')
        .select('id')
        .where('site_id', '=', siteId)
        .where('slug', '=', filter.courseSlug)
        .executeTakeFirst();
      if (!course) throw notFound('course', filter.courseSlug);
      q = q.where('courses.id', '=', course.id);
    }
    if (filter.lectureId !== undefined) {
      const lecture = await this.db
        .selectFrom('lectures')
        .innerJoin('courses', 'courses.id', 'lectures.course_id')
        .select('lectures.id')
        .where('courses.site_id', '=', siteId)
        .where('lectures.id', '=', filter.lectureId)
        .executeTakeFirst();
      if (!lecture) throw notFound('lecture', filter.lectureId);
      q = q.where('comments.lecture_id', '=', lecture.id);
    }
    if (filter.postSlug !== undefined) {
      const post = await this.db
        .selectFrom('site_content')
        .select('id')
        .where('site_id', '=', siteId)
        .where('kind', '=', 'post')
        .where('slug', '=', filter.postSlug)
        .executeTakeFirst();
      if (!post) throw notFound('post', filter.postSlug);
      q = q.where('comments.post_id', '=', post.id);
    }
    return q.orderBy('comments.created_at', 'desc').orderBy('comments.id', 'desc');
  }

  /** @throws PlatformError `not_found` */
  async get(siteId: string, id: string): Promise<Comment> {
    const row = await this.base(siteId).where('comments.id', '=', id).executeTakeFirst();
    if (!row) throw notFound('comment', id);
    return view(row);
  }

  private base(siteId: string) {
    return this.db
      .selectFrom('comments')
      .leftJoin('lectures', 'lectures.id', 'comments.lecture_id')
      .leftJoin('courses', 'courses.id', 'lectures.course_id')
      .leftJoin('site_content', 'site_content.id', 'comments.post_id')
      .leftJoin('users', 'users.id', 'comments.author_user_id')
      .select([
        'comments.id as id',
        'comments.lecture_id as lectureId',
        'courses.slug as courseSlug',
        'site_content.slug as postSlug',
        'comments.author_user_id as authorId',
        'users.name as authorName',
        'comments.body as body',
        'comments.created_at as createdAt',
      ])
      .where('comments.site_id', '=', siteId);
  }
}

interface Row {
  id: string;
  lectureId: string | null;
  courseSlug: string | null;
  postSlug: string | null;
  authorId: string | null;
  authorName: string | null;
  body: string;
  createdAt: string;
}

const view = (r: Row): Comment => ({
  id: r.id,
  on:
    r.lectureId !== null
      ? { kind: 'lecture', lectureId: r.lectureId, courseSlug: r.courseSlug ?? '' }
      : { kind: 'post', postSlug: r.postSlug ?? '' },
  author:
    r.authorId !== null && r.authorName !== null
      ? { userId: r.authorId, name: r.authorName }
      : { userId: null, name: 'Deleted account' },
  body: r.body,
  createdAt: r.createdAt,
});
