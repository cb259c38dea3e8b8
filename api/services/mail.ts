/**
 * Outgoing mail over SMTP (nodemailer). Without SMTP configuration, mails are logged instead of sent.
 *
 * TLS (SMTP_SECURE=true, or STARTTLS when the server offers it) verifies the server's certificate and its
 * name: a mail with a password-reset key must not go to whoever answers on the path. A private CA is given
 * by SMTP_CA_FILE (trusted instead of the public roots) or NODE_EXTRA_CA_CERTS (added to them).
 */
import fs from 'node:fs';
import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../../server/config';
import { getLogger } from '../../server/logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface MailHealth {
  status: 'UP' | 'DOWN' | 'UNKNOWN';
  details: Record<string, unknown>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** The SMTP server answers (a connection and its greeting, cached a minute); UNKNOWN without SMTP_HOST. */
  health?(): Promise<MailHealth>;
}

const log = getLogger('api.mail');

export function createMailer(smtp: SmtpConfig | null): Mailer {
  if (!smtp) {
    return {
      async send(message) {
        log.info('SMTP_HOST not set; mail not sent', {
          to: message.to,
          subject: message.subject,
          text: message.text,
        });
      },
      async health() {
        return { status: 'UNKNOWN', details: { configured: false } };
      },
    };
  }
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.user ? { user: smtp.user, pass: smtp.pass } : undefined,
    // Node's defaults check the chain and the name; only the CA may be replaced, never the check.
    tls: smtp.caFile ? { ca: fs.readFileSync(smtp.caFile, 'utf8') } : {},
  });
  let checked: { at: number; result: MailHealth } | null = null;
  return {
    async send(message) {
      await transport.sendMail({ from: smtp.from, ...message });
    },
    async health() {
      if (checked && Date.now() - checked.at < 60_000) return checked.result;
      const details = { host: smtp.host, port: smtp.port };
      const result: MailHealth = await Promise.race([
        transport.verify().then(
          () => ({ status: 'UP' as const, details }),
          (err: Error) => ({ status: 'DOWN' as const, details: { ...details, error: err.message } }),
        ),
        new Promise<MailHealth>((resolve) =>
          setTimeout(
            () => resolve({ status: 'DOWN', details: { ...details, error: 'timeout' } }),
            5000,
          ).unref(),
        ),
      ]);
      checked = { at: Date.now(), result };
      return result;
    },
  };
}
