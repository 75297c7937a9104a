import { checkRequirement, type Permission, type Requirement } from '@sceau/contracts';
import type { ReactNode } from 'react';
import { useGrants } from '@/lib/session-context';

export interface PermissionGateProps extends Requirement {
  /** Shorthand for a single permission. */
  permission?: Permission;
  /** Shown instead when the requirement is not met (nothing by default). */
  fallback?: ReactNode;
  children: ReactNode;
}

/**
 * Hides page elements by permission (any / all), role or section (spec section 6). The server
 * enforces the same rules: this only hides what it would refuse.
 */
export function PermissionGate({ permission, fallback = null, children, ...requirement }: PermissionGateProps) {
  const grants = useGrants();
  const anyPermission = permission ? [...(requirement.anyPermission ?? []), permission] : requirement.anyPermission;
  const allowed = checkRequirement(grants, { ...requirement, anyPermission }) === null;
  return <>{allowed ? children : fallback}</>;
}

/** Short alias used in markup: `<Can section="users">…</Can>`. */
export const Can = PermissionGate;
