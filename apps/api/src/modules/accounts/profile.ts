import { flattenGrants, type Profile } from '@sceau/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { loadRolesOf } from '../../policies/grants.ts';

/** The signed-in account as `/me` shows it (null once archived). */
export async function loadProfile(db: Db, userId: number): Promise<Profile | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user || user.archivedAt) return null;
  const userRolesList = (await loadRolesOf(db, [userId])).get(userId) ?? [];
  return {
    id: user.id,
    name: user.name,
    first_name: user.firstName,
    email: user.email,
    phone: user.phone,
    locale: user.locale,
    roles: userRolesList,
    permissions: [...flattenGrants(userRolesList).permissions],
    scope: { institution_id: user.institutionId, centre_id: user.centreId, province_id: user.educProvinceId },
    password_reset_required: user.passwordResetRequired,
    google_linked: user.googleSub !== null,
    created_at: user.createdAt.toISOString(),
  };
}
