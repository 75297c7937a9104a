import nodemailer, { type Transporter } from 'nodemailer';
import type { Outbox } from './outbox.ts';

/** A file sent with an e-mail: its bytes, or a file nodemailer streams from disk (large attachments). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content?: Buffer;
  path?: string;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Real delivery over SMTP (any relay); nodemailer speaks the protocol. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }
  async send(mail: Mail): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...mail });
  }
}

/** Development default: the message is composed by nodemailer, then kept in the outbox instead of sent. */
export class OutboxMailer implements Mailer {
  private readonly transport = nodemailer.createTransport({ jsonTransport: true });
  constructor(
    private readonly outbox: Outbox,
    private readonly from: string,
  ) {}
  async send(mail: Mail): Promise<void> {
    // Composed without the attachments' bytes (the JSON transport would inline them); the outbox keeps them as files.
    await this.transport.sendMail({ from: this.from, ...mail, attachments: undefined });
    await this.outbox.write({ channel: 'email', to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? null }, mail.attachments ?? []);
  }
}
