import { CONTACT_LIMITS, NAME_MIN_LENGTH } from '@sceau/contracts';
import { z } from 'zod';
import { checkContact, CONTACT_METHODS, phoneField } from '@/lib/contact';
import { requiredText } from '@/lib/required-text';

/** The contact form (spec sections 1 and 5): messages are keys of the `web` namespace. */
export const contactSchema = z
  .object({
    name: requiredText([
      [(v) => v.length >= NAME_MIN_LENGTH, 'validation.nameMin'],
      [(v) => v.length <= CONTACT_LIMITS.nameMax, 'contactPage.validation.tooLong'],
    ]),
    method: z.enum(CONTACT_METHODS),
    email: z.string(),
    phone: phoneField,
    subject: requiredText([
      [(v) => v.length >= CONTACT_LIMITS.subjectMin, 'contactPage.validation.subjectMin'],
      [(v) => v.length <= CONTACT_LIMITS.subjectMax, 'contactPage.validation.tooLong'],
    ]),
    message: requiredText([
      [(v) => v.length >= CONTACT_LIMITS.messageMin, 'contactPage.validation.messageMin'],
      [(v) => v.length <= CONTACT_LIMITS.messageMax, 'contactPage.validation.tooLong'],
    ]),
    /** The honeypot: hidden from people, left empty by them. */
    website: z.string(),
  })
  .superRefine((values, ctx) => checkContact(values, ctx));

export type ContactValues = z.infer<typeof contactSchema>;
