/**
 * Reads the mail outbox of a test server (`DATA_DIR/outbox/*.eml`, src/ops/mail.ts): every message
 * written while no `SMTP_URL` is set, as RFC 5322 files. A small reader for the messages coursegate
 * writes (headers unfolded; `multipart/alternative` split into its text and HTML parts; quoted-printable,
 * base64 or 7bit bodies), enough to find a link.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** One message of the outbox. */
export interface OutboxMail {
  file: string;
  /** File mode bits (`& 0o777`). */
  mode: number;
  /** Header fields, lower-case names (the last value when repeated). */
  headers: Record<string, string>;
  raw: string;
  /** The decoded text body (the `text/plain` part of a multipart message). */
  text: string;
  /** The decoded `text/html` part, '' when the message has none. */
  html: string;
  /** The `set-password` links in the body. */
  links: string[];
}

function decodeQuotedPrintable(s: string): string {
  const bytes = Buffer.from(
    s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  );
  return bytes.toString('utf8');
}

/** One part's headers (lower-case names) and decoded body. */
function decodePart(headers: Record<string, string>, body: string): string {
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) return decodeQuotedPrintable(body);
  if (/base64/i.test(headers['content-transfer-encoding'] ?? '')) return Buffer.from(body, 'base64').toString('utf8');
  return body;
}

/** Header fields of a block of lines (unfolded, lower-case names). */
function headersOf(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * The text and HTML of a message: a single-part body is the text; a `multipart/alternative` one
 * (RFC 2046 §5.1) is split at its boundary and each part decoded by its own transfer encoding.
 */
function bodiesOf(headers: Record<string, string>, body: string): { text: string; html: string } {
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  if (!/^multipart\//i.test(headers['content-type'] ?? '') || !boundary)
    return { text: decodePart(headers, body), html: '' };
  const found = { text: '', html: '' };
  for (const chunk of body.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const part = chunk.replace(/^\r\n/, '');
    const split = part.indexOf('\r\n\r\n');
    const partHeaders = headersOf(part.slice(0, split));
    const decoded = decodePart(partHeaders, part.slice(split + 4).replace(/\r\n$/, ''));
    if (/^text\/plain/i.test(partHeaders['content-type'] ?? '')) found.text = decoded;
    else if (/^text\/html/i.test(partHeaders['content-type'] ?? '')) found.html = decoded;
  }
  return found;
}

/** The outbox directory of a data directory. */
export const outboxOf = (dataDir: string): string => path.join(dataDir, 'outbox');

/** Every message in the outbox, oldest first (file names start with the time written). */
export function readOutbox(dataDir: string): OutboxMail[] {
  const dir = outboxOf(dataDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((name) => {
      const file = path.join(dir, name);
      const raw = readFileSync(file, 'utf8');
      const split = raw.indexOf('\r\n\r\n');
      const headers = headersOf(raw.slice(0, split));
      const { text, html } = bodiesOf(headers, raw.slice(split + 4));
      return {
        file,
        mode: statSync(file).mode & 0o777,
        headers,
        raw,
        text,
        html,
        links: [...text.matchAll(/https?:\/\/\S+\/set-password\?token=[A-Za-z0-9_%-]+/g)].map((m) => m[0]),
      };
    });
}

/** The messages to one address (compared in lower case). */
export function mailsTo(dataDir: string, address: string): OutboxMail[] {
  return readOutbox(dataDir).filter((m) => m.headers.to?.toLowerCase().includes(address.toLowerCase()));
}
