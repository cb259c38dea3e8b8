/** Outgoing mail over SMTP (nodemailer). Without SMTP configuration, mails are logged instead of sent. */
import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../../server/config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function createMailer(smtp: SmtpConfig | null): Mailer {
  if (!smtp) {
    return {
      async send(message) {
        console.log(
          `[mail] SMTP_HOST not set; mail to ${message.to} not sent: ${message.subject}\n${message.text}`,
        );
      },
    };
  }
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.user ? { user: smtp.user, pass: smtp.pass } : undefined,
    tls: { rejectUnauthorized: false },
  });
  return {
    async send(message) {
      await transport.sendMail({ from: smtp.from, ...message });
    },
  };
}
