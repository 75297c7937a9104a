import { z } from 'zod';
import { envelope } from './api.ts';
import { internationalPhone, mailOrPhone } from './accounts.ts';
import { CANDIDATE_CODE_LENGTH, DIPLOMA_ID_PATTERN, NAME_MIN_LENGTH, VERDICTS } from './constants.ts';

// ---------------------------------------------------------------- the contact form (POST /contact)

export const CONTACT_LIMITS = {
  nameMax: 120,
  subjectMin: 3,
  subjectMax: 150,
  messageMin: 10,
  messageMax: 5000,
} as const;

/**
 * `POST /contact`. `website` is a honeypot: hidden from people, filled in by form-filling robots;
 * a message that carries it is answered like any other and dropped.
 */
export const contactRequest = z.object({
  name: z.string().trim().min(1, { abort: true }).min(NAME_MIN_LENGTH).max(CONTACT_LIMITS.nameMax),
  mail_or_phone: mailOrPhone,
  subject: z.string().trim().min(1, { abort: true }).min(CONTACT_LIMITS.subjectMin).max(CONTACT_LIMITS.subjectMax),
  message: z.string().trim().min(1, { abort: true }).min(CONTACT_LIMITS.messageMin).max(CONTACT_LIMITS.messageMax),
  website: z.string().max(500).optional(),
});
export type ContactRequest = z.infer<typeof contactRequest>;

export const contactResponse = envelope(z.object({ received: z.literal(true), message: z.string() }));

// ---------------------------------------------------------------- the candidate check (POST /v2/verify-candidate)

/** A person's full name as typed: letters of any alphabet, spaces, apostrophes, hyphens, dots. */
const PERSON_NAME = /^[\p{L}\p{M}][\p{L}\p{M} '’.-]*$/u;
export const CANDIDATE_NAME_MAX = 160;

const personName = z
  .string()
  .trim()
  .min(1, { abort: true })
  .min(NAME_MIN_LENGTH, { abort: true })
  .max(CANDIDATE_NAME_MAX, { abort: true })
  .regex(PERSON_NAME, { error: 'field.person_name' });

/** YYYY-MM-DD (a date input) or DD/MM/YYYY (as people write it); answered as YYYY-MM-DD. */
export const calendarDate = z
  .string()
  .trim()
  .min(1)
  .transform((value, ctx) => {
    const ymd = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    const dmy = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(value);
    const [y, m, d] = ymd ? [Number(ymd[1]), Number(ymd[2]), Number(ymd[3])] : dmy ? [Number(dmy[3]), Number(dmy[2]), Number(dmy[1])] : [0, 0, 0];
    const date = new Date(Date.UTC(y, m - 1, d));
    if (!y || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d || date.getTime() > Date.now()) {
      ctx.addIssue({ code: 'custom', message: 'field.birth_date' });
      return z.NEVER;
    }
    return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  });

/**
 * The fields of the v2 candidate check, as the exam authority's service names them (multipart).
 * `phone` is not among them: the form asks for it (spec section 3), optional, and sends it as an
 * extra field when given, checked for its format (a national 0812345678 too) and not kept (ADR 0090).
 */
export const candidateCheckRequest = z
  .object({
    'api-token': z.string().trim().min(1).max(200),
    fullname: personName,
    code: z
      .string()
      .trim()
      .regex(new RegExp(`^\\d{${CANDIDATE_CODE_LENGTH}}$`), { error: 'field.candidate_code' }),
    birthdate: calendarDate,
    fullname_collegue_1: personName,
    fullname_collegue_2: personName,
    session_id: z.coerce.number().int().positive(),
    // Optional (spec section 5 requires the names, code, birth date and classmates only); empty is absent.
    phone: z
      .literal('')
      .transform(() => undefined)
      .or(internationalPhone)
      .optional(),
  })
  .refine((v) => comparableName(v.fullname_collegue_1) !== comparableName(v.fullname_collegue_2), {
    error: 'field.classmates_distinct',
    path: ['fullname_collegue_2'],
  });
export type CandidateCheckRequest = z.infer<typeof candidateCheckRequest>;

/**
 * The answer. Only what the person proved they may know: whether they are recognised, their own
 * result and the id of their published diploma; never why a check failed (ADR 0090).
 */
export const candidateCheckResult = z.discriminatedUnion('recognised', [
  z.object({ recognised: z.literal(false) }),
  z.object({
    recognised: z.literal(true),
    candidate: z.object({ fullname: z.string(), session: z.string() }),
    result: z.object({ passed: z.boolean(), percentage: z.number() }),
    /** available: published and valid; pending: not issued or not published yet; revoked. */
    diploma_status: z.enum(['available', 'pending', 'revoked', 'none']),
    diploma_id: z.string().nullable(),
  }),
]);
export type CandidateCheckResult = z.infer<typeof candidateCheckResult>;
export const candidateCheckResponse = envelope(candidateCheckResult);

/**
 * Names compared the way people write them: no case, no accents, hyphens and apostrophes as
 * spaces, single spaces; the parts are sorted, so "Élodie Ngalula Kabamba" matches
 * "NGALULA KABAMBA Elodie" (ADR 0090).
 */
export function comparableName(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[-'’.,]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .sort()
    .join(' ');
}

// ---------------------------------------------------------------- verification (GET /verify/{id}, POST /generations/verify)

export const diplomaIdParam = z.object({ id: z.string().regex(DIPLOMA_ID_PATTERN, { error: 'field.diploma_id' }) });

/** One check as the API reports it; `title` and `message` are in the reader's language. */
export const verificationCheck = z.object({
  name: z.string(),
  status: z.enum(['passed', 'failed', 'not-checked']),
  code: z.string(),
  title: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
  /** The explorer's page of the anchoring transaction (`anchored` only, when configured). */
  link: z.string().optional(),
});
export type VerificationCheck = z.infer<typeof verificationCheck>;

/** A diploma's public fields: those its holder chose to hide are left out and named in `hidden_fields`. */
export const publicDiplomaView = z.object({
  id: z.string(),
  /** The serial printed on it (`DE-2026-0428715-8`, credential version 2); absent on older diplomas. */
  serial: z.string().optional(),
  last_name: z.string().optional(),
  middle_name: z.string().optional(),
  first_name: z.string().optional(),
  birth_date: z.string().optional(),
  option: z.string().optional(),
  option_code: z.string().optional(),
  school: z.string().optional(),
  school_code: z.string().optional(),
  centre: z.string().optional(),
  centre_code: z.string().optional(),
  session: z.string().optional(),
  session_year: z.number().optional(),
  percentage: z.number().optional(),
  issue_date: z.string().optional(),
  issuer: z.object({ id: z.string(), name: z.string() }).optional(),
  hidden_fields: z.array(z.string()).optional(),
});
export type PublicDiplomaView = z.infer<typeof publicDiplomaView>;

export const verificationResult = z.object({
  verdict: z.enum(VERDICTS),
  verdict_label: z.string(),
  /** What was verified: a PDF, a credential document, a QR code, a link, or a portable form (an SD-JWT VC or a W3C VC, ADR 0145). */
  source: z.enum(['pdf', 'credential', 'qr', 'link', 'sd-jwt', 'vc']),
  checks: z.array(verificationCheck),
  diploma: publicDiplomaView.nullable(),
  /**
   * `GET /verify/{id}` only: the public credential, for independent verifiers: the fields the page
   * shows disclosed, every other hidden (its hash in `obfuscated`, no value, no salt; ADR 0134).
   */
  credential: z.record(z.string(), z.unknown()).nullable().optional(),
  /** `GET /verify/{id}` only: the kind of diploma (its batch's type, `diplome_etat`, …), when published. */
  diploma_kind: z.string().nullable().optional(),
});
export type VerificationResultData = z.infer<typeof verificationResult>;
export const verificationResponse = envelope(verificationResult);
