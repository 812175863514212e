/**
 * Outgoing mail of one-time links (issue 11, DESIGN D11): when `SMTP_URL` is set, links given to
 * the operator who made them (first password, password reset) are also e-mailed to the person
 * they are for, through nodemailer's SMTP transport. Without `SMTP_URL` nothing is sent.
 *
 * The link itself is in the message body only; logs name the recipient's domain, never the link.
 */
import nodemailer, { type Transporter } from 'nodemailer';

/** Sends one-time links by e-mail. */
export interface LinkMailer {
  /**
   * Sends a set-password link.
   * @param siteName the site the person is owner/member of (subject line)
   * @throws the SMTP error when the server refuses the message
   */
  sendSetPasswordLink(to: string, siteName: string, link: string, expiresAt: string): Promise<void>;
  /**
   * Sends an invitation's one-time accept link (SPEC §2.5 invitations, DESIGN D5).
   * @param role the role offered at the site (e.g. `instructor`)
   * @param expiresAt ISO 8601 instant the link stops working
   * @throws the SMTP error when the server refuses the message
   */
  sendInvitationLink(to: string, siteName: string, role: string, link: string, expiresAt: string): Promise<void>;
  close(): void;
}

/**
 * The mailer of `SMTP_URL` (e.g. `smtp://user:pass@mail.example.com:587`, `smtps://…:465`), or
 * undefined when it is not set. `SMTP_FROM` is the sender (default `coursegate <no-reply@host of BASE_URL>`).
 */
export function createLinkMailer(smtpUrl: string | undefined, from: string | undefined, baseUrl: string): LinkMailer | undefined {
  if (!smtpUrl) return undefined;
  const transport: Transporter = nodemailer.createTransport(smtpUrl);
  const sender = from ?? `coursegate <no-reply@${new URL(baseUrl).hostname}>`;
  return {
    async sendSetPasswordLink(to, siteName, link, expiresAt) {
      await transport.sendMail({
        from: sender,
        to,
        subject: `Set your password for ${siteName}`,
        text: `Hello,\n\nan account for ${to} at ${siteName} is ready. Choose your password here (the link works once, until ${expiresAt}):\n\n${link}\n\nIf you did not expect this message, ignore it.\n`,
      });
    },
    async sendInvitationLink(to, siteName, role, link, expiresAt) {
      await transport.sendMail({
        from: sender,
        to,
        subject: `You are invited to ${siteName}`,
        text: `Hello,\n\nyou are invited to ${siteName} as ${role}. Open this link, sign in (or create your account for ${to}) and accept (the link works once, until ${expiresAt}):\n\n${link}\n\nIf you did not expect this message, ignore it.\n`,
      });
    },
    close() {
      transport.close();
    },
  };
}
