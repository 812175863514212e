/**
 * The multipart/form-data reader of upload operations (issue #10 `storage:write`): one file part
 * named by the operation (`upload.field`), streamed through busboy (not buffered by the one body
 * reader, src/http/body.ts) under the configured size limit (`UPLOAD_MAX_BYTES`) and the body limit
 * of the route's row (`ctx.state.route.spec.body.limit`, src/http/route-table.ts). Refusals are problem+json through `renderProblems`: 415 for another
 * content type, 413 over the limit, 400 for a missing file part or extra parts.
 */
import busboy from 'busboy';
import type { Middleware } from 'koa';
import { InputError, InvalidRequest, UnsupportedMediaType } from '../../errors/catalogue.js';
import { bodyLimitOf, bodyTooLarge } from '../../http/body.js';

import type { UploadedPart } from '../../operations/operation.js';

export type { UploadedPart };

declare module 'koa' {
  interface DefaultState {
    /** The file of an upload operation, read by `readUpload`. */
    upload?: UploadedPart;
  }
}

/** Room for the multipart framing around the file (boundaries, part headers), in bytes. */
const FRAMING_BYTES = 16 * 1024;

/**
 * The 413 of an upload over `maxBytes`. `close`: the connection is closed after the answer (the
 * rest of the body is not read: a body declared far over the limit, or one of unknown length);
 * without it the rest of a body whose declared length is within the limit's reach is read and
 * dropped, so a client still sending it reads the 413 instead of a broken pipe.
 */
const tooLarge = (maxBytes: number, close = true) =>
  new InvalidRequest(`the file is larger than the upload limit (${maxBytes} bytes, UPLOAD_MAX_BYTES)`, {
    status: 413,
    ...(close ? { headers: { Connection: 'close' } } : {}),
  });

/**
 * Reads the one file part `field` of a multipart/form-data body, at most `maxBytes` bytes, onto
 * `ctx.state.upload`; the whole body is also held to the route's body limit.
 * @throws UnsupportedMediaType 415 (not multipart/form-data), InvalidRequest 413 (over `maxBytes`
 *   or the route's limit),
 *   InputError 400 (no `field` part, or other parts)
 */
export function readUpload(field: string, maxBytes: number): Middleware {
  return async (ctx, next) => {
    if (!ctx.is('multipart/form-data'))
      throw new UnsupportedMediaType(`send the file as multipart/form-data with one part named "${field}"`);
    const declared = Number(ctx.get('content-length') || 0);
    if (declared > bodyLimitOf(ctx)) throw bodyTooLarge(bodyLimitOf(ctx));
    if (declared > maxBytes + FRAMING_BYTES) throw tooLarge(maxBytes);
    ctx.state.upload = await new Promise<UploadedPart>((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({ headers: ctx.req.headers, limits: { fileSize: maxBytes, files: 1, fields: 0 } });
      } catch {
        reject(new UnsupportedMediaType('the multipart/form-data Content-Type needs a boundary'));
        return;
      }
      let part: UploadedPart | undefined;
      let failed = false;
      const fail = (err: Error) => {
        if (failed) return;
        failed = true;
        ctx.req.unpipe(parser);
        reject(err);
      };
      parser.on('file', (name, stream, info) => {
        if (name !== field) {
          stream.resume();
          fail(
            new InputError([
              { in: 'body', pointer: `/${name}`, detail: `unknown part; send the file in a part named "${field}"` },
            ]),
          );
          return;
        }
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('limit', () => {
          // A declared length here is at most maxBytes + FRAMING_BYTES (checked above): drain it.
          const drain = declared > 0;
          fail(tooLarge(maxBytes, !drain));
          if (drain) ctx.req.resume();
        });
        stream.on('end', () => {
          if (!failed)
            part = { bytes: Buffer.concat(chunks), filename: info.filename ?? '', declaredType: info.mimeType ?? '' };
        });
      });
      const onePart = () =>
        fail(new InputError([{ in: 'body', pointer: '', detail: `send exactly one part, the file "${field}"` }]));
      parser.on('fieldsLimit', onePart);
      parser.on('filesLimit', onePart);
      parser.on('error', () => fail(new InvalidRequest('malformed multipart/form-data body')));
      parser.on('close', () => {
        if (failed) return;
        if (!part)
          fail(new InputError([{ in: 'body', pointer: `/${field}`, detail: `missing the file part "${field}"` }]));
        else resolve(part);
      });
      ctx.req.on('error', () => fail(new InvalidRequest('the request body could not be read')));
      ctx.req.pipe(parser);
    });
    await next();
  };
}
