import { DEFAULT_LOCALE, type ContactRequest, type Locale } from '@sceau/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contactMessages } from '../../db/schema.ts';
import type { Messenger } from '../messaging/messaging-service.ts';

export interface ContactMeta {
  locale: Locale;
  ip: string;
  userAgent: string | null;
}

/**
 * Messages of the public contact form: kept in `contact_messages`, then e-mailed to the provider's
 * address (CONTACT_EMAIL) through the messaging service. A message whose e-mail could not leave
 * stays stored with `forwarded_at` empty: the sender is not asked to write again.
 */
export class ContactService {
  constructor(
    private readonly db: Db,
    private readonly messenger: Messenger,
    private readonly inbox: string,
    private readonly log: { warn(obj: unknown, msg?: string): void },
  ) {}

  /** Stores and forwards a message; a robot's (the honeypot filled) is answered alike and dropped. */
  async receive(input: ContactRequest, meta: ContactMeta): Promise<{ id: number } | null> {
    if (input.website && input.website.trim() !== '') return null;
    const [stored] = await this.db
      .insert(contactMessages)
      .values({
        name: input.name,
        contact: input.mail_or_phone,
        subject: input.subject,
        message: input.message,
        locale: meta.locale,
        ip: meta.ip,
        userAgent: meta.userAgent?.slice(0, 500) ?? null,
      })
      .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
    try {
      // The provider reads French, the platform's first language; the sender's language is noted.
      await this.messenger.send(this.inbox, 'contact_message', DEFAULT_LOCALE, {
        id: stored!.id,
        name: input.name,
        contact: input.mail_or_phone,
        subject: input.subject,
        message: input.message,
        language: meta.locale,
        date: stored!.createdAt.toISOString(),
      });
      await this.db.update(contactMessages).set({ forwardedAt: new Date() }).where(eq(contactMessages.id, stored!.id));
    } catch (error) {
      this.log.warn({ err: error, message: stored!.id }, 'contact message stored but not e-mailed to the provider');
    }
    return { id: stored!.id };
  }
}
