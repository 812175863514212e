/**
 * Reads the mail outbox of a test server (`DATA_DIR/outbox/*.eml`, src/ops/mail.ts): every message
 * written while no `SMTP_URL` is set, as RFC 5322 files. A small reader for the plain-text messages
 * coursegate writes (headers unfolded, quoted-printable or 7bit bodies), enough to find a link.
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
  /** The decoded text body. */
  text: string;
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
      const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
      const headers: Record<string, string> = {};
      for (const line of head.split('\r\n')) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = raw.slice(split + 4);
      const text = /quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')
        ? decodeQuotedPrintable(body)
        : body;
      return {
        file,
        mode: statSync(file).mode & 0o777,
        headers,
        raw,
        text,
        links: [...text.matchAll(/https?:\/\/\S+\/set-password\?token=[A-Za-z0-9_%-]+/g)].map((m) => m[0]),
      };
    });
}

/** The messages to one address (compared in lower case). */
export function mailsTo(dataDir: string, address: string): OutboxMail[] {
  return readOutbox(dataDir).filter((m) => m.headers.to?.toLowerCase().includes(address.toLowerCase()));
}
