/**
 * `GET /files/{id}`: the bytes of an uploaded file (issue #10 `storage:write`, src/platform/files.ts)
 * at a stable URL. The id (128 random bits) is the capability: no authentication, as for any
 * course image on a public page. Served with the type sniffed at upload, `nosniff`, a CSP that
 * runs nothing, and `Content-Disposition: attachment` for everything but images. Caching: images
 * a day (`public`), other files revalidated on every use (`private, no-cache` + ETag).
 */
import type { Middleware } from 'koa';
import type { SiteFiles } from '../platform/files.js';
import { NotFound } from '../errors/catalogue.js';

/** The handler of `/files/:id` (route-table row `file`). @throws NotFound 404 for an unknown id */
export function filesHandler(files: SiteFiles): Middleware {
  return async (ctx) => {
    // The `:id` of the route-table row, resolved once (src/http/route-table.ts).
    const id = String(ctx.state.route?.params.id ?? '');
    const found = /^fil_[\w-]{1,60}$/.test(id) ? await files.read(id) : undefined;
    if (!found) throw new NotFound('no such file');
    const { info, bytes } = found;
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    // Issue #25 (info, decided): a file's bytes never change under its id, but a DELETE must end
    // its URL at once (a digital product's file, a removed image). Images (course pictures on
    // public pages) may be cached a day by anyone; every other file is revalidated on each use
    // (ETag: a 304 costs no bytes) and kept out of shared caches.
    ctx.set('Cache-Control', info.contentType.startsWith('image/') ? 'public, max-age=86400' : 'private, no-cache');
    ctx.set('ETag', `"${info.sha256}"`);
    const disposition = info.contentType.startsWith('image/') ? 'inline' : 'attachment';
    ctx.set('Content-Disposition', `${disposition}; filename="${info.filename.replace(/[^\x20-\x7e]/g, '_')}"`);
    ctx.type = info.contentType;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = bytes;
  };
}
