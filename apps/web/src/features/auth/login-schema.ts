import { PASSWORD_MIN_LENGTH } from '@sceau/contracts';
import { z } from 'zod';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_CHARS = /^\+?[\d\s().-]+$/;

/** A contact is an e-mail address or a phone number of 8 to 15 digits. */
export function isContact(value: string): boolean {
  const trimmed = value.trim();
  if (EMAIL.test(trimmed)) return true;
  if (!PHONE_CHARS.test(trimmed)) return false;
  const digits = trimmed.replace(/\D/g, '').length;
  return digits >= 8 && digits <= 15;
}

/** Messages are translation keys of the `web` namespace. */
export const loginSchema = z.object({
  username: z.string().trim().min(1, 'validation.required').refine(isContact, 'validation.contact'),
  password: z.string().min(1, 'validation.required').min(PASSWORD_MIN_LENGTH, 'validation.passwordMin'),
  remember: z.boolean(),
});

export type LoginValues = z.infer<typeof loginSchema>;
