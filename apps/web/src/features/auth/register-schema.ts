import { NAME_MIN_LENGTH, PASSWORD_MIN_LENGTH } from '@sceau/contracts';
import { z } from 'zod';

/** Messages are translation keys of the `web` namespace (spec section 5). */

export const CONTACT_METHODS = ['phone', 'email'] as const;
export type ContactMethod = (typeof CONTACT_METHODS)[number];

/** What the phone input reports; it shows its own message, the form only needs to know. */
export const phoneField = z.object({ value: z.string().nullable(), valid: z.boolean() });
export type PhoneFieldValue = z.infer<typeof phoneField>;
export const EMPTY_PHONE: PhoneFieldValue = { value: null, valid: false };

const EMAIL = z.email();

/** The contact chosen with the toggle must be given and valid; the other one is ignored. */
export function checkContact(
  values: { method: ContactMethod; email: string; phone: PhoneFieldValue },
  ctx: z.RefinementCtx,
): void {
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

export const passwordFields = z.object({
  password: z.string().min(1, 'validation.required').min(PASSWORD_MIN_LENGTH, 'validation.passwordMin'),
  password_confirmation: z.string().min(1, 'validation.required'),
});

export function checkConfirmation(values: { password: string; password_confirmation: string }, ctx: z.RefinementCtx): void {
  if (values.password_confirmation !== '' && values.password !== values.password_confirmation) {
    ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: 'validation.passwordMismatch' });
  }
}

export const registerSchema = z
  .object({
    name: z.string().trim().min(1, 'validation.required').min(NAME_MIN_LENGTH, 'validation.nameMin'),
    first_name: z.string().trim().max(120),
    method: z.enum(CONTACT_METHODS),
    email: z.string(),
    phone: phoneField,
  })
  .extend(passwordFields.shape)
  .superRefine((values, ctx) => {
    checkContact(values, ctx);
    checkConfirmation(values, ctx);
  });

export type RegisterValues = z.infer<typeof registerSchema>;

export const forgotSchema = z
  .object({ method: z.enum(CONTACT_METHODS), email: z.string(), phone: phoneField })
  .superRefine((values, ctx) => checkContact(values, ctx));
export type ForgotValues = z.infer<typeof forgotSchema>;

/** `current_password` is checked only when the page asks for it (not in a recovery code's session). */
export const resetSchema = passwordFields
  .extend({ mail_or_phone: z.string().min(1, 'validation.required'), current_password: z.string() })
  .superRefine((values, ctx) => checkConfirmation(values, ctx));

export function checkCurrentPassword(values: { current_password: string }, ctx: z.RefinementCtx): void {
  if (values.current_password === '') ctx.addIssue({ code: 'custom', path: ['current_password'], message: 'validation.required' });
}
export const changeSchema = resetSchema.superRefine((values, ctx) => checkCurrentPassword(values, ctx));
export type ResetValues = z.infer<typeof resetSchema>;
