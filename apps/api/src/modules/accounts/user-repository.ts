import type { RoleView } from '@sceau/contracts';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { permissions, rolePermissions, roles } from '../../db/schema.ts';

// Moved to policies/ so that the access plugin may load an Actor without importing a module (ADR 0124);
// re-exported for the callers that still import it from here.

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
