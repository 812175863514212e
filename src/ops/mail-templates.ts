/**
 * The mails coursegate sends, one template each (subject, plain text, HTML), in one place. Every
 * message goes out as `multipart/alternative` (RFC 2046 §5.1.4): the text part first, the HTML
 * part second, the same words in both. Every value put into the HTML is escaped (`escape-html`),
 * the link is the only anchor, and there is no image, script or remote resource: a mail client
 * shows it as sent, and a site name such as `<b>Evil</b>` stays text.
 *
 * Values: `to` (the recipient's address), `siteName` (the site the mail is about, as the operator
 * named it), `role`, `link` (a one-time link), `expiresAt` (ISO 8601 instant the link stops working).
 */
import escapeHtml from 'escape-html';

/** A message's content. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const IGNORE = 'If you did not expect this message, ignore it: nothing changes until the link is used.';

/** A paragraph of text with `{name}` placeholders filled, for the text part and (escaped) the HTML part. */
type Part = string | { link: string; label: string };

/** Builds the message from its parts: text paragraphs (plain) and one link. */
function message(subject: string, parts: Part[]): MailContent {
  const text = `${parts.map((p) => (typeof p === 'string' ? p : p.link)).join('\n\n')}\n`;
  const body = parts
    .map((p) =>
      typeof p === 'string'
        ? `<p>${escapeHtml(p)}</p>`
        : `<p><a href="${escapeHtml(p.link)}">${escapeHtml(p.label)}</a></p>\n<p style="font-size:small;color:#555">${escapeHtml(p.link)}</p>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:36rem">
${body}
</body></html>
`;
  return { subject, text, html };
}

/** The set-password link of an account an operator made (first run, `npm run admin`). */
export function setPasswordMail(v: { to: string; siteName: string; link: string; expiresAt: string }): MailContent {
  return message(`Set your password for ${v.siteName}`, [
    'Hello,',
    `an account for ${v.to} at ${v.siteName} is ready. Choose your password here (the link works once, until ${v.expiresAt}):`,
    { link: v.link, label: 'Choose your password' },
    IGNORE,
  ]);
}

/** An invitation's one-time link (DESIGN D5). */
export function invitationMail(v: {
  to: string;
  siteName: string;
  role: string;
  link: string;
  expiresAt: string;
}): MailContent {
  return message(`You are invited to ${v.siteName}`, [
    'Hello,',
    `you are invited to ${v.siteName} as ${v.role}. Open this link and accept (the link works once, until ${v.expiresAt}):`,
    { link: v.link, label: `Accept the invitation to ${v.siteName}` },
    IGNORE,
  ]);
}

/** An address link to choose a password and join a site (DESIGN D5: the address is proven). */
export function joinMail(v: {
  to: string;
  siteName: string;
  role?: string;
  link: string;
  expiresAt: string;
}): MailContent {
  return message(`Choose your password and join ${v.siteName}`, [
    'Hello,',
    `someone (we hope you) asked to join ${v.siteName} as ${v.role} with the address ${v.to}. Open this link to choose your password and join (the link works once, until ${v.expiresAt}):`,
    { link: v.link, label: `Choose your password and join ${v.siteName}` },
    `Choosing a password here signs out every other session of ${v.to}.`,
    IGNORE,
  ]);
}

/** An address link to reset a password. */
export function resetMail(v: { to: string; siteName: string; link: string; expiresAt: string }): MailContent {
  return message(`Reset your password for ${v.siteName}`, [
    'Hello,',
    `someone (we hope you) asked to reset the password of ${v.to} at ${v.siteName}. Open this link to choose a new password (the link works once, until ${v.expiresAt}):`,
    { link: v.link, label: 'Choose a new password' },
    `Choosing a password here signs out every other session of ${v.to}.`,
    IGNORE,
  ]);
}

/** The answer to a reset asked for an address without an account (no link; DESIGN D5). */
export function noAccountMail(v: { to: string; siteName: string }): MailContent {
  return message(`Password reset for ${v.siteName}`, [
    'Hello,',
    `someone asked to reset the password of ${v.to} at ${v.siteName}, but this address has no account there. To join a site, ask its operator for an invitation.`,
    'If you did not ask, ignore this message.',
  ]);
}
