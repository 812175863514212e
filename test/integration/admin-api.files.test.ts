/**
 * Issue #10 / SPEC §2.5 `storage:write`: POST /api/v1/files (multipart/form-data) stores a file
 * whose bytes are one of the accepted types (magic number, not the declared type), under
 * UPLOAD_MAX_BYTES; /files/{id} serves it back with its type, nosniff and a CSP.
 */
import { createHash } from 'node:crypto';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';

let server: TestServer;
let base: string;
let token: string;
const LIMIT = 4096;

beforeAll(async () => {
  server = await startTestServer({ UPLOAD_MAX_BYTES: String(LIMIT) });
  base = server.baseUrl;
  const clientId = await registerLoopbackClient(base, 'uploader');
  token = await memberToken({
    baseUrl: base,
    email: 'owner@demo.test',
    clientId,
    scope: 'openid storage:write',
    site: 'demo',
  });
}, 60_000);
afterAll(() => server.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 7)]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

function upload(bytes: Buffer, type: string, name = 'f', field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return fetch(`${base}/api/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
}

describe('SPEC 2.5 storage:write — POST /api/v1/files', () => {
  test('a PNG: 201 with id, URL, size, type, SHA-256; /files/{id} serves the same bytes inline with nosniff and CSP', async () => {
    const res = await upload(PNG, 'image/png', 'cover.png');
    if (res.status !== 201) throw new Error(await res.text());
    const file = (await res.json()) as Record<string, unknown>;
    expect(file).toMatchObject({
      contentType: 'image/png',
      size: PNG.length,
      sha256: createHash('sha256').update(PNG).digest('hex'),
      filename: 'cover.png',
    });
    expect(res.headers.get('location')).toBe(`/api/v1/files/${file.id as string}`);
    expect(file.url).toBe(`${base}/files/${file.id as string}`);
    const served = await fetch(file.url as string);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(served.headers.get('content-disposition')).toMatch(/^inline/);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  test('a PDF is served as an attachment; after DELETE its URL is 404', async () => {
    const file = (await (await upload(PDF, 'application/pdf', 'syllabus.pdf')).json()) as {
      id: string;
      url: string;
      contentType: string;
    };
    expect(file.contentType).toBe('application/pdf');
    const served = await fetch(file.url);
    expect(served.headers.get('content-disposition')).toBe('attachment; filename="syllabus.pdf"');
    const del = await fetch(`${base}/api/v1/files/${file.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(del.status).toBe(204);
    expect((await fetch(file.url)).status).toBe(404);
  });

  test('415 problem+json: bytes outside the allowlist, or declared as another type than they are', async () => {
    const html = await upload(Buffer.from('<html><script>alert(1)</script></html>'), 'image/png', 'evil.png');
    expect(html.status).toBe(415);
    expect(html.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await html.json()).toMatchObject({ error: 'unsupported_media_type', errors: [{ pointer: '/file' }] });
    const lying = await upload(PDF, 'image/png', 'x.png');
    expect(lying.status).toBe(415);
    const json = await fetch(`${base}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
  });

  test('413 above UPLOAD_MAX_BYTES (declared or streamed); 400 naming the part when "file" is missing', async () => {
    const big = await upload(Buffer.concat([PNG, Buffer.alloc(LIMIT)]), 'image/png');
    expect(big.status).toBe(413);
    expect((await big.json()).error).toBe('invalid_request');
    const wrongPart = await upload(PNG, 'image/png', 'x.png', 'image');
    expect(wrongPart.status).toBe(400);
    expect((await wrongPart.json()).errors[0].pointer).toBe('/image');
  });

  test('an unknown file id is 404 at /files/{id}', async () => {
    expect((await fetch(`${base}/files/fil_doesnotexist`)).status).toBe(404);
  });
});
