import type { RoleView } from '@sceau/contracts';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { permissions, rolePermissions, roles, userRoles } from '../db/schema.ts';

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
