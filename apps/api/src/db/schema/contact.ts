import { LOCALES } from '@sceau/contracts';
import { bigserial, index, inet, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { createdAt, oneOf } from './columns.ts';

/** A message sent from the public contact form; also e-mailed to the provider's address (CONTACT_EMAIL). */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    /** An e-mail address or an international phone number (`+243…`), as the sender chose. */
    contact: text('contact').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    locale: varchar('locale', { length: 2, enum: LOCALES }).notNull(),
    ip: inet('ip'),
    userAgent: text('user_agent'),
    /** When the e-mail to the provider left; null while it has not (a mail relay down). */
    forwardedAt: timestamp('forwarded_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('contact_messages_created_idx').on(t.createdAt), oneOf('contact_messages_locale_check', t.locale, LOCALES)],
);
