import { z } from 'zod';

// A person's contact in the forms (registration, password recovery, contact, candidate check):
// an e-mail or a phone chosen with a toggle. Messages are translation keys of the `web` namespace.

export const CONTACT_METHODS = ['phone', 'email'] as const;
export type ContactMethod = (typeof CONTACT_METHODS)[number];

/** What the phone input reports; it shows its own message, the form only needs to know. */
export const phoneField = z.object({ value: z.string().nullable(), valid: z.boolean() });
export type PhoneFieldValue = z.infer<typeof phoneField>;
export const EMPTY_PHONE: PhoneFieldValue = { value: null, valid: false };

const EMAIL = z.email();

/** The contact chosen with the toggle must be given and valid; the other one is ignored. */
export function checkContact(values: { method: ContactMethod; email: string; phone: PhoneFieldValue }, ctx: z.RefinementCtx): void {
  if (values.method === 'phone') {
    if (!values.phone.valid) ctx.addIssue({ code: 'custom', path: ['phone'], message: 'validation.phone' });
    return;
  }
  const email = values.email.trim();
  if (email === '') ctx.addIssue({ code: 'custom', path: ['email'], message: 'validation.contactRequired' });
  else if (!EMAIL.safeParse(email).success) ctx.addIssue({ code: 'custom', path: ['email'], message: 'validation.email' });
}

export function contactOf(values: { method: ContactMethod; email: string; phone: PhoneFieldValue }): string {
  return values.method === 'phone' ? (values.phone.value ?? '') : values.email.trim().toLowerCase();
}

/** The contracts' one masking rule, shared with the API's answers. */
export { maskContact } from '@sceau/contracts';
