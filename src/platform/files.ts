/**
 * Uploaded files (SPEC §2.5 `storage:write`): course images and PDFs an operator uploads, served
 * back at `/files/{id}`. Knows nothing of HTTP. Two parts:
 *   - `FileStore`: where the bytes live (put/get/delete). The default, `PlatformFileStore`, keeps
 *     them in the platform store (table `uploaded_files`, a BLOB on SQLite / bytea on PostgreSQL),
 *     so every process of a scale-out deployment sees the same files. An S3-compatible object
 *     store is the documented pluggable alternative (docs/operator-guide.md "File storage").
 *   - `SiteFiles`: the rules — content-type allowlist checked against the bytes' magic number,
 *     SHA-256, per-site ownership (another site's file is "not found").
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { PlatformError, notFound } from './errors.js';

/** Body limit of `POST /api/v1/files` (route table) and the ceiling of `UPLOAD_MAX_BYTES` (64 MiB). */
export const UPLOAD_CEILING_BYTES = 64 * 1024 * 1024;

/** Table `uploaded_files` (migration `0018_uploaded_files`). */
export interface UploadedFilesTable {
  id: string;
  site_id: string;
  content_type: string;
  /** Bytes. */
  size: number;
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
  /** The name the uploader gave (display only; never used as a path). */
  filename: string;
  /** The bytes; null when a `FileStore` other than the platform store keeps them. */
  bytes: Buffer | null;
  created_at: string;
}

type FilesDatabase = PlatformDatabase & { uploaded_files: UploadedFilesTable };

/** A file's description (what the admin API answers). */
export interface FileInfo {
  id: string;
  contentType: string;
  size: number;
  sha256: string;
  filename: string;
  createdAt: string;
}

/** Where the bytes of uploaded files live. Ids are opaque, unique strings made by `SiteFiles`. */
export interface FileStore {
  /** Stores the bytes of a file whose row `SiteFiles` has just written. */
  put(id: string, bytes: Buffer): Promise<void>;
  /** The bytes, or undefined when there are none. */
  get(id: string): Promise<Buffer | undefined>;
  /** Removes the bytes (no error when absent). */
  delete(id: string): Promise<void>;
}

/** The default store: the `bytes` column of `uploaded_files` in the platform store. */
export class PlatformFileStore implements FileStore {
  constructor(private readonly db: Kysely<FilesDatabase>) {}
  async put(id: string, bytes: Buffer): Promise<void> {
    await this.db.updateTable('uploaded_files').set({ bytes }).where('id', '=', id).execute();
  }
  async get(id: string): Promise<Buffer | undefined> {
    const row = await this.db.selectFrom('uploaded_files').select('bytes').where('id', '=', id).executeTakeFirst();
    return row?.bytes ? Buffer.from(row.bytes) : undefined;
  }
  async delete(id: string): Promise<void> {
    await this.db.updateTable('uploaded_files').set({ bytes: null }).where('id', '=', id).execute();
  }
}

/** The accepted types and the magic number their first bytes must carry (policy as data). */
export const ACCEPTED_TYPES: readonly { type: string; matches: (b: Buffer) => boolean }[] = [
  {
    type: 'image/png',
    matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { type: 'image/jpeg', matches: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', matches: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')) },
  {
    type: 'image/webp',
    matches: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  { type: 'application/pdf', matches: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
];

/** The type the bytes are, by magic number (undefined: none of `ACCEPTED_TYPES`). */
export const sniffType = (bytes: Buffer): string | undefined => ACCEPTED_TYPES.find((t) => t.matches(bytes))?.type;

const toInfo = (r: Omit<UploadedFilesTable, 'bytes'>): FileInfo => ({
  id: r.id,
  contentType: r.content_type,
  size: Number(r.size),
  sha256: r.sha256,
  filename: r.filename,
  createdAt: r.created_at,
});
const INFO_COLUMNS = ['id', 'site_id', 'content_type', 'size', 'sha256', 'filename', 'created_at'] as const;

/** The uploaded files of every site. */
export class SiteFiles {
  constructor(
    private readonly db: Kysely<FilesDatabase>,
    private readonly store: FileStore = new PlatformFileStore(db),
  ) {}

  /**
   * Stores an upload of `siteId`. The type comes from the bytes' magic number; a declared type
   * (the multipart part's Content-Type) that disagrees is refused.
   * @throws PlatformError `invalid` (field `file`) for an empty file, a type outside
   *   `ACCEPTED_TYPES`, or a declared type other than the sniffed one
   */
  async upload(siteId: string, input: { bytes: Buffer; filename: string; declaredType?: string }): Promise<FileInfo> {
    if (input.bytes.length === 0) throw new PlatformError('invalid', 'the file is empty', { field: 'file' });
    const type = sniffType(input.bytes);
    const accepted = ACCEPTED_TYPES.map((t) => t.type).join(', ');
    if (!type)
      throw new PlatformError('invalid', `the file's bytes are not one of the accepted types (${accepted})`, {
        field: 'file',
        reason: 'unsupported_media_type',
      });
    const declared = input.declaredType?.split(';')[0]?.trim().toLowerCase();
    if (declared && declared !== 'application/octet-stream' && declared !== type) {
      throw new PlatformError('invalid', `the file was sent as ${declared} but its bytes are ${type}`, {
        field: 'file',
        reason: 'unsupported_media_type',
      });
    }
    const row = {
      id: `fil_${randomBytes(16).toString('base64url')}`,
      site_id: siteId,
      content_type: type,
      size: input.bytes.length,
      sha256: createHash('sha256').update(input.bytes).digest('hex'),
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this strips from a file name
      filename: input.filename.replace(/[\u0000-\u001f\u007f"\\/]/g, '_').slice(0, 200) || 'file',
      created_at: new Date().toISOString(),
    };
    await this.db
      .insertInto('uploaded_files')
      .values({ ...row, bytes: null })
      .execute();
    try {
      await this.store.put(row.id, input.bytes);
    } catch (err) {
      await this.db.deleteFrom('uploaded_files').where('id', '=', row.id).execute();
      throw err;
    }
    return toInfo(row);
  }

  /** One file of the site. @throws PlatformError `not_found` (also for another site's file) */
  async info(siteId: string, id: string): Promise<FileInfo> {
    const row = await this.db
      .selectFrom('uploaded_files')
      .select(INFO_COLUMNS)
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .executeTakeFirst();
    if (!row) throw notFound('file', id);
    return toInfo(row);
  }

  /** A file and its bytes by id alone, for `/files/{id}` (the id is the capability). */
  async read(id: string): Promise<{ info: FileInfo; bytes: Buffer } | undefined> {
    const row = await this.db.selectFrom('uploaded_files').select(INFO_COLUMNS).where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const bytes = await this.store.get(id);
    return bytes ? { info: toInfo(row), bytes } : undefined;
  }

  /** Deletes a file of the site. @throws PlatformError `not_found` */
  async remove(siteId: string, id: string): Promise<void> {
    await this.info(siteId, id);
    await this.store.delete(id);
    await this.db.deleteFrom('uploaded_files').where('id', '=', id).where('site_id', '=', siteId).execute();
  }
}
