/**
 * Outgoing mail (issue 11, DESIGN D5, D11; issue #25 finding 2): one-time links go to the address
 * they are for. With `SMTP_URL` set, through nodemailer's SMTP transport; without it, every message
 * is written as one RFC 5322 file (`.eml`, CRLF line ends, built by nodemailer's stream transport)
 * under `DATA_DIR/outbox/`, the directory mode 0700 and each file 0600, for the operator to hand
 * over or to feed to a mail system. Nothing reaches a log: logs name the recipient's domain, never
 * the link. The outbox is bounded ({@link pruneOutbox}, run by the retention job): messages older
 * than `OUTBOX_MAX_AGE_HOURS` and the oldest beyond `OUTBOX_MAX_MESSAGES` are deleted, and only
 * their count is logged. Every message first spends the mail budgets (src/http/mail-budget.ts).
 *
 * Messages (one template each, text and HTML: src/ops/mail-templates.ts): the set-password link of
 * an account an operator made (first run, reset), an invitation's link, and the address links that
 * prove an address (src/platform/address-links.ts): "choose your password and join" from an
 * invitation page, and "reset your password".
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { readdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { invitationMail, joinMail, noAccountMail, resetMail, setPasswordMail } from './mail-templates.js';

/** Where a message went: handed to the SMTP server, or written to the outbox (absolute path). */
export type Delivery = { delivery: 'smtp' } | { delivery: 'outbox'; file: string };

/** Sends one-time links by e-mail (or into the outbox). */
export interface LinkMailer {
  /** `smtp` when `SMTP_URL` is set, else `outbox`. */
  readonly transport: 'smtp' | 'outbox';
  /** The outbox directory (`DATA_DIR/outbox`), used when `transport` is `outbox`. */
  readonly outboxDir: string;
  /**
   * Sends a set-password link.
   * @param siteName the site the person is owner/member of (subject line)
   * @throws the SMTP error when the server refuses the message, or the file system's error
   */
  sendSetPasswordLink(to: string, siteName: string, link: string, expiresAt: string): Promise<Delivery>;
  /**
   * Sends an invitation's one-time link (SPEC §2.5 invitations, DESIGN D5).
   * @param role the role offered at the site (e.g. `instructor`)
   * @param expiresAt ISO 8601 instant the link stops working
   * @throws as `sendSetPasswordLink`
   */
  sendInvitationLink(to: string, siteName: string, role: string, link: string, expiresAt: string): Promise<Delivery>;
  /**
   * Sends an address link (DESIGN D5): `join` (choose a password and accept the invitation to
   * `siteName` as `role`; creates the account when the address has none) or `reset` (choose a new
   * password). The same text whether or not the address has an account.
   * @throws as `sendSetPasswordLink`
   */
  sendAddressLink(
    to: string,
    message: { purpose: 'join' | 'reset'; siteName: string; role?: string; link: string; expiresAt: string },
  ): Promise<Delivery>;
  /**
   * Tells an address without an account that someone asked to reset its password (no link): the
   * answer on the page is the same as for an address with an account (DESIGN D5).
   * @throws as `sendSetPasswordLink`
   */
  sendNoAccountNotice(to: string, siteName: string): Promise<Delivery>;
  close(): void;
}

/**
 * Creates `dir` with mode 0700, or narrows an existing one to 0700 (it holds one-time links).
 * @throws the file system's error
 */
function secureOutbox(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/**
 * The mailer: SMTP when `smtpUrl` is set (e.g. `smtp://user:pass@mail.example.com:587`,
 * `smtps://…:465`), else the outbox `outboxDir` (created on first use, mode 0700). `SMTP_FROM` is
 * the sender (default `coursegate <no-reply@host of BASE_URL>`).
 */
export function createLinkMailer(
  smtpUrl: string | undefined,
  from: string | undefined,
  baseUrl: string,
  outboxDir: string,
): LinkMailer {
  const sender = from ?? `coursegate <no-reply@${new URL(baseUrl).hostname}>`;
  const smtp: Transporter | undefined = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  // RFC 5322 needs CRLF line ends; `buffer: true` hands the whole message back as one Buffer.
  const stream = smtp
    ? undefined
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

  async function send(message: SendMailOptions): Promise<Delivery> {
    const mail = { from: sender, ...message };
    if (smtp) {
      await smtp.sendMail(mail);
      return { delivery: 'smtp' };
    }
    const info = (await stream!.sendMail(mail)) as { message: Buffer };
    secureOutbox(outboxDir);
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(6).toString('hex')}.eml`;
    const file = path.join(outboxDir, name);
    await writeFile(file, info.message, { mode: 0o600, flag: 'wx' });
    return { delivery: 'outbox', file };
  }

  const mailer: LinkMailer = {
    transport: smtp ? 'smtp' : 'outbox',
    outboxDir,
    sendSetPasswordLink(to, siteName, link, expiresAt) {
      return send({ to, ...setPasswordMail({ to, siteName, link, expiresAt }) });
    },
    sendInvitationLink(to, siteName, role, link, expiresAt) {
      return send({ to, ...invitationMail({ to, siteName, role, link, expiresAt }) });
    },
    sendAddressLink(to, m) {
      const content = m.purpose === 'join' ? joinMail({ to, ...m }) : resetMail({ to, ...m });
      return send({ to, ...content });
    },
    sendNoAccountNotice(to, siteName) {
      return send({ to, ...noAccountMail({ to, siteName }) });
    },
    close() {
      smtp?.close();
      stream?.close();
    },
  };
  return {
    transport: mailer.transport,
    outboxDir: mailer.outboxDir,
    sendSetPasswordLink: (to, siteName, link, expiresAt) =>
      mailer.sendSetPasswordLink(to, oneLine(siteName), link, expiresAt),
    sendInvitationLink: (to, siteName, role, link, expiresAt) =>
      mailer.sendInvitationLink(to, oneLine(siteName), oneLine(role), link, expiresAt),
    sendAddressLink: (to, m) =>
      mailer.sendAddressLink(to, {
        ...m,
        siteName: oneLine(m.siteName),
        ...(m.role === undefined ? {} : { role: oneLine(m.role) }),
      }),
    sendNoAccountNotice: (to, siteName) => mailer.sendNoAccountNotice(to, oneLine(siteName)),
    close: () => mailer.close(),
  };
}

/**
 * Text set by people that lands in a message body (a site name, a role), as one line: control
 * and format characters (line breaks, bidirectional overrides) become spaces. Names are refused
 * with them on the way in (src/platform/plain-text.ts); this keeps a name stored before that rule
 * from shaping a message.
 */
export function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}]/gu, ' ');
}

/** The time an outbox file was written, from its name (`2026-11-29T07-20-02-123Z-<hex>.eml`). */
const OUTBOX_NAME = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z-[0-9a-f]+\.eml$/;

/**
 * Bounds the outbox (`DATA_DIR/outbox/`, written when no `SMTP_URL` is set): deletes the messages
 * written more than `maxAgeHours` before `now`, then the oldest ones beyond `maxMessages`. A file
 * whose name is not one of ours is left alone; a missing directory is an empty outbox.
 * @param bounds `maxMessages` (≥ 0) and `maxAgeHours` (> 0), `OUTBOX_MAX_MESSAGES` / `OUTBOX_MAX_AGE_HOURS`
 * @returns how many messages were deleted (the caller logs the count, never a name or a link)
 * @throws the file system's error other than a file already gone
 */
export async function pruneOutbox(
  dir: string,
  bounds: { maxMessages: number; maxAgeHours: number },
  now = new Date(),
): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  const written = (m: RegExpExecArray): number => Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  const oldest = now.getTime() - bounds.maxAgeHours * 3_600_000;
  const doomed: string[] = [];
  const kept: string[] = [];
  for (const name of names.sort()) {
    const m = OUTBOX_NAME.exec(name);
    if (m) (written(m) < oldest ? doomed : kept).push(name);
  }
  // The names sort by the time written: the oldest beyond the bound go first.
  doomed.push(...kept.slice(0, Math.max(0, kept.length - bounds.maxMessages)));
  let dropped = 0;
  for (const name of doomed) {
    try {
      await unlink(path.join(dir, name));
      dropped += 1;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return dropped;
}
