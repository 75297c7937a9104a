import { flattenGrants, type Profile, type RoleView } from '@sceau/contracts';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { permissions, rolePermissions, roles, userRoles, users } from '../../db/schema.ts';

/** Each role of the given users, with its permissions, keyed by user. */
export async function loadRolesOf(db: Db, userIds: number[]): Promise<Map<number, RoleView[]>> {
  const result = new Map<number, RoleView[]>();
  if (userIds.length === 0) return result;
  const rows = await db
    .select({
      userId: userRoles.userId,
      roleId: roles.id,
      roleName: roles.name,
      permissionId: permissions.id,
      permissionName: permissions.name,
    })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .leftJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
    .leftJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(inArray(userRoles.userId, userIds))
    .orderBy(asc(roles.name), asc(permissions.name));
  for (const row of rows) {
    const list = result.get(row.userId) ?? [];
    let role = list.find((r) => r.id === row.roleId);
    if (!role) {
      role = { id: row.roleId, name: row.roleName, permissions: [] };
      list.push(role);
    }
    if (row.permissionId !== null && row.permissionName !== null) role.permissions.push({ id: row.permissionId, name: row.permissionName });
    result.set(row.userId, list);
  }
  return result;
}

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

/** Every role with its permissions. */
export async function loadAllRoles(db: Db): Promise<RoleView[]> {
  const rows = await db
    .select({ roleId: roles.id, roleName: roles.name, permissionId: permissions.id, permissionName: permissions.name })
    .from(roles)
    .leftJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
    .leftJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .orderBy(asc(roles.id), asc(permissions.name));
  const byId = new Map<number, RoleView>();
  for (const row of rows) {
    const role = byId.get(row.roleId) ?? { id: row.roleId, name: row.roleName, permissions: [] };
    if (row.permissionId !== null && row.permissionName !== null) role.permissions.push({ id: row.permissionId, name: row.permissionName });
    byId.set(row.roleId, role);
  }
  return [...byId.values()];
}

/** The given roles with their permissions (for the grant rule). */
export async function loadRolesWithPermissions(db: Db, roleIds: number[]): Promise<RoleView[]> {
  if (roleIds.length === 0) return [];
  const wanted = new Set(roleIds);
  return (await loadAllRoles(db)).filter((role) => wanted.has(role.id));
}
