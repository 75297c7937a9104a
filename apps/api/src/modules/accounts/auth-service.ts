import argon2 from 'argon2';
import { createHash } from 'node:crypto';
import { and, eq, isNotNull, isNull, or } from 'drizzle-orm';
import { normalizePhone } from '@sceau/contracts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

const DEFAULT_DIAL_CODE = '243';

/** argon2id with the library's defaults (OWASP's recommended floor: 19 MiB, 2 passes). */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

// Verified against when the account does not exist, so that a miss costs as much time as a wrong password.
const decoyHash = hashPassword('decoy-password-never-matches');

/**
 * The forms a login name can take: an e-mail (any case) or a phone number written
 * internationally (+243…, 00243…) or nationally (0…, or without the 0) for the default country.
 */
export function loginCandidates(username: string): { email?: string; phones: string[] } {
  const value = username.trim();
  if (value.includes('@')) return { email: value.toLowerCase(), phones: [] };
  const digits = value.replace(/[\s().-]/g, '');
  if (!/^\+?\d{6,15}$/.test(digits) && !/^00\d{6,15}$/.test(digits)) return { phones: [] };
  if (digits.startsWith('+')) return { phones: [digits] };
  if (digits.startsWith('00')) return { phones: [`+${digits.slice(2)}`] };
  const national = digits.replace(/^0/, '');
  return { phones: [`+${DEFAULT_DIAL_CODE}${national}`, `+${digits}`] };
}

/** The account a login name opens with a password (active, contact confirmed), or null. */
export async function findSignInAccount(db: Db, username: string): Promise<{ id: number; passwordHash: string | null } | null> {
  const { email, phones } = loginCandidates(username);
  const conditions = [...(email ? [eq(users.email, email)] : []), ...phones.map((p) => eq(users.phone, p))];
  if (conditions.length === 0) return null;
  const [user] = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    // An account whose contact was never confirmed cannot sign in with a password.
    .where(and(or(...conditions), isNull(users.archivedAt), isNotNull(users.verifiedAt)))
    .limit(1);
  return user ?? null;
}

/**
 * What sign-in attempts are counted against: the account itself when the name resolves to one
 * (every spelling of a phone number, any case of an e-mail, share one counter), else every form
 * the name could take, so that an unknown name is throttled the same way (no enumeration).
 */
export function signInThrottleKeys(username: string, account: { id: number } | null): string[] {
  if (account) return [`user:${account.id}`];
  const { email, phones } = loginCandidates(username);
  const forms = email ? [email] : phones;
  // Keys are bounded (the table's key is 255 characters): a long name is hashed.
  const bounded = (value: string) => (value.length > 200 ? `sha256:${createHash('sha256').update(value).digest('hex')}` : value);
  return (forms.length ? forms : [username.trim().toLowerCase()]).map((form) => `name:${bounded(form)}`);
}

/** Checks a password against an account's hash; without one, against a decoy so that it takes as long. */
export async function passwordMatches(account: { passwordHash: string | null } | null, password: string): Promise<boolean> {
  if (!account?.passwordHash) {
    await argon2.verify(await decoyHash, password);
    return false;
  }
  return argon2.verify(account.passwordHash, password);
}

/** The account an e-mail address or international phone number belongs to (archived ones included). */
export async function findUserByContact(db: Db, mailOrPhone: string) {
  const contact = normaliseContact(mailOrPhone);
  const [user] = await db
    .select()
    .from(users)
    .where(contact.includes('@') ? eq(users.email, contact) : eq(users.phone, contact))
    .limit(1);
  return user ?? null;
}

/** E-mails are kept lower-cased; phone numbers in E.164 by the contracts' one rule (a national `0812345678` too). */
export function normaliseContact(mailOrPhone: string): string {
  const value = mailOrPhone.trim();
  if (value.includes('@')) return value.toLowerCase();
  return normalizePhone(value).value ?? value;
}
