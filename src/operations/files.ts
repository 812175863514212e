/**
 * Uploaded files (SPEC §2.5 `storage:write`, issue #10): upload a course image or a PDF, read its
 * description, delete it. The bytes are served at `/files/{id}` (src/http/files.ts). Another
 * site's file is "not found" (404).
 */
import { z } from 'zod';
import { defineOperation } from './operation.js';

const fileId = z.string().min(1).max(64).describe('File id, e.g. "fil_…".');
export const adminFile = z.object({
  id: z.string(),
  url: z.string().describe('Absolute URL the file is served at (public to whoever has it).'),
  contentType: z.string().describe('From the bytes: image/png, image/jpeg, image/webp, image/gif or application/pdf.'),
  size: z.number().int().describe('Bytes.'),
  sha256: z.string().describe('Lower-case hex SHA-256 of the bytes.'),
  filename: z.string(),
  createdAt: z.string(),
});
type AdminFile = z.infer<typeof adminFile>;
const withUrl = (baseUrl: string, f: Omit<AdminFile, 'url'>): AdminFile => ({ ...f, url: `${baseUrl}/files/${f.id}` });

export const uploadFile = defineOperation({
  id: 'uploadFile',
  method: 'post',
  path: '/api/v1/files',
  scope: 'storage:write',
  tag: 'storage',
  summary: 'Upload a file (a course image or a PDF)',
  description:
    'Uploads one file as multipart/form-data (part "file"). Accepted: PNG, JPEG, WebP, GIF images and PDF, judged by the bytes (magic number), not the declared type (415 otherwise); at most UPLOAD_MAX_BYTES (413). Answers the file with its URL and SHA-256.',
  upload: { field: 'file', description: 'The file (PNG, JPEG, WebP, GIF or PDF).' },
  response: adminFile,
  status: 201,
  location: (f) => `/api/v1/files/${encodeURIComponent(f.id)}`,
  async run({ file }, ctx) {
    const info = await ctx.services.files.upload(ctx.siteId, {
      bytes: file!.bytes,
      filename: file!.filename,
      declaredType: file!.declaredType,
    });
    return withUrl(ctx.services.baseUrl, info);
  },
});

export const getFile = defineOperation({
  id: 'getFile',
  method: 'get',
  path: '/api/v1/files/{fileId}',
  scope: 'storage:write',
  tag: 'storage',
  summary: 'One uploaded file of your site (its description and URL)',
  params: { fileId },
  response: adminFile,
  async run({ params }, ctx) {
    return withUrl(ctx.services.baseUrl, await ctx.services.files.info(ctx.siteId, params.fileId));
  },
});

export const deleteFile = defineOperation({
  id: 'deleteFile',
  method: 'delete',
  path: '/api/v1/files/{fileId}',
  scope: 'storage:write',
  tag: 'storage',
  summary: 'Delete an uploaded file (its URL stops working; cannot be undone)',
  params: { fileId },
  status: 204,
  async run({ params }, ctx) {
    await ctx.services.files.remove(ctx.siteId, params.fileId);
  },
});
