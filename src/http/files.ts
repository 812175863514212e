/**
 * `GET /files/{id}`: the bytes of an uploaded file (issue #10 `storage:write`, src/platform/files.ts)
 * at a stable URL. The id (128 random bits) is the capability: no authentication, as for any
 * course image on a public page. Served with the type sniffed at upload, `nosniff`, a CSP that
 * runs nothing, and `Content-Disposition: attachment` for everything but images.
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
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
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
