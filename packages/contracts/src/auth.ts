import { z } from 'zod';
import { envelope } from './api.ts';

/** POST /oauth/token, password grant (spec section 7). `username` is an e-mail or a phone number. */
export const tokenRequest = z.object({
  grant_type: z.string().min(1),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  username: z.string().trim().min(1),
  password: z.string().min(1),
  scope: z.string().optional().default(''),
});
export type TokenRequest = z.infer<typeof tokenRequest>;

export const tokenResponse = z.object({
  token_type: z.literal('Bearer'),
  access_token: z.string(),
  expires_in: z.number().int(),
});
export type TokenResponse = z.infer<typeof tokenResponse>;

export const permissionView = z.object({ id: z.number().int(), name: z.string() });
export const roleView = z.object({
  id: z.number().int(),
  name: z.string(),
  permissions: z.array(permissionView),
});
export type RoleView = z.infer<typeof roleView>;

export const scopeView = z.object({
  institution_id: z.number().int().nullable(),
  centre_id: z.number().int().nullable(),
  province_id: z.number().int().nullable(),
});

/** GET /me: the profile, with its roles and each role's permissions (spec: `data.data`). */
export const profile = z.object({
  id: z.number().int(),
  name: z.string(),
  first_name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  locale: z.string(),
  roles: z.array(roleView),
  /** The flattened union of the roles' permissions, sorted, so a client need not recompute it. */
  permissions: z.array(z.string()),
  scope: scopeView,
  /** An administrator reset the password: the person must choose a new one (/reset-password). */
  password_reset_required: z.boolean(),
  /** Whether Google sign-in is linked to the account. */
  google_linked: z.boolean(),
  created_at: z.string(),
});
export type Profile = z.infer<typeof profile>;

export const meResponse = envelope(z.object({ data: profile }));
export type MeResponse = z.infer<typeof meResponse>;

export const logoutResponse = envelope(z.object({ message: z.string() }));
