/**
 * The permission and role catalogue of spec section 6, and the checks built on it.
 * Shared by the API (enforcement) and the web app (hiding what the server forbids).
 */

export const PERMISSIONS = [
  'generation.create',
  'generation.view',
  'generation.generate',
  'generation.view.rejected',
  'generation.download.one',
  'generation.download.many',
  'generation.share.email',
  'validation.photo',
  'validation.data',
  'users.list',
  'users.create',
  'users.edit',
  'users.delete',
  'signatures.list',
  'signatures.create',
  'signatures.edit',
  'signatures.delete',
  'broadcast.send',
  // Beyond the spec's list (ADR 0120): revoking a published diploma or batch writes to the registry for ever.
  'diplomas.revoke',
  // Beyond the spec's list (ADR 0139): adding, renaming and importing schools and centres (national accounts only).
  'reference.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * A batch's staff: whoever sees it, makes or launches it, validates its candidates, follows its
 * rejections or broadcasts it. They read its history (ADR 0149): the route's requirement and the
 * batch policy's rule (`generationPolicy.viewHistory`) both use this list.
 */
export const BATCH_STAFF_PERMISSIONS = [
  'generation.view',
  'generation.create',
  'generation.generate',
  'validation.photo',
  'validation.data',
  'generation.view.rejected',
  'broadcast.send',
] as const satisfies readonly Permission[];

export const ROLES = ['root', 'admin', 'validateur', 'controleur', 'backoffice_manager', 'validator'] as const;
export type RoleName = (typeof ROLES)[number];

/**
 * Default grants. root, admin, validateur and controleur are the spec's lists. The spec does not say
 * what backoffice_manager and validator may do; they get a conservative set (ADR 0005):
 * backoffice_manager distributes what others issued, validator checks photos and data like validateur.
 */
export const DEFAULT_ROLE_PERMISSIONS: Record<RoleName, readonly Permission[]> = {
  root: PERMISSIONS,
  admin: [
    'generation.create',
    'generation.view',
    'generation.generate',
    'validation.photo',
    'validation.data',
    'users.list',
    'users.create',
    'users.edit',
    'signatures.list',
    'signatures.create',
    'signatures.edit',
    'diplomas.revoke',
    'reference.manage',
  ],
  validateur: ['validation.photo', 'validation.data', 'generation.view'],
  controleur: ['validation.data', 'generation.view'],
  backoffice_manager: ['generation.view', 'generation.view.rejected', 'generation.download.one', 'generation.download.many', 'generation.share.email'],
  validator: ['validation.photo', 'validation.data', 'generation.view'],
};

export const SECTIONS = {
  generation: ['generation.create', 'generation.view', 'generation.generate'],
  validation: ['validation.photo', 'validation.data'],
  users: ['users.list', 'users.create', 'users.edit'],
  signatures: ['signatures.list', 'signatures.create', 'signatures.edit'],
  broadcast: ['broadcast.send'],
} as const satisfies Record<string, readonly Permission[]>;
export type Section = keyof typeof SECTIONS;

export const ADMIN_ROLES = ['root', 'admin'] as const satisfies readonly RoleName[];

/** What a signed-in user holds: role names and the flattened union of their permissions. */
export interface Grants {
  roles: readonly string[];
  permissions: readonly string[];
}

export function hasPermission(grants: Grants, permission: Permission): boolean {
  return grants.permissions.includes(permission);
}

export function hasAnyPermission(grants: Grants, permissions: readonly Permission[]): boolean {
  return permissions.some((p) => grants.permissions.includes(p));
}

export function hasAllPermissions(grants: Grants, permissions: readonly Permission[]): boolean {
  return permissions.every((p) => grants.permissions.includes(p));
}

export function hasRole(grants: Grants, role: RoleName): boolean {
  return grants.roles.includes(role);
}

export function hasAnyRole(grants: Grants, roles: readonly RoleName[]): boolean {
  return roles.some((r) => grants.roles.includes(r));
}

export function isAdmin(grants: Grants): boolean {
  return hasAnyRole(grants, ADMIN_ROLES);
}

/** A section is open to whoever holds any one of its permissions. */
export function canAccessSection(grants: Grants, section: Section): boolean {
  return hasAnyPermission(grants, SECTIONS[section]);
}

/** Display grouping: by the prefix before the first dot ("generation.view.rejected" → "generation"). */
export function groupPermissions(permissions: readonly string[]): Record<string, string[]> {
  const groups: Record<string, string[]> = {};
  for (const permission of permissions) {
    const prefix = permission.split('.')[0] ?? permission;
    (groups[prefix] ??= []).push(permission);
  }
  return groups;
}

/** The profile's roles each carry their permissions; the user holds their union. */
export function flattenGrants(roles: readonly { name: string; permissions: readonly { name: string }[] }[]): Grants {
  const permissions = new Set<string>();
  for (const role of roles) for (const p of role.permissions) permissions.add(p.name);
  return { roles: roles.map((r) => r.name), permissions: [...permissions].sort() };
}

/**
 * A requirement on a route or page element. Every listed condition must hold; `anyPermission`
 * needs one of its list, `allPermissions` all of it.
 */
export interface Requirement {
  anyRole?: readonly RoleName[];
  anyPermission?: readonly Permission[];
  allPermissions?: readonly Permission[];
  section?: Section;
}

export type RequirementFailure = 'role' | 'permission' | 'section';

/** Checks in the guard order of the spec: role, then permission, then section; the first failure wins. */
export function checkRequirement(grants: Grants, requirement: Requirement): RequirementFailure | null {
  if (requirement.anyRole && !hasAnyRole(grants, requirement.anyRole)) return 'role';
  if (requirement.anyPermission && !hasAnyPermission(grants, requirement.anyPermission)) return 'permission';
  if (requirement.allPermissions && !hasAllPermissions(grants, requirement.allPermissions)) return 'permission';
  if (requirement.section && !canAccessSection(grants, requirement.section)) return 'section';
  return null;
}
