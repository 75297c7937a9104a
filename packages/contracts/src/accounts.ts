import { z } from 'zod';
import { envelope, paged, pageQuery } from './api.ts';
import { profile, roleView } from './auth.ts';
import { NAME_MIN_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';
import { normalizePhone } from './phone.ts';

/**
 * A phone number by the contracts' one rule (normalizePhone): international, or national with its
 * leading 0 for the deployment's country; answers the E.164 form (`+243812345678`).
 */
export const internationalPhone = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const check = normalizePhone(value);
    if (check.error) {
      ctx.addIssue({ code: 'custom', message: check.error, params: check.params });
      return z.NEVER;
    }
    return check.value ?? value;
  });

/** Characters a written phone number may have; anything else (and no `@`) is neither contact. */
const PHONE_LIKE = /^[+\d\s().\-/]+$/;

/** An e-mail address or a phone number (normalised to `+243…` by the same rule). */
export const mailOrPhone = z
  .string()
  .trim()
  .min(1)
  .transform((value, ctx) => {
    if (value.includes('@')) {
      if (!z.email().safeParse(value).success) ctx.addIssue({ code: 'custom', message: 'field.invalid_email' });
      return value;
    }
    if (!PHONE_LIKE.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'field.mail_or_phone' });
      return z.NEVER;
    }
    const check = normalizePhone(value);
    if (check.error) {
      ctx.addIssue({ code: 'custom', message: check.error, params: check.params });
      return z.NEVER;
    }
    return check.value ?? value;
  });

export const password = z.string().min(PASSWORD_MIN_LENGTH).max(200);

function confirmed<T extends { password: string; password_confirmation: string }>(schema: z.ZodType<T>) {
  return schema.refine((v) => v.password === v.password_confirmation, {
    error: 'field.password_mismatch',
    path: ['password_confirmation'],
  });
}

/** POST /register. `first_name` is ours (the form asks for it; the spec's payload has only `name`). */
export const registerRequest = confirmed(
  z.object({
    name: z.string().trim().min(NAME_MIN_LENGTH).max(120),
    first_name: z.string().trim().max(120).optional(),
    mail_or_phone: mailOrPhone,
    password,
    password_confirmation: z.string(),
  }),
);
export type RegisterRequest = z.infer<typeof registerRequest>;

export const OTP_PURPOSES = ['register', 'reset_password'] as const;
export type OtpPurpose = (typeof OTP_PURPOSES)[number];

/**
 * The registration attempt `POST /register` answered with: a registration code is bound to it, so
 * that another registration of the same contact cannot be confirmed by this one's code (ADR 0113).
 */
export const registrationAttempt = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{20,100}$/, { error: 'field.registration_invalid' });

/** A registration code needs the attempt it confirms. */
function attemptForRegistration<T extends { purpose: OtpPurpose; registration?: string | undefined }>(schema: z.ZodType<T>) {
  return schema.refine((v) => v.purpose !== 'register' || Boolean(v.registration), { error: 'field.registration_required', path: ['registration'] });
}

/** POST /register/getOtp. `purpose` and `registration` are ours: the forgot-password page uses it too. */
export const getOtpRequest = attemptForRegistration(
  z.object({
    mail_or_phone: mailOrPhone,
    purpose: z.enum(OTP_PURPOSES).default('register'),
    registration: registrationAttempt.optional(),
  }),
);

export const otpSentResponse = envelope(
  z.object({
    message: z.string(),
    channel: z.enum(['sms', 'email']),
    /** Seconds before another code may be asked for. */
    resend_in: z.number().int(),
    /** Seconds the code stays valid. */
    expires_in: z.number().int(),
  }),
);

/** `POST /register`: the account waits for the one-time code sent for this attempt. */
export const registerResponse = envelope(z.object({ message: z.string(), mail_or_phone: z.string(), registration: z.string() }));

export const validateOtpRequest = attemptForRegistration(
  z.object({
    otp: z
      .string()
      .trim()
      .regex(/^\d{6}$/, { error: 'field.otp_format' }),
    mail_or_phone: mailOrPhone,
    purpose: z.enum(OTP_PURPOSES).default('register'),
    registration: registrationAttempt.optional(),
  }),
);

/** What a successful registration, code validation, reset or Google sign-in answers: the person is signed in. */
export const signedInResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  data: profile,
});

/**
 * POST /reset-password. `current_password` is ours: required, except in the session a recovery code
 * opened (a temporary password counts as the current one).
 */
export const resetPasswordRequest = confirmed(
  z.object({ mail_or_phone: mailOrPhone, current_password: z.string().max(200).optional(), password, password_confirmation: z.string() }),
);

/** POST /auth/byGoogle: the identity comes from the verified `id_token`, never from `google_id` alone. */
export const googleAuthRequest = z.object({
  mail_or_phone: z.string().trim().optional(),
  google_id: z.string().trim().optional(),
  name: z.string().trim().optional(),
  id_token: z.string().min(20),
});

// ---------------------------------------------------------------- users and roles

export const userView = z.object({
  id: z.number().int(),
  name: z.string(),
  first_name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  roles: z.array(z.object({ id: z.number().int(), name: z.string() })),
  scope: z.object({
    institution_id: z.number().int().nullable(),
    centre_id: z.number().int().nullable(),
    province_id: z.number().int().nullable(),
    /** The names of the above, for display. */
    institution_name: z.string().nullable(),
    centre_name: z.string().nullable(),
    province_name: z.string().nullable(),
  }),
  verified: z.boolean(),
  archived: z.boolean(),
  created_at: z.string(),
  /** What the signed-in user may do to this account (the server's policy; the web shows only these actions). */
  abilities: z.object({
    edit: z.boolean(),
    change_access: z.boolean(),
    reset_password: z.boolean(),
    send_sign_in_link: z.boolean(),
    archive: z.boolean(),
  }),
});
export type UserView = z.infer<typeof userView>;
export type UserAbilities = UserView['abilities'];

export const USER_SORTS = ['name', 'created_at', 'role'] as const;

export const usersQuery = pageQuery.extend({
  search: z.string().trim().max(120).optional(),
  /** A role id or name. */
  role: z.string().trim().max(64).optional(),
  sort: z.enum(USER_SORTS).default('name'),
  archived: z.enum(['0', '1']).optional(),
});

export const usersResponse = paged(userView);
export const userResponse = envelope(userView);
/** Every role, and whether the signed-in user may give (or take away) it: the server's grant rule. */
export const grantableRoleView = roleView.extend({ grantable: z.boolean() });
export type GrantableRoleView = z.infer<typeof grantableRoleView>;
export const rolesResponse = envelope(z.array(grantableRoleView));

const nullableId = z.number().int().positive().nullable().optional();

const userFields = z.object({
  name: z.string().trim().min(NAME_MIN_LENGTH).max(120),
  first_name: z.string().trim().max(120).nullable().optional(),
  email: z.string().trim().toLowerCase().pipe(z.email()).nullable().optional(),
  phone: internationalPhone.nullable().optional(),
  /** Role ids. */
  roles: z.array(z.number().int().positive()).max(10),
  institution_id: nullableId,
  centre_id: nullableId,
  province_id: nullableId,
});

export const createUserRequest = userFields.refine((u) => Boolean(u.email || u.phone), {
  error: 'field.mail_or_phone_required',
  path: ['email'],
});
export const updateUserRequest = userFields.partial();
export const archiveUsersRequest = z.object({ users: z.array(z.number().int().positive()).min(1).max(200) });

export const archiveUsersResponse = envelope(z.object({ archived: z.number().int(), message: z.string() }));

export const resetUserPasswordResponse = envelope(z.object({ message: z.string(), channel: z.enum(['sms', 'email']) }));

// ---------------------------------------------------------------- official signatures

export const SIGNATURE_KINDS = ['ministry', 'inspector_general', 'jury'] as const;
export type SignatureKind = (typeof SIGNATURE_KINDS)[number];
export const SIGNATURE_MAX_BYTES = 2 * 1024 * 1024;

export const signatureView = z.object({
  kind: z.enum(SIGNATURE_KINDS),
  name: z.string(),
  title: z.string(),
  /** Where the processed (transparent PNG) image is served. */
  image_url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  updated_at: z.string(),
  updated_by: z.string().nullable(),
});
export type SignatureView = z.infer<typeof signatureView>;

export const signaturesStateResponse = envelope(
  z.object({ ministry: signatureView.nullable(), inspector_general: signatureView.nullable(), jury: signatureView.nullable() }),
).extend({
  /** What the signed-in user may do on /settings (official signatures are national: the server's policy). */
  abilities: z.object({ add: z.boolean(), replace: z.boolean(), remove: z.boolean() }),
});
export const signatureFields = z.object({
  kind: z.enum(SIGNATURE_KINDS),
  name: z.string().trim().min(NAME_MIN_LENGTH).max(120),
  title: z.string().trim().min(2).max(160),
});
export const signatureKindParam = z.object({ kind: z.enum(SIGNATURE_KINDS) });

// ---------------------------------------------------------------- audit log

export const auditEntryView = z.object({
  id: z.number().int(),
  at: z.string(),
  actor_id: z.number().int().nullable(),
  actor: z.string().nullable(),
  action: z.string(),
  subject_type: z.string().nullable(),
  subject_id: z.string().nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export const auditLogQuery = pageQuery.extend({
  actor: z.coerce.number().int().positive().optional(),
  action: z.string().trim().max(64).optional(),
});
export type AuditLogQuery = z.infer<typeof auditLogQuery>;
export const auditLogResponse = paged(auditEntryView);
