import { NAME_MIN_LENGTH, PASSWORD_MIN_LENGTH } from '@sceau/contracts';
import { z } from 'zod';
import { checkContact, CONTACT_METHODS, phoneField } from '@/lib/contact';

/** Messages are translation keys of the `web` namespace (spec section 5). */

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

export const forgotSchema = z.object({ method: z.enum(CONTACT_METHODS), email: z.string(), phone: phoneField }).superRefine((values, ctx) => checkContact(values, ctx));
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
