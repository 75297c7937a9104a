import { CANDIDATE_CODE_LENGTH, comparableName } from '@sceau/contracts';
import { z } from 'zod';
import { phoneField } from '@/lib/contact';
import { requiredText } from '@/lib/required-text';

/** Letters of any alphabet, spaces, apostrophes, hyphens and dots: "N'Sele", "Marie-Élodie", "wa Kalombo". */
const NAME = /^[\p{L}\p{M}][\p{L}\p{M} '’.-]*$/u;
const CODE = new RegExp(`^\\d{${CANDIDATE_CODE_LENGTH}}$`);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const namePart = requiredText([
  [(v) => v.length <= 80, 'candidateCheck.validation.nameTooLong'],
  [(v) => NAME.test(v), 'candidateCheck.validation.name'],
]);

const classmate = requiredText([
  [(v) => v.length <= 160, 'candidateCheck.validation.nameTooLong'],
  [(v) => NAME.test(v), 'candidateCheck.validation.name'],
  [(v) => v.split(/\s+/).length >= 2, 'candidateCheck.validation.classmateFullName'],
]);

/**
 * The candidate form (spec sections 3 and 5): last name, middle name, first name, the 14-digit code,
 * birth date, session and two classmates' full names, required; the phone, optional, checked when
 * given. Messages are keys of the `web` namespace.
 */
export const candidateCheckSchema = z
  .object({
    last_name: namePart,
    middle_name: namePart,
    first_name: namePart,
    code: requiredText([[(v) => CODE.test(v), 'candidateCheck.validation.code']]),
    phone: phoneField,
    birth_date: requiredText([[(v) => ISO_DATE.test(v) && !Number.isNaN(Date.parse(v)) && Date.parse(v) < Date.now(), 'candidateCheck.validation.birthDate']]),
    session_id: z.string().min(1, { error: 'candidateCheck.validation.session' }),
    classmate_1: classmate,
    classmate_2: classmate,
  })
  .superRefine((values, ctx) => {
    if (!values.phone.valid) ctx.addIssue({ code: 'custom', path: ['phone'], message: 'validation.phone' });
    const own = comparableName(fullNameOf(values));
    for (const key of ['classmate_1', 'classmate_2'] as const) {
      if (values[key].trim() && comparableName(values[key]) === own) ctx.addIssue({ code: 'custom', path: [key], message: 'candidateCheck.validation.classmateIsYou' });
    }
    if (values.classmate_1.trim() && values.classmate_2.trim() && comparableName(values.classmate_1) === comparableName(values.classmate_2)) {
      ctx.addIssue({ code: 'custom', path: ['classmate_2'], message: 'candidateCheck.validation.classmatesDistinct' });
    }
  });

export type CandidateCheckValues = z.infer<typeof candidateCheckSchema>;

/** Nom, postnom, prénom: sent joined as `fullname` (spec section 3). */
export function fullNameOf(values: { last_name: string; middle_name: string; first_name: string }): string {
  return [values.last_name, values.middle_name, values.first_name]
    .map((part) => part.trim().replace(/\s+/g, ' '))
    .filter(Boolean)
    .join(' ');
}
