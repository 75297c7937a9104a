import type { Locale } from '@sceau/contracts';
import type { Config } from '../../config.ts';
import { dynamicKey, translator } from '../../lib/i18n.ts';
import { OutboxMailer, SmtpMailer, type MailAttachment, type Mailer } from './mailer.ts';
import { Outbox } from './outbox.ts';
import { HttpSmsSender, OutboxSmsSender, type SmsSender } from './sms.ts';

export type Channel = 'email' | 'sms';

export function channelOf(destination: string): Channel {
  return destination.includes('@') ? 'email' : 'sms';
}

/**
 * Sends a message from the `messages` catalogue to an e-mail address or a phone number, in the
 * person's language, through the configured providers (outbox by default).
 */
export class Messenger {
  readonly outbox: Outbox;
  readonly usesOutbox: { email: boolean; sms: boolean };
  private readonly mailer: Mailer;
  private readonly sms: SmsSender;

  constructor(config: Config, overrides: { mailer?: Mailer; sms?: SmsSender } = {}) {
    this.outbox = new Outbox(config.outboxDir);
    this.mailer = overrides.mailer ?? (config.mail.smtpUrl ? new SmtpMailer(config.mail.smtpUrl, config.mail.from) : new OutboxMailer(this.outbox, config.mail.from));
    this.sms = overrides.sms ?? (config.sms.gatewayUrl ? new HttpSmsSender(config.sms.gatewayUrl, config.sms.token, config.sms.sender) : new OutboxSmsSender(this.outbox));
    this.usesOutbox = { email: !overrides.mailer && !config.mail.smtpUrl, sms: !overrides.sms && !config.sms.gatewayUrl };
  }

  /** `attachments` go with an e-mail only (an SMS carries text). */
  async send(destination: string, template: string, locale: Locale, params: Record<string, unknown> = {}, attachments: MailAttachment[] = []): Promise<Channel> {
    const t = translator(locale);
    const channel = channelOf(destination);
    if (channel === 'email') {
      await this.mailer.send({
        to: destination,
        subject: t(dynamicKey(`messages:${template}.subject`), params),
        text: t(dynamicKey(`messages:${template}.email`), params),
        ...(attachments.length ? { attachments } : {}),
      });
    } else {
      await this.sms.send(destination, t(dynamicKey(`messages:${template}.sms`), params));
    }
    return channel;
  }
}
