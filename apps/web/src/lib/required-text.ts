import { z } from 'zod';

/**
 * A required text with its rules, one message at a time ("required" for an empty box, else the
 * first rule broken). The checks do not abort, so the form-wide check (the contact) runs too.
 */
export function requiredText(rules: [(value: string) => boolean, string][]) {
  return z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      if (value === '') return void ctx.addIssue({ code: 'custom', message: 'validation.required' });
      const broken = rules.find(([ok]) => !ok(value));
      if (broken) ctx.addIssue({ code: 'custom', message: broken[1] });
    });
}
