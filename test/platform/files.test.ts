/**
 * Issue #10 / SPEC §2.5 `storage:write`: the rules of uploaded files (src/platform/files.ts) on the
 * embedded SQLite store and on PostgreSQL (BLOB / bytea, one migration `0018_uploaded_files`):
 * bytes round-trip unchanged, the type comes from the magic number, another site's file is not
 * found. HTTP (multipart, 413/415, /files/{id} headers) is in test/integration/admin-api.files.test.ts.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { readSeed, seedDemo } from '../../src/platform/seed.js';
import { SiteFiles, sniffType } from '../../src/platform/files.js';
import { platformBackends, refusal } from '../helpers/platform-stores.js';

const backends = platformBackends('files');

// Every byte value, so an encoding slip (text column, UTF-8 round trip) would show.
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256)),
]);

test('sniffType: magic numbers of the accepted types, nothing else', () => {
  expect(sniffType(Buffer.from('GIF89a....'))).toBe('image/gif');
  expect(sniffType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
  expect(sniffType(Buffer.from('%PDF-1.4'))).toBe('application/pdf');
  expect(sniffType(JPEG)).toBe('image/jpeg');
  expect(sniffType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
  expect(sniffType(Buffer.alloc(0))).toBeUndefined();
});

for (const [name, open] of Object.entries(backends)) {
  const d = open ? describe : describe.skip;
  if (!open) process.stderr.write(`\n*** SKIPPED file store tests on ${name}: not available ***\n`);

  d(`SPEC 2.5 storage:write files on ${name}`, () => {
    let close: () => Promise<void>;
    let files: SiteFiles;
    beforeAll(async () => {
      const s = await open!();
      close = s.close;
      await seedDemo(s.db, readSeed(path.resolve('config/demo-seed.yaml')), 'pw-for-file-tests');
      files = new SiteFiles(s.db as never);
    }, 60_000);
    afterAll(() => close());

    test('bytes round-trip unchanged with their SHA-256; another site sees "not found"; delete removes them', async () => {
      const info = await files.upload('demo', { bytes: JPEG, filename: 'cover.jpg', declaredType: 'image/jpeg' });
      expect(info).toMatchObject({
        contentType: 'image/jpeg',
        size: JPEG.length,
        sha256: createHash('sha256').update(JPEG).digest('hex'),
      });
      const read = await files.read(info.id);
      expect(read?.bytes.equals(JPEG)).toBe(true);
      expect((await refusal(files.info('second', info.id))).code).toBe('not_found');
      expect((await refusal(files.remove('second', info.id))).code).toBe('not_found');
      await files.remove('demo', info.id);
      expect(await files.read(info.id)).toBeUndefined();
    });

    test('refused: empty, unknown bytes, a declared type the bytes contradict (field "file")', async () => {
      expect((await refusal(files.upload('demo', { bytes: Buffer.alloc(0), filename: 'x' }))).field).toBe('file');
      expect((await refusal(files.upload('demo', { bytes: Buffer.from('hello'), filename: 'x.txt' }))).reason).toBe(
        'unsupported_media_type',
      );
      expect(
        (await refusal(files.upload('demo', { bytes: JPEG, filename: 'x.png', declaredType: 'image/png' }))).reason,
      ).toBe('unsupported_media_type');
    });
  });
}
